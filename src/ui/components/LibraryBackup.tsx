import { useEffect, useId, useState, useSyncExternalStore, type ChangeEvent, type FormEvent } from 'react';
import type { EvidentErrorValue } from '../../core/errors';
import { MIN_PASSPHRASE_CHARS } from '../../core/library-crypto';
import type { StorageUsage } from '../../storage/usage';
import { LIBRARY_FILE_EXTENSION, type BackupStore, type ImportMode } from '../backup-store';
import { formatBytes } from '../format';

interface Props {
  readonly store: BackupStore;
  /** Documents and chunks in the library now (the replace warning; usage is read again when they change). */
  readonly documents: number;
  readonly chunks: number;
}

/** Sizes up to gigabytes (a browser's quota is often hundreds of them). */
function size(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : formatBytes(bytes);
}

function usageText(usage: StorageUsage | null): string {
  if (!usage || usage.usage === null) return 'This browser does not say how much storage Evident uses.';
  const of = usage.quota !== null ? ` of the ${size(usage.quota)} this browser allows this site` : '';
  const kept =
    usage.persisted === true
      ? ' The browser keeps it even when space runs low.'
      : usage.persisted === false
        ? ' The browser may clear it when space runs low: export a copy to keep it safe.'
        : '';
  return `The library uses ${size(usage.usage)}${of}.${kept}`;
}

/** Why the export's passphrase cannot be used yet (null: it can). */
function passphraseProblem(passphrase: string, repeat: string): string | null {
  if ([...passphrase.normalize('NFC')].length < MIN_PASSPHRASE_CHARS) {
    return `A passphrase needs at least ${MIN_PASSPHRASE_CHARS} characters; a few unrelated words are best.`;
  }
  if (passphrase !== repeat) return 'The two passphrases differ.';
  return null;
}

/**
 * Backup and storage: how much space the library takes, export to one file (protected with a
 * passphrase or, said plainly, not), and import of such a file (merge or replace, confirmed
 * before anything is written; a bad file or a wrong passphrase changes nothing).
 */
export function LibraryBackup({ store, documents, chunks }: Props) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const id = useId();
  const [protect, setProtect] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const problem = protect ? passphraseProblem(passphrase, repeat) : null;
  const onExport = (): void => {
    const given = protect ? passphrase : undefined;
    void store.exportLibrary(given === undefined ? {} : { passphrase: given }).then(() => {
      // The passphrase is not kept on the page once the file is made.
      setPassphrase('');
      setRepeat('');
    });
  };
  useEffect(() => {
    void store.refreshUsage();
  }, [store, documents, chunks]);
  const onChoose = (e: ChangeEvent<HTMLInputElement>): void => {
    const file = e.target.files?.[0];
    // Clear it so choosing the same file again fires another change.
    e.target.value = '';
    if (file) store.choose(file);
  };
  const imp = state.import;
  const exp = state.export;
  const busy = imp.phase === 'working';
  return (
    <section
      className="panel backup"
      aria-labelledby={`${id}-heading`}
      data-testid="backup"
      data-export={exp.phase}
      data-import={imp.phase}
    >
      <h2 id={`${id}-heading`}>Backup and storage</h2>
      <p className="muted" data-testid="storage-usage">
        {usageText(state.usage)}
      </p>
      <div className="inline-row backup-actions">
        <button
          type="button"
          className="secondary"
          disabled={exp.phase === 'working' || busy || problem !== null}
          onClick={onExport}
        >
          {exp.phase === 'working' ? 'Exporting…' : 'Export library'}
        </button>
        <label className={`file-button secondary-file${busy ? ' file-button-disabled' : ''}`}>
          <span>Import a library file…</span>
          <input
            className="visually-hidden"
            type="file"
            accept={`${LIBRARY_FILE_EXTENSION},application/octet-stream`}
            aria-label="Import a library file"
            disabled={busy}
            onChange={onChoose}
          />
        </label>
      </div>
      <fieldset className="field backup-protect">
        <label className="check">
          <input type="checkbox" checked={protect} onChange={(e) => setProtect(e.target.checked)} />
          <span>Protect the export with a passphrase</span>
        </label>
        {protect ? (
          <>
            <label className="field">
              <span>Passphrase</span>
              <input
                type="password"
                autoComplete="new-password"
                value={passphrase}
                onChange={(e) => setPassphrase(e.target.value)}
              />
            </label>
            <label className="field">
              <span>Repeat the passphrase</span>
              <input
                type="password"
                autoComplete="new-password"
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
              />
            </label>
            <p className={problem ? 'muted' : 'ok'} data-testid="passphrase-check">
              {problem ??
                'The file will be encrypted (AES-256-GCM). Keep the passphrase: without it the file cannot be opened, by anyone.'}
            </p>
          </>
        ) : (
          <p className="muted" data-testid="export-unprotected">
            Without a passphrase the file is not encrypted: anyone who gets a copy can read every document in it.
          </p>
        )}
      </fieldset>
      <p className="muted backup-hint">
        The export is one file with every document, chunk and vector, the original PDFs (for their page view), your
        feedback and the source priors. Keep it to move the library to another browser or to restore it.
      </p>
      {exp.phase === 'done' && (
        <p className="ok" role="status" data-testid="export-result" data-encrypted={exp.encrypted}>
          Saved “{exp.fileName}” ({formatBytes(exp.bytes)}),{' '}
          {exp.encrypted
            ? 'protected with your passphrase.'
            : 'unprotected: anyone with the file can read it. Keep it somewhere safe.'}{' '}
          <button type="button" className="secondary small" onClick={() => store.dismiss('export')}>
            OK
          </button>
        </p>
      )}
      {exp.phase === 'error' && (
        <p className="error" role="alert">
          The library could not be exported: {exp.error.message}
        </p>
      )}
      {imp.phase === 'chosen' && (
        <ImportForm
          id={id}
          fileName={imp.fileName}
          fileSize={imp.size}
          encrypted={imp.encrypted}
          error={imp.error}
          mode={state.mode}
          documents={documents}
          onMode={(m) => store.setMode(m)}
          onConfirm={(passphrase) => void store.confirmImport(passphrase)}
          onCancel={() => store.cancelImport()}
        />
      )}
      {imp.phase === 'working' && (
        <p role="status" aria-live="polite">
          Checking and importing “{imp.fileName}”… Nothing changes unless the whole file is valid.
        </p>
      )}
      {imp.phase === 'done' && (
        <p className="ok" role="status" data-testid="import-result">
          Imported “{imp.fileName}”: {imp.result.documents} document{imp.result.documents === 1 ? '' : 's'},{' '}
          {imp.result.chunks} chunk{imp.result.chunks === 1 ? '' : 's'}
          {imp.result.vectors < imp.result.chunks &&
            ` (${imp.result.vectors} with vectors; the rest are being embedded)`}
          .
          {imp.mode === 'merge' &&
            imp.result.replaced > 0 &&
            ` ${imp.result.replaced} document${imp.result.replaced === 1 ? '' : 's'} with the same name replaced.`}
          {imp.mode === 'replace' && ' The library now holds exactly the documents of the file.'}{' '}
          <button type="button" className="secondary small" onClick={() => store.dismiss('import')}>
            OK
          </button>
        </p>
      )}
      {imp.phase === 'error' && (
        <p className="error" role="alert" data-testid="import-error">
          “{imp.fileName}” was not imported: {imp.error.message} Your library was not changed.{' '}
          <button type="button" className="secondary small" onClick={() => store.dismiss('import')}>
            OK
          </button>
        </p>
      )}
    </section>
  );
}

