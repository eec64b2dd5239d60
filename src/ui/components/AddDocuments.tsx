import { useId, useState, useSyncExternalStore, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import { formatBytes, plural } from '../format';
import { ACCEPTED_FILES, type IngestJob, type IngestStore } from '../ingest-store';
import type { LibraryDocument } from '../../worker/api';
import { FILE_PHASE_LABEL, FORMAT_LABEL } from '../labels';
import { ProgressBar } from './ProgressBar';

interface Props {
  readonly store: IngestStore;
  /** The library's documents: a stored file's row reads its vector count there (as the list and the strip do). */
  readonly documents?: readonly LibraryDocument[];
  /** False until files can be added (the embedding model sizes chunks); the reason is shown. */
  readonly enabled: boolean;
  readonly disabledReason?: string;
}

/**
 * Adding files: a drop zone and a file picker (several files at once: PDF, Word, HTML, Markdown,
 * text), then one row per file with its progress, its result, or its error in plain words; a
 * password-protected PDF asks for its password here; adding can be stopped.
 */
export function AddDocuments({ store, documents = [], enabled, disabledReason }: Props) {
  const { jobs } = useSyncExternalStore(store.subscribe, store.getState);
  const inputId = useId();
  const hintId = useId();
  const [over, setOver] = useState(false);
  const onChange = (e: ChangeEvent<HTMLInputElement>): void => {
    const files = [...(e.target.files ?? [])];
    // Clear it so choosing the same file again fires another change.
    e.target.value = '';
    if (files.length > 0) store.add(files);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>): void => {
    e.preventDefault();
    setOver(false);
    if (!enabled) return;
    const files = [...e.dataTransfer.files];
    if (files.length > 0) store.add(files);
  };
  const finished = jobs.filter((j) => j.status === 'done' || j.status === 'cancelled').length;
  const busy = jobs.some((j) => j.status === 'working' || j.status === 'waiting');
  return (
    <section className="panel add-documents" aria-labelledby={`${inputId}-heading`}>
      <h2 id={`${inputId}-heading`}>Add files</h2>
      <div
        className={`dropzone${over ? ' dropzone-over' : ''}${enabled ? '' : ' dropzone-disabled'}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = enabled ? 'copy' : 'none';
          if (enabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="dropzone-text">Drop files here, or</p>
        <label htmlFor={inputId} className={`file-button${enabled ? '' : ' file-button-disabled'}`}>
          <span>Choose files</span>
          <input
            id={inputId}
            className="visually-hidden"
            type="file"
            multiple
            accept={ACCEPTED_FILES}
            disabled={!enabled}
            aria-label="Add documents"
            aria-describedby={hintId}
            onChange={onChange}
          />
        </label>
        <p id={hintId} className="muted">
          {enabled
            ? 'PDF, Word (.docx), HTML, Markdown or plain text; several at once. They are read in this tab and never leave it.'
            : (disabledReason ?? 'Files can be added once the model is ready.')}
        </p>
      </div>
      {jobs.length > 0 && (
        <>
          <ul className="jobs" aria-label="Files">
            {jobs.map((job) => (
              <JobRow
                key={job.id}
                job={job}
                store={store}
                doc={job.docId ? documents.find((d) => d.docId === job.docId) : undefined}
              />
            ))}
          </ul>
          <div className="inline-row">
            {busy && (
              <button type="button" className="secondary small" onClick={() => store.cancel()}>
                Stop adding files
              </button>
            )}
            {finished > 0 && (
              <button type="button" className="secondary small" onClick={() => store.clearDone()}>
                Clear {finished} finished file{finished === 1 ? '' : 's'} from this list
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function JobRow({
  job,
  store,
  doc,
}: {
  readonly job: IngestJob;
  readonly store: IngestStore;
  /** The library's entry for the stored file, when listed. */
  readonly doc: LibraryDocument | undefined;
}) {
  const stored = job.phase === 'index' || job.phase === 'embed' || job.phase === 'done';
  return (
    <li
      className={`job job-${job.status}`}
      data-job-status={job.status}
      data-file-name={job.name}
      data-phase={job.phase ?? undefined}
      data-doc-id={job.docId}
    >
      <div className="job-head">
        <span className="job-name">{job.name}</span>
        <span className="muted">{formatBytes(job.size)}</span>
        {(job.status === 'done' || job.status === 'failed' || job.status === 'cancelled') && (
          <button
            type="button"
            className="icon-button"
            aria-label={`Dismiss “${job.name}” from this list`}
            onClick={() => store.dismiss(job.id)}
          >
            ×
          </button>
        )}
      </div>
      {job.status === 'waiting' && <p className="muted job-line">Waiting for the files before it to be read…</p>}
      {job.status === 'working' && (
        <div className="job-line" role="status" aria-live="polite">
          {stored ? (
            <StoredLine phase={job.phase} doc={doc} />
          ) : job.phase === null || job.total === 0 ? (
            <p className="muted">{FILE_PHASE_LABEL[job.phase ?? 'parse']}…</p>
          ) : (
            <ProgressBar label={FILE_PHASE_LABEL[job.phase]} done={job.done} total={job.total} />
          )}
        </div>
      )}
      {job.status === 'done' && job.result?.removed && <p className="job-line muted">Removed from the library.</p>}
      {job.status === 'done' && job.result && !job.result.removed && (
        <p className="job-line ok">
          Added as “{job.result.title}”: {FORMAT_LABEL[job.result.format]}, {plural(job.result.chunks, 'chunk')}
          {job.result.pages !== null && `, ${plural(job.result.pages, 'page')}`}
          {job.result.replaced && ' (replaced the earlier version)'}.
          {job.result.warnings.length > 0 && <span className="warnings"> Note: {job.result.warnings.join(' ')}</span>}
        </p>
      )}
      {job.status === 'failed' && job.error && (
        <p className="job-line error" role="alert">
          “{job.name}” was not added: {job.error.message}
        </p>
      )}
      {job.status === 'cancelled' && <p className="job-line muted">{job.error?.message ?? 'Cancelled.'}</p>}
      {job.status === 'password' && <PasswordForm job={job} store={store} />}
    </li>
  );
}

/**
 * A stored file, searchable by its words, while its meaning vectors are computed: the counts are
 * the library's (the list and the status strip show the same), never the file's own progress.
 */
function StoredLine({ phase, doc }: { readonly phase: IngestJob['phase']; readonly doc: LibraryDocument | undefined }) {
  if (!doc) return <p className="muted">Searchable by its words; listing it…</p>;
  const vectors = doc.vectors ?? 0;
  if (vectors >= doc.chunks) return <p className="muted">Searchable, with its meaning vectors.</p>;
  return (
    <>
      <p className="muted">
        Searchable by its words ·{' '}
        {phase === 'embed' || vectors > 0
          ? 'computing meaning vectors'
          : 'meaning vectors after the documents before it'}
      </p>
      <ProgressBar label={FILE_PHASE_LABEL.embed} done={vectors} total={doc.chunks} />
    </>
  );
}

function PasswordForm({ job, store }: { readonly job: IngestJob; readonly store: IngestStore }) {
  const [password, setPassword] = useState('');
  const id = useId();
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (password !== '') store.submitPassword(job.id, password);
  };
  return (
    <form className="job-line password-form" onSubmit={submit}>
      <p role="alert" className={job.wrongPassword ? 'error' : undefined}>
        {job.error?.message ?? 'This PDF is password-protected. Enter its password to open it.'}
      </p>
      <label htmlFor={id}>Password for “{job.name}”</label>
      <div className="inline-row">
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" disabled={password === ''}>
          Open
        </button>
      </div>
    </form>
  );
}
