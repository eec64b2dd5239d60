import type { LibraryState } from '../session';
import { formatMs } from '../format';
import { ProgressBar } from './ProgressBar';

const STATUS_LABEL = { current: 'current', superseded: 'superseded', draft: 'draft' } as const;

/** The documents in the library (the demo set for now) and ingest progress. */
export function LibraryPanel({ library }: { readonly library: LibraryState }) {
  return (
    <section
      className="panel library"
      aria-labelledby="library-heading"
      data-testid="library"
      data-state={library.phase}
      data-chunks={library.phase === 'ready' ? library.chunks : undefined}
      data-embed-ms={library.phase === 'ready' ? Math.round(library.embedMs) : undefined}
    >
      <h2 id="library-heading">Library</h2>
      {library.phase === 'idle' && <p>The demo library is added once the model is ready.</p>}
      {library.phase === 'ingesting' && (
        <div role="status" aria-live="polite">
          <p>
            Adding “{library.title}” ({library.index + 1} of {library.count})
          </p>
          <ProgressBar
            label="Chunks embedded"
            done={library.progress?.done ?? 0}
            total={library.progress?.total ?? 0}
          />
        </div>
      )}
      {library.phase === 'error' && (
        <p className="error" role="alert">
          The library could not be indexed: {library.error.message}
        </p>
      )}
      {library.phase === 'ready' && (
        <>
          <ul className="doc-list">
            {library.documents.map((d) => (
              <li key={d.docId}>
                <span className="doc-title">{d.title}</span>
                <span className="doc-meta">
                  <span className={`badge badge-${d.status}`}>{STATUS_LABEL[d.status]}</span>{' '}
                  {d.sourceType.replace('_', ' ')} · {d.chunks} chunk{d.chunks === 1 ? '' : 's'}
                </span>
              </li>
            ))}
          </ul>
          <p className="muted">
            {library.chunks} chunks embedded in {formatMs(library.embedMs)}.
          </p>
        </>
      )}
    </section>
  );
}
