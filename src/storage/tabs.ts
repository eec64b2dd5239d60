/**
 * Several tabs of the app on one library (one IndexedDB per origin). Shared by the worker and
 * the page, so both sides name the same lock and channel:
 *
 * - Writes take the Web Lock `LIBRARY_WRITE_LOCK` (in the worker's `exclusive`): one tab writes
 *   at a time, so two batches never interleave; the other tab's write waits for it.
 * - After a write the page that asked for it posts `changed` on `LIBRARY_CHANNEL`
 *   (`WorkerClient`); every other tab reads the library from storage again and lists it.
 * - A newer Evident opening the database with a higher version fires `versionchange` on the old
 *   connections: the old worker closes its connection (so the upgrade is not blocked), stops
 *   writing, and posts `db-closed` with its schema version; the pages of that version tell the
 *   user to reload.
 */
export const LIBRARY_WRITE_LOCK = 'evident-library-write';
export const LIBRARY_CHANNEL = 'evident-library';

export type LibraryChannelMessage =
  | { readonly type: 'changed' }
  /** The worker of schema `version` closed its connection for a newer version's upgrade. */
  | { readonly type: 'db-closed'; readonly version: number };

export const CLOSED_FOR_UPGRADE =
  'Evident was updated in another tab, so this tab can no longer change the library: reload this page (nothing was changed).';

/** A message of the channel, or null for anything else (another app's, a malformed one). */
export function parseChannelMessage(data: unknown): LibraryChannelMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as { type?: unknown; version?: unknown };
  if (m.type === 'changed') return { type: 'changed' };
  if (m.type === 'db-closed' && typeof m.version === 'number' && Number.isInteger(m.version)) {
    return { type: 'db-closed', version: m.version };
  }
  return null;
}
