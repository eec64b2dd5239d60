/**
 * Noticing a library the browser cleared. A browser that has not granted persistent storage
 * (`navigator.storage.persist()` refused) may evict the site's IndexedDB under storage pressure
 * between two visits; the app would then open on an empty library (or, once the demo is added
 * again, on the demo alone) as if nothing had been there. So the page keeps a small marker in
 * localStorage — how many documents and chunks the library had when last seen — and compares it
 * with what the worker opens at start.
 *
 * The stored library's own `demoInstalled` flag tells a cleared database apart from a library the
 * user emptied: removing every document keeps the flag (and the marker follows the removals),
 * while an evicted database has lost it. Where the browser cleared localStorage together with
 * IndexedDB there is no marker left and nothing can be told: the check then says nothing.
 */

/** The marker, version 1 (a newer or unreadable marker is ignored and rewritten). */
export interface LibraryMarker {
  readonly version: 1;
  readonly documents: number;
  readonly chunks: number;
  /** ISO time the library was last seen with these counts. */
  readonly at: string;
}

export const LIBRARY_MARKER_KEY = 'evident.library-marker';

/** What the worker opened (`LibraryInfo`): the counts and flags the check needs. */
export interface OpenedLibrary {
  readonly persistent: boolean;
  readonly documents: number;
  readonly demoInstalled: boolean;
  /** Documents whose stored chunks did not match their record (skipped at open). */
  readonly skipped: number;
}

export type LibraryCheck =
  | { readonly kind: 'ok' }
  /** The database is new: everything the marker counted is gone. */
  | { readonly kind: 'evicted'; readonly marker: LibraryMarker }
  /** Some documents are missing or could not be read. */
  | { readonly kind: 'partial'; readonly marker: LibraryMarker | null; readonly missing: number };

type MarkerStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The page's localStorage, or null where there is none (Node, a sandboxed frame, storage disabled). */
export function pageStorage(): MarkerStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Reading `localStorage` throws where the user blocked site data.
    return null;
  }
}

export function readMarker(storage: MarkerStorage | null): LibraryMarker | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(LIBRARY_MARKER_KEY) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const m = JSON.parse(raw) as Partial<LibraryMarker> | null;
    const count = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
    if (m?.version !== 1 || !count(m.documents) || !count(m.chunks) || typeof m.at !== 'string') return null;
    return { version: 1, documents: m.documents, chunks: m.chunks, at: m.at };
  } catch {
    return null;
  }
}

/** Records the library as it is now (after it was read, changed, imported). */
export function writeMarker(
  storage: MarkerStorage | null,
  counts: { readonly documents: number; readonly chunks: number },
  now: Date = new Date(),
): void {
  const marker: LibraryMarker = {
    version: 1,
    documents: counts.documents,
    chunks: counts.chunks,
    at: now.toISOString(),
  };
  try {
    storage?.setItem(LIBRARY_MARKER_KEY, JSON.stringify(marker));
  } catch {
    // Full or blocked: the next check has an older marker, or none.
  }
}

/** Compares what was opened with the marker of the last visit. */
export function checkLibrary(marker: LibraryMarker | null, opened: OpenedLibrary): LibraryCheck {
  // A tab-only library (no IndexedDB) was never kept: nothing to compare.
  if (!opened.persistent) return { kind: 'ok' };
  if (marker && marker.documents > 0 && !opened.demoInstalled && opened.documents === 0) {
    return { kind: 'evicted', marker };
  }
  const fewer = marker && opened.demoInstalled ? Math.max(0, marker.documents - opened.documents) : 0;
  const missing = Math.max(fewer, opened.skipped);
  return missing > 0 ? { kind: 'partial', marker, missing } : { kind: 'ok' };
}

/** The message for a library that is not whole (null: it is). */
export function lostLibraryMessage(check: LibraryCheck, locale?: string): string | null {
  if (check.kind === 'ok') return null;
  const restore =
    'Restore it from a backup: Library → Backup and storage → Import a library file. Browsers may clear a site’s storage when space runs low unless they let the site keep it.';
  if (check.kind === 'evicted') {
    const { documents, at } = check.marker;
    return `Your library of ${documents} document${documents === 1 ? '' : 's'} (last seen ${when(at, locale)}) is no longer in this browser: the browser cleared this site’s storage. ${restore}`;
  }
  const of = check.marker ? ` of the ${check.marker.documents} last seen ${when(check.marker.at, locale)}` : '';
  return `${check.missing} document${check.missing === 1 ? '' : 's'}${of} ${check.missing === 1 ? 'is' : 'are'} missing from the library or could not be read: the browser may have cleared part of this site’s storage. ${restore}`;
}

function when(iso: string, locale?: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? 'earlier'
    : `on ${d.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })}`;
}
