import type { SearchHit } from '../../worker/api';
import { formatScore } from '../format';

interface Row {
  readonly signal: 'bm25' | 'dense' | 'fused';
  readonly label: string;
  readonly score: number | undefined;
  readonly rank: number | undefined;
}

/** Per-signal scores and ranks of one hit, and which query terms BM25 matched. */
export function ScoreTrace({ hit, fusion }: { readonly hit: SearchHit; readonly fusion: string }) {
  const rows: Row[] = [
    { signal: 'bm25', label: 'BM25', score: hit.scores.bm25, rank: hit.ranks.bm25 },
    { signal: 'dense', label: 'Dense (cosine)', score: hit.scores.dense, rank: hit.ranks.dense },
    { signal: 'fused', label: `Fused (${fusion.toUpperCase()})`, score: hit.scores.fused, rank: hit.rank },
  ];
  return (
    <div className="trace">
      <div className="table-scroll">
        <table>
          <caption>Why this rank</caption>
          <thead>
            <tr>
              <th scope="col">Signal</th>
              <th scope="col">Score</th>
              <th scope="col">Rank</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.signal} data-signal={r.signal}>
                <th scope="row">{r.label}</th>
                <td data-value={r.score === undefined ? undefined : String(r.score)}>{formatScore(r.score)}</td>
                <td>{r.rank ?? 'not retrieved'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="terms" data-testid="matched-terms">
        <span className="terms-label">Matched terms:</span>{' '}
        {hit.terms.length === 0
          ? 'none (found by meaning only)'
          : hit.terms.map((t, i) => (
              <span key={t.term} className="term">
                {i > 0 && ', '}
                <code>{t.term}</code> {formatScore(t.score)}
              </span>
            ))}
      </p>
    </div>
  );
}
