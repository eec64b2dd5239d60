/**
 * Export and import of the whole library, and how much of the browser's storage it uses.
 *
 * - Export: the worker reads every document, chunk, the active model's vectors (the library also
 *   keeps the previous model's; a backup does not), the priors and the feedback log in one read
 *   transaction and encodes them as one versioned file (`src/core/library-format.ts`); the page
 *   saves it as `evident-library-YYYY-MM-DD.evlib`.
 * - Import is two steps: choosing a file shows what will happen (merge: the file's documents are
 *   added and replace those with the same id; replace: the library becomes exactly the file's),
 *   then the user confirms. The worker validates the whole file before it writes anything, and
 *   writes it in one transaction: a damaged or forged file, or a full disk, leaves the library as
 *   it was, and the message says so.
 * - Protection: an export may be sealed with a passphrase (`src/core/library-crypto.ts`); the
 *   result says whether it was. A chosen file is sniffed by its first bytes, so the import form
 *   asks for the passphrase only for a protected one; a wrong passphrase keeps the file chosen
 *   so the user can type it again.
 */
import type { EvidentErrorValue } from '../core/errors';
import { ENCRYPTED_LIBRARY_MAGIC } from '../core/library-crypto';
import type { StorageUsage } from '../storage/usage';
import { storageUsage } from '../storage/usage';
import type { ImportLibraryResult } from '../worker/api';
import { Store, toErrorValue } from './store';
import type { WorkerClient } from './worker-client';

export type ImportMode = 'merge' | 'replace';

/** The file picker's hint; the worker decides by the bytes. */
export const LIBRARY_FILE_EXTENSION = '.evlib';
/** Largest export file read into memory (the format's own limit: `DEFAULT_IMPORT_LIMITS.maxBytes`). */
export const MAX_IMPORT_BYTES = 2 ** 31 - 1;

export type ExportState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'working' }
  | {
      readonly phase: 'done';
      readonly fileName: string;
      readonly bytes: number;
      /** Sealed with a passphrase; false: anyone with the file can read the library. */
      readonly encrypted: boolean;
    }
  | { readonly phase: 'error'; readonly error: EvidentErrorValue };

export type ImportState =
  | { readonly phase: 'idle' }
  /** A file is chosen; nothing happens until the user confirms. */
  | {
      readonly phase: 'chosen';
      readonly fileName: string;
      readonly size: number;
      /** A passphrase-protected file (null while its first bytes are being read). */
      readonly encrypted: boolean | null;
      /** Why the last try did not open it (a wrong or missing passphrase): the file stays chosen. */
      readonly error?: EvidentErrorValue;
    }
  | { readonly phase: 'working'; readonly fileName: string; readonly mode: ImportMode }
  | {
      readonly phase: 'done';
      readonly fileName: string;
      readonly mode: ImportMode;
      readonly result: ImportLibraryResult;
    }
  | { readonly phase: 'error'; readonly fileName: string; readonly error: EvidentErrorValue };

export interface BackupState {
  readonly export: ExportState;
  readonly import: ImportState;
  readonly mode: ImportMode;
  /** null until read (or where the browser does not say). */
  readonly usage: StorageUsage | null;
}

type Client = Pick<WorkerClient, 'exportLibrary' | 'importLibrary' | 'fillVectors'>;

export interface BackupStoreOptions {
  /** The library changed (an import): refresh the document list. */
  readonly onLibraryChanged?: () => void;
  /** Hands the export file to the user. Default: a download through a temporary link. */
  readonly save?: (file: Blob, fileName: string) => void;
  /** Storage usage. Default `navigator.storage` (`src/storage/usage.ts`). */
  readonly usage?: () => Promise<StorageUsage>;
  readonly now?: () => Date;
}

