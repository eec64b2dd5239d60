import { useState } from 'react';
import { NO_OCR_MARKS, ocrMarkOf, type OcrMarks } from '../ocr-marks';
import { HiddenTextBadge } from './HiddenTextBadge';
import { OcrBadge } from './OcrBadge';
import type { AskCandidate, AskInquiry, AskResult } from '../../worker/ask-api';
import { formatScore, plural, searchedWords } from '../format';
import { SOURCE_TYPE_LABEL, stageLabel } from '../labels';
import { CiteButton } from './ChunkText';
import { ScoreChart } from './ScoreChart';
import { inquiryVerdict } from '../inquiry-verdict';

interface Props {
  readonly result: AskResult;
  readonly onCite: (citationId: string) => void;
}

type Filter = 'all' | 'kept' | 'dropped';

const FUSION_LABEL: Readonly<Record<string, string>> = Object.freeze({
  rrf: 'fused by reciprocal rank (RRF)',
  weighted: 'fused as a weighted sum of min-max scores',
});

const DEVICE_ROLE_LABEL = Object.freeze({
  embedder: 'meaning',
  'cross-encoder': 'reranker',
  nli: 'contradiction check',
  generator: 'answer',
});

/**
 * Why these passages: the sorted scores with the cut, the token budget, the aspects of the
 * question and which evidence covers each, conflicts, and every candidate selection saw with its
 * score breakdown, whether it was kept, and which stage dropped it and why.
 */