function ImportForm({
  id,
  fileName,
  fileSize,
  encrypted,
  error,
  mode,
  documents,
  onMode,
  onConfirm,
  onCancel,
}: {
  readonly id: string;
  readonly fileName: string;
  readonly fileSize: number;
  readonly encrypted: boolean | null;
  readonly error: EvidentErrorValue | undefined;
  readonly mode: ImportMode;
  readonly documents: number;
  readonly onMode: (m: ImportMode) => void;
  readonly onConfirm: (passphrase?: string) => void;
  readonly onCancel: () => void;
}) {
  const [passphrase, setPassphrase] = useState('');
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    onConfirm(encrypted ? passphrase : undefined);
  };
  return (
    <form className="import-form" onSubmit={submit} aria-label={`Import “${fileName}”`}>
      <p>
        Import “{fileName}” ({formatBytes(fileSize)})?
      </p>
      {encrypted && (
        <label className="field">
          <span>Passphrase of the file</span>
          <input
            type="password"
            autoComplete="current-password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </label>
      )}
      {error && (
        <p className="error" role="alert" data-testid="import-passphrase-error">
          {error.message} Your library was not changed.
        </p>
      )}
      <fieldset className="field">
        <legend>How</legend>
        <label className="check">
          <input
            type="radio"
            name={`${id}-mode`}
            value="merge"
            checked={mode === 'merge'}
            onChange={() => onMode('merge')}
          />
          <span>
            Add to the library <span className="muted">(a document already here under the same name is replaced)</span>
          </span>
        </label>
        <label className="check">
          <input
            type="radio"
            name={`${id}-mode`}
            value="replace"
            checked={mode === 'replace'}
            onChange={() => onMode('replace')}
          />
          <span>
            Replace the library{' '}
            <span className="muted">
              (removes the {documents} document{documents === 1 ? '' : 's'} here now, with their feedback)
            </span>
          </span>
        </label>
      </fieldset>
      <div className="inline-row">
        <button type="submit" disabled={encrypted === null}>
          {mode === 'replace' ? 'Replace the library' : 'Import'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