/** Downloads `file` as `fileName` through a temporary object URL. */
export function saveWithLink(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own reference once started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** `evident-library-2025-03-07.evlib` (the local date). */
export function exportFileName(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `evident-library-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}${LIBRARY_FILE_EXTENSION}`;
}

export class BackupStore extends Store<BackupState> {
  private chosen: File | null = null;
  private sniffing: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: Client,
    private readonly options: BackupStoreOptions = {},
  ) {
    super({ export: { phase: 'idle' }, import: { phase: 'idle' }, mode: 'merge', usage: null });
  }

  /** Exports the library and hands the file to the user; sealed when a passphrase is given. */
  async exportLibrary(options: { readonly passphrase?: string } = {}): Promise<void> {
    if (this.getState().export.phase === 'working') return;
    this.set({ export: { phase: 'working' } });
    const passphrase = options.passphrase === '' ? undefined : options.passphrase;
    try {
      const bytes = await this.client.exportLibrary(passphrase === undefined ? {} : { passphrase });
      const fileName = exportFileName(this.options.now?.() ?? new Date());
      const file = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' });
      (this.options.save ?? saveWithLink)(file, fileName);
      this.set({ export: { phase: 'done', fileName, bytes: bytes.byteLength, encrypted: passphrase !== undefined } });
    } catch (err) {
      this.set({ export: { phase: 'error', error: toErrorValue(err) } });
    }
  }

  /** A file to import was chosen: it waits for `confirmImport`. Its first bytes say whether it is protected. */
  choose(file: File): void {
    if (this.getState().import.phase === 'working') return;
    this.chosen = file;
    this.set({ import: { phase: 'chosen', fileName: file.name, size: file.size, encrypted: null } });
    this.sniffing = (async () => {
      let encrypted = false;
      try {
        const head = new Uint8Array(await file.slice(0, ENCRYPTED_LIBRARY_MAGIC.length).arrayBuffer());
        encrypted = ENCRYPTED_LIBRARY_MAGIC.every((b, i) => head[i] === b);
      } catch {
        // Unreadable: the import says so.
      }
      const s = this.getState().import;
      if (this.chosen === file && s.phase === 'chosen') this.set({ import: { ...s, encrypted } });
    })();
  }

  setMode(mode: ImportMode): void {
    if (mode !== 'merge' && mode !== 'replace') return;
    this.set({ mode });
  }

  cancelImport(): void {
    if (this.getState().import.phase !== 'chosen') return;
    this.chosen = null;
    this.set({ import: { phase: 'idle' } });
  }

  /** Imports the chosen file in the chosen mode (with `passphrase` for a protected file). */
  async confirmImport(passphrase?: string): Promise<void> {
    await this.sniffing;
    const file = this.chosen;
    const chosen = this.getState().import;
    if (!file || chosen.phase !== 'chosen') return;
    if (chosen.encrypted === true && !passphrase) {
      this.set({
        import: {
          ...chosen,
          error: { code: 'passphrase_required', message: 'This file is protected: enter its passphrase to import it.' },
        },
      });
      return;
    }
    this.chosen = null;
    const { mode } = this.getState();
    const fileName = file.name;
    const fail = (error: EvidentErrorValue): void => this.set({ import: { phase: 'error', fileName, error } });
    if (file.size === 0) return fail({ code: 'invalid_input', message: 'The file is empty.' });
    if (file.size > MAX_IMPORT_BYTES) {
      return fail({
        code: 'file_too_large',
        message: 'The file is larger than an Evident library file can be (2 GB).',
      });
    }
    this.set({ import: { phase: 'working', fileName, mode } });
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (err) {
      return fail({ code: 'invalid_input', message: `The browser could not read it (${toErrorValue(err).message}).` });
    }
    let result: ImportLibraryResult;
    try {
      result = await this.client.importLibrary(bytes, chosen.encrypted ? { mode, passphrase } : { mode });
    } catch (err) {
      const error = toErrorValue(err);
      if (error.code === 'wrong_passphrase' || error.code === 'passphrase_required') {
        // Keep the file: the user types the passphrase again.
        this.chosen = file;
        this.set({ import: { phase: 'chosen', fileName, size: file.size, encrypted: true, error } });
        return;
      }
      fail(error);
      void this.refreshUsage();
      return;
    }
    this.set({ import: { phase: 'done', fileName, mode, result } });
    this.options.onLibraryChanged?.();
    void this.refreshUsage();
    // `vectors` counts the rows of the library's model only: a file embedded by another model is embedded again.
    if (result.vectors < result.chunks) void this.fillVectors();
  }

  /** Clears a finished export or import message. */
  dismiss(which: 'export' | 'import'): void {
    const s = this.getState()[which];
    if (s.phase === 'done' || s.phase === 'error') this.set({ [which]: { phase: 'idle' } });
  }

  async refreshUsage(): Promise<void> {
    try {
      this.set({ usage: await (this.options.usage ?? storageUsage)() });
    } catch {
      // Usage is informative only.
    }
  }

  /** Imported chunks without vectors of the loaded model (another model's, or none): embed them. */
  private async fillVectors(): Promise<void> {
    try {
      await this.client.fillVectors();
      this.options.onLibraryChanged?.();
      void this.refreshUsage();
    } catch {
      // No model loaded yet: the next start fills them (EvidentSession.start).
    }
  }
}