export function EvidenceTrail({ result, onCite }: Props) {
  const kept = result.candidates.filter((c) => c.kept).length;
  return (
    <section className="trail-panel" aria-labelledby="trail-heading" data-testid="evidence-trail">
      <h2 id="trail-heading">Evidence trail</h2>
      <p className="muted">
        {plural(result.retrieval.pool, 'passage')} retrieved (
        {result.retrieval.dense
          ? `keywords (BM25) and meaning (embeddings), ${FUSION_LABEL[result.retrieval.fusion] ?? `fused (${result.retrieval.fusion})`}`
          : `keywords only (BM25): ${result.retrieval.keywordsOnly ?? 'the embedding model is not loaded'}`}
        ){result.models.embedder && `, meaning by ${result.models.embedder}`}; {kept} kept. Reranker:{' '}
        {result.models.reranker ?? 'none (model-free: fused scores pass through)'}. Contradiction check:{' '}
        {result.models.nli ?? 'model-free rules'}. Answer:{' '}
        {result.models.answerer === 'extractive' ? 'sentences quoted from the evidence' : result.models.answerer}.
        Budget counted in{' '}
        {result.models.budgetTokens === 'estimate' ? 'estimated tokens' : `${result.models.budgetTokens}'s tokens`}.
        {result.asksEarlier && ' The question asks about earlier versions, so superseded documents are not penalised.'}
      </p>
      {result.models.devices.length > 0 && (
        // Runtime details (which device, why not the GPU) are for developers: one click away.
        <details className="runtime-details">
          <summary>Where the models ran</summary>
          <p className="muted" data-testid="trail-devices">
            Devices:{' '}
            {result.models.devices.map((d, i) => (
              <span key={d.role} data-role={d.role} data-device={d.device}>
                {i > 0 && '; '}
                {DEVICE_ROLE_LABEL[d.role]} ({d.id}) on {d.device}
                {d.fallbackReason && `, not an earlier device: ${d.fallbackReason}`}
              </span>
            ))}
            .
          </p>
        </details>
      )}
      <div className="trail-grid">
        <div className="trail-card">
          <h3>Scores and the cut</h3>
          <ScoreChart
            curve={result.cutoff.curve}
            position={result.cutoff.position}
            elbow={result.cutoff.elbow}
            rule={result.cutoff.rule}
          />
          {result.cutoff.floor && (
            <p className="muted" data-testid="cutoff-floor">
              {result.cutoff.floor}
            </p>
          )}
          <p className="muted">
            The cutoff kept {result.cutoff.position}; duplicates, diversity, verification and the token budget left{' '}
            {kept}.
          </p>
        </div>
        <div className="trail-card">
          <h3>Token budget</h3>
          <Budget used={result.budget.used} limit={result.budget.limit} />
          <h3>Aspects of the question</h3>
          {result.rationales.length === 0 ? (
            <p className="muted">The question was not split into aspects.</p>
          ) : (
            <ul className="rationales" data-testid="rationales">
              {result.rationales.map((r) => (
                <li key={r.id} data-covered={r.covered}>
                  <span className={`badge ${r.covered ? 'badge-current' : 'badge-superseded'}`}>
                    {r.covered ? 'covered' : 'not covered'}
                  </span>{' '}
                  “{r.text}”
                  {r.supportingIds.length > 0 && (
                    <>
                      {' '}
                      by{' '}
                      {r.supportingIds.map((id) => (
                        <CiteButton key={id} id={id} onCite={onCite} />
                      ))}
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {result.conflicts.length > 0 && (
        <div className="trail-card">
          <h3>Disagreements found</h3>
          <ul className="conflicts">
            {result.conflicts.map((c) => (
              <li key={c.id} data-status={c.status}>
                <strong>{c.status === 'resolved' ? 'Resolved' : 'Unresolved'}:</strong>{' '}
                {c.sides.map((s, i) => (
                  <span key={s.key}>
                    {i > 0 && ' vs '}“{s.display}”
                    {s.citationIds.map((id) => (
                      <CiteButton key={id} id={id} onCite={onCite} />
                    ))}
                  </span>
                ))}
                . <span className="muted">{c.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.flags.length > 0 && (
        <div className="trail-card">
          <h3>Verifier flags on the evidence</h3>
          <ul>
            {result.flags.map((f, i) => (
              <li key={i}>
                {f.citationId && `${f.citationId}: `}
                {f.kind.replace(/_/g, ' ')} — “{f.excerpt}”
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.inquiry?.triggered && <InquiryTrail inquiry={result.inquiry} result={result} />}
    </section>
  );
}

/** Each inquiry round: the premise, why it decides, the words searched, what came back; then the release decision. */
function InquiryTrail({ inquiry, result }: { readonly inquiry: AskInquiry; readonly result: AskResult }) {
  return (
    <div className="trail-card inquiry">
      <h3>Follow-up inquiry</h3>
      <p className="muted">
        Ran because {inquiry.trigger.join('; ')}. Budget: {inquiry.budget.budget} follow-up{' '}
        {inquiry.budget.budget === 1 ? 'query' : 'queries'}, {plural(inquiry.budget.topR, 'passage')} each; planned by{' '}
        {inquiry.planner === 'premise' ? 'the evidence’s own references (model-free)' : inquiry.planner}.
      </p>
      <ol>
        {inquiry.rounds.map((r) => (
          <li key={r.round}>
            {r.step && !r.step.stop && (
              <>
                <strong>Premise:</strong> {r.step.premise} <span className="muted">— {r.step.why}</span>
                <br />
                <strong>Searched:</strong>{' '}
                <span
                  className="searched-words"
                  data-testid="searched-words"
                  title={`The follow-up search: ${r.step.query}`}
                >
                  {searchedWords(r.step.query).map((w, i) => (
                    <code key={i}>{w}</code>
                  ))}
                </span>{' '}
                →{' '}
                {r.hits.length === 0
                  ? 'nothing found'
                  : r.hits.map((h) => `${h.title} (${h.docId})${h.added ? '' : ', already held'}`).join('; ')}
              </>
            )}
            {r.step?.stop && <span>Nothing left to look up: {r.step.why}</span>}
            {r.error && <span className="error">The planner failed: {r.error}</span>}
            {r.stopped && <span className="muted"> Stopped: {r.stopped}.</span>}
          </li>
        ))}
      </ol>
      <InquiryVerdictLine result={result} />
    </div>
  );
}

/** The inquiry's release decision, read against the answer shown (`inquiry-verdict.ts`). */
function InquiryVerdictLine({ result }: { readonly result: AskResult }) {
  const verdict = inquiryVerdict(result);
  if (!verdict) return null;
  return (
    <p data-released={verdict.released} data-used={verdict.used}>
      <strong>{verdict.label}:</strong> {verdict.lead}
      {verdict.reason}
    </p>
  );
}

/** An excerpt without Markdown heading lines and bold markers (the trail shows the headings). */
function excerptText(text: string): string {
  return text
    .replace(/^ {0,3}#{1,6}[ \t].*$/gmu, '')
    .replace(/\*\*/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

function Budget({ used, limit }: { readonly used: number; readonly limit: number }) {
  return (
    <p className="budget">
      <meter min={0} max={limit} value={used} aria-label="Evidence tokens used" />
      <span>
        {used.toLocaleString('en')} of {limit.toLocaleString('en')} tokens
      </span>
    </p>
  );
}

/** Every candidate selection saw, with its scores, outcome, reason, flags and trace. */
export function CandidateTable({
  candidates,
  ocr = NO_OCR_MARKS,
}: {
  readonly candidates: readonly AskCandidate[];
  /** Pages read by OCR, to mark the passages from them. */
  readonly ocr?: OcrMarks;
}) {
  const [filter, setFilter] = useState<Filter>('all');
  const shown = candidates.filter((c) => (filter === 'all' ? true : filter === 'kept' ? c.kept : !c.kept));
  const kept = candidates.filter((c) => c.kept).length;
  return (
    <section className="panel candidates-panel" aria-labelledby="candidates-heading">
      <h2 id="candidates-heading">Every candidate, and what happened to it</h2>
      <fieldset className="filter">
        <legend className="visually-hidden">Show candidates</legend>
        {(
          [
            ['all', `All (${candidates.length})`],
            ['kept', `Kept (${kept})`],
            ['dropped', `Dropped (${candidates.length - kept})`],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="chip">
            <input
              type="radio"
              name="candidate-filter"
              value={value}
              checked={filter === value}
              onChange={() => setFilter(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="candidates-heading">
        <table className="candidates" data-testid="candidates">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Passage</th>
              <th scope="col">BM25</th>
              <th scope="col">Dense</th>
              <th scope="col">Fused</th>
              <th scope="col">Rerank</th>
              <th scope="col">λ</th>
              <th scope="col">Final</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <tr
                key={c.id}
                data-kept={c.kept}
                data-doc-id={c.docId}
                data-stage={c.stage}
                data-prior={c.scores.prior}
                className={c.kept ? 'row-kept' : 'row-dropped'}
              >
                <td>{c.retrievalRank ?? '+'}</td>
                <th scope="row" className="passage-cell">
                  <span className="cell-title">{c.title}</span>
                  <span className="muted">
                    {c.headings.length > 0 && ` › ${c.headings[c.headings.length - 1]}`}
                    {c.page !== null && ` · p. ${c.page}`}
                    {ocrMarkOf(ocr, c.docId, c.page) && ' · '}
                    <OcrBadge mark={ocrMarkOf(ocr, c.docId, c.page)} /> · {SOURCE_TYPE_LABEL[c.sourceType]}
                    <HiddenTextBadge trace={c.trace} />
                    {c.status !== 'current' && ` · ${c.status}`}
                  </span>
                  <span className="excerpt">{excerptText(c.excerpt)}</span>
                </th>
                <td>{formatScore(c.scores.bm25)}</td>
                <td>{formatScore(c.scores.dense)}</td>
                <td>{formatScore(c.scores.fused)}</td>
                <td>{formatScore(c.scores.rerank)}</td>
                <td>{c.scores.prior === undefined ? '–' : c.scores.prior.toFixed(2)}</td>
                <td>{formatScore(c.scores.final)}</td>
                <td className="outcome-cell">
                  {c.kept ? (
                    <span className="badge badge-current">kept as {c.citationId}</span>
                  ) : (
                    <span className="badge badge-dropped">dropped: {stageLabel(c.stage)}</span>
                  )}
                  <span className="reason">
                    {c.reason.replace(/^dropped by \w+: /, '').replace(/^packed as S\d+$/, '')}
                  </span>
                  {c.flags.length > 0 && (
                    <ul className="flags">
                      {c.flags.map((f, i) => (
                        <li key={i}>{f}</li>
                      ))}
                    </ul>
                  )}
                  <details className="trace-details">
                    <summary>Trace</summary>
                    <ol>
                      {c.trace.map((e, i) => (
                        <li key={i}>
                          <strong>{stageLabel(e.stage)}</strong>
                          {e.score !== undefined && ` ${formatScore(e.score)}`}
                          {!e.kept && ' — dropped'}
                          {e.reason && `: ${e.reason}`}
                        </li>
                      ))}
                    </ol>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
