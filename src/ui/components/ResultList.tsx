import type { SearchState } from '../session';
import { formatMs } from '../format';
import { ResultItem } from './ResultItem';

/** Search outcome: nothing yet, in progress, an error, no hits, or the ranked hits. */
export function ResultList({ search }: { readonly search: SearchState }) {
  if (search.phase === 'idle') return null;
  const done = search.phase === 'done' ? search : null;
  return (
    <section
      className="results"
      aria-labelledby="results-heading"
      aria-busy={search.phase === 'searching'}
      data-testid="search-results"
      data-embed-ms={done ? Math.round(done.response.timings.embedMs) : undefined}
      data-total-ms={done ? Math.round(done.totalMs) : undefined}
      data-query={done ? done.response.query : undefined}
    >
      <h2 id="results-heading">Results</h2>
      <div role="status" aria-live="polite" className="muted">
        {search.phase === 'searching' && `Searching for “${search.query}”…`}
        {done &&
          `${done.response.hits.length} result${done.response.hits.length === 1 ? '' : 's'} in ${formatMs(done.totalMs)}` +
            (done.response.dense ? '' : ' (keyword search only: the embedding model is not loaded)')}
      </div>
      {search.phase === 'error' && (
        <p className="error" role="alert">
          Search failed: {search.error.message}
        </p>
      )}
      {done && done.response.hits.length === 0 && <p>No passage matches “{done.response.query}”.</p>}
      {done && done.response.hits.length > 0 && (
        <ol className="result-list" data-testid="results">
          {done.response.hits.map((hit) => (
            <ResultItem key={hit.chunkId} hit={hit} fusion={done.response.fusion} />
          ))}
        </ol>
      )}
    </section>
  );
}
