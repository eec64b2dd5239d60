import type { SearchHit } from '../../worker/api';
import { ChunkText } from './ChunkText';
import { ScoreTrace } from './ScoreTrace';

/** One ranked chunk. Text is rendered as text (React escapes it), never as HTML. */
export function ResultItem({ hit, fusion }: { readonly hit: SearchHit; readonly fusion: string }) {
  const headingId = `result-${hit.rank}-title`;
  return (
    <li
      className="result"
      data-testid="result"
      data-rank={hit.rank}
      data-doc-id={hit.docId}
      aria-labelledby={headingId}
    >
      <div className="result-head">
        <span className="rank" aria-label={`Rank ${hit.rank}`}>
          {hit.rank}
        </span>
        <div>
          <h3 id={headingId}>{hit.title}</h3>
          <p className="result-meta">
            <span className={`badge badge-${hit.status}`}>{hit.status}</span> {hit.sourceType.replace('_', ' ')}
          </p>
        </div>
      </div>
      {hit.headings.length > 0 && (
        <nav aria-label="Section" className="trail">
          <ol>
            {hit.headings.map((h, i) => (
              <li key={`${i}-${h}`}>{h}</li>
            ))}
          </ol>
        </nav>
      )}
      <ChunkText text={hit.text} headings={hit.headings} context={hit.context} />
      <ScoreTrace hit={hit} fusion={fusion} />
    </li>
  );
}
