import type { ReactNode } from 'react';
import type { LibraryDocument } from '../../worker/api';
import type { LibraryState } from '../session';
import { formatCount, formatMs, plural } from '../format';
import { ProgressBar } from './ProgressBar';
import { SOURCE_TYPE_LABEL } from '../labels';

const STATUS_LABEL = { current: 'current', superseded: 'superseded', draft: 'draft' } as const;
const PHASE_LABEL = {
  chunk: 'Splitting into chunks',
  index: 'Stored and searchable by its words',
  embed: 'Meaning vectors',
  done: 'Done',
} as const;

interface Props {
  readonly library: LibraryState;
  readonly onRemove?: (docId: string) => void;
  /** More controls per document (details, preview), shown under its line. */
  readonly renderActions?: (doc: LibraryDocument) => ReactNode;
}

/**
 * The documents in the library (stored in this browser) and the progress of a batch the worker
 * adds on its own (the demo, an interrupted batch resumed). Files are added in `AddDocuments`.
 */
export function LibraryPanel({ library, onRemove, renderActions }: Props) {
  return (
    <section
      className="panel library"
      aria-labelledby="library-heading"
      data-testid="library"
      data-state={library.phase}
      data-chunks={library.phase === 'ready' ? library.chunks : undefined}
      data-embed-ms={library.phase === 'ready' ? Math.round(library.embedMs) : undefined}
      data-source={library.phase === 'ready' ? library.source : undefined}
      {...timingAttributes(library)}
    >
      <h2 id="library-heading">Library</h2>
      {library.phase === 'idle' && <p>Opening the library stored in this browser…</p>}
      {library.phase === 'ingesting' && (
        <div role="status" aria-live="polite">
          <p>
            Adding “{library.title}” ({library.index + 1} of {library.count})
          </p>
          <ProgressBar
            label={PHASE_LABEL[library.progress?.phase ?? 'chunk']}
            done={library.progress?.done ?? 0}
            total={library.progress?.total ?? 0}
          />
        </div>
      )}
      {library.phase === 'ingesting' && library.documents && <DocumentList documents={library.documents} />}
      {library.phase === 'error' && (
        <p className="error" role="alert">
          The library could not be indexed: {library.error.message}
        </p>
      )}
      {library.phase === 'ready' && (
        <>
          <DocumentList documents={library.documents} onRemove={onRemove} renderActions={renderActions} />
          {library.documents.length === 0 && <p>No documents yet.</p>}
          {(library.timings || library.persistent === false) && (
            <p className="muted">
              {library.timings &&
                `Read from this browser's storage in ${formatMs(library.timings.searchableMs)} when the page opened.`}
              {library.persistent === false && ' Not kept after this tab closes.'}
            </p>
          )}
        </>
      )}
    </section>
  );
}

function DocumentList({
  documents,
  onRemove,
  renderActions,
}: {
  readonly documents: readonly LibraryDocument[];
  readonly onRemove?: (docId: string) => void;
  readonly renderActions?: (doc: LibraryDocument) => ReactNode;
}) {
  return (
    <ul className="doc-list">
      {documents.map((d) => (
        <li
          key={d.docId}
          data-doc-id={d.docId}
          data-vector-state={d.vectorState}
          data-vectors={d.vectors}
          data-chunks={d.chunks}
        >
          <span className="doc-title">{d.title}</span>
          <span className="doc-meta">
            <span className={`badge badge-${d.status}`}>{STATUS_LABEL[d.status]}</span>{' '}
            {SOURCE_TYPE_LABEL[d.sourceType] ?? d.sourceType} · {plural(d.chunks, 'chunk')}
            {d.vectors !== undefined &&
              d.vectors < d.chunks &&
              ` · ${formatCount(d.vectors)} / ${formatCount(d.chunks)} with meaning vectors`}
            {onRemove && (
              <>
                {' '}
                <button type="button" aria-label={`Remove “${d.title}”`} onClick={() => onRemove(d.docId)}>
                  Remove
                </button>
              </>
            )}
          </span>
          {renderActions?.(d)}
        </li>
      ))}
    </ul>
  );
}

/** How the worker loaded the stored library, as data attributes (read by the startup benchmark and tests). */
function timingAttributes(library: LibraryState): Record<string, number | string> {
  if (library.phase !== 'ready' || !library.timings) return {};
  const t = library.timings;
  return {
    'data-open-ms': Math.round(t.openMs),
    'data-read-ms': Math.round(t.readMs),
    'data-lexical-ms': Math.round(t.lexicalMs),
    'data-load-ms': Math.round(t.searchableMs),
    'data-vectors-ms': Math.round(t.vectorsMs),
    'data-loaded-ms': Math.round(t.loadedMs),
    ...(library.lexical ? { 'data-lexical': library.lexical } : {}),
  };
}
