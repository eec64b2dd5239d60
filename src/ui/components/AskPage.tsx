import { useId, useSyncExternalStore, type FormEvent } from 'react';
import type { AskResult, AskSource } from '../../worker/ask-api';
import type { AskStore, FeedbackMark, Verdict } from '../ask-store';
import { NO_OCR_MARKS, ocrMarkOf, type OcrMarks } from '../ocr-marks';
import { OcrBadge } from './OcrBadge';
import { formatMs } from '../format';
import { OUTCOME_LABEL, SOURCE_TYPE_LABEL, STATUS_LABEL } from '../labels';
import { answerParagraphs } from '../rich-text';
import { setAsideClaims } from '../set-aside';
import { ChunkText, Segments } from './ChunkText';
import { CandidateTable, EvidenceTrail } from './EvidenceTrail';
import type { PassageTarget } from './PassageDialog';

interface Props {
  readonly store: AskStore;
  readonly question: string;
  readonly onQuestionChange: (q: string) => void;
  /** False while the library has no documents. */
  readonly canAsk: boolean;
  readonly onOpenPassage: (target: PassageTarget) => void;
  /** Pages read by OCR, to mark the sources from them. */
  readonly ocr?: OcrMarks;
}

const STEP_LABEL = {
  retrieve: 'Finding passages (keywords and meaning)…',
  select: 'Selecting and checking the evidence…',
  answer: 'Writing the answer from the evidence…',
  validate: 'Checking the answer against its sources…',
} as const;

/** The Ask page: the question, the answer with its citations and outcome, the sources, and the evidence trail. */
export function AskPage({ store, question, onQuestionChange, canAsk, onOpenPassage, ocr = NO_OCR_MARKS }: Props) {
  const { ask, feedback } = useSyncExternalStore(store.subscribe, store.getState);
  const hintId = useId();
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void store.ask(question);
  };
  const result = ask.phase === 'done' ? ask.result : null;
  const openCitation = (
    r: AskResult,
    citationId: string,
    view: 'page' | 'text' = 'text',
    cells?: readonly string[],
  ): void => {
    const source = r.sources.find((s) => s.citationId === citationId);
    if (!source) return;
    const highlights = cells ?? r.answer.sentences.filter((s) => s.citationIds.includes(citationId)).map((s) => s.text);
    onOpenPassage({ docId: source.docId, chunkId: source.chunkId, citationId, highlights, view });
  };
  return (
    <div className="ask-page">
      <form className="ask-form panel" onSubmit={submit} aria-label="Ask a question">
        <label htmlFor="question">Your question</label>
        <textarea
          id="question"
          rows={2}
          value={question}
          onChange={(e) => onQuestionChange(e.target.value)}
          onKeyDown={(e) => {
            // Enter asks; Shift+Enter starts a new line.
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              if (canAsk) void store.ask(question);
            }
          }}
          aria-describedby={hintId}
        />
        <div className="inline-row">
          <button type="submit" disabled={!canAsk || question.trim() === ''}>
            Ask
          </button>
          {ask.phase === 'asking' && (
            <button type="button" className="secondary" onClick={() => store.cancel()}>
              Cancel
            </button>
          )}
          <p id={hintId} className="muted">
            {canAsk
              ? 'Answers quote your documents, with citations you can open. Nothing leaves this tab.'
              : 'Add documents in the Library first.'}
          </p>
        </div>
      </form>
      <div role="status" aria-live="polite" className="muted ask-status" data-testid="ask-status">
        {ask.phase === 'asking' &&
          (ask.step === 'answer' && ask.answerer
            ? `${ask.answerer} is writing the answer from the evidence…`
            : STEP_LABEL[ask.step === 'done' ? 'validate' : ask.step])}
        {ask.phase === 'done' && `Answered in ${formatMs(ask.ms)}.`}
      </div>
      {ask.phase === 'asking' && ask.answerer && (
        <DraftAnswer answerer={ask.answerer} text={ask.partial ?? ''} checking={ask.step !== 'answer'} />
      )}
      {ask.phase === 'error' && (
        <p className="error" role="alert">
          The question could not be answered: {ask.error.message}
        </p>
      )}
      {result && (
        <div className="ask-result" data-testid="ask-result" data-outcome={result.outcome}>
          <div className="ask-main">
            <AnswerView
              result={result}
              onCite={(id) => openCitation(result, id)}
              onOperand={(id, cells) => openCitation(result, id, 'text', cells)}
            />
            <SourceList
              result={result}
              feedback={feedback}
              ocr={ocr}
              onOpen={(s) => openCitation(result, s.citationId, 'page')}
              onMark={(s, v) => void store.mark(s, v)}
            />
          </div>
          <EvidenceTrail result={result} onCite={(id) => openCitation(result, id)} />
          <CandidateTable candidates={result.candidates} ocr={ocr} />
        </div>
      )}
    </div>
  );
}

/**
 * The answer as the generator writes it. Not announced token by token (the status line says what
 * is happening); its citations are checked against the sources once it is complete.
 */
function DraftAnswer({
  answerer,
  text,
  checking,
}: {
  readonly answerer: string;
  readonly text: string;
  readonly checking: boolean;
}) {
  return (
    <section className="panel answer draft" aria-labelledby="draft-heading" data-testid="answer-draft">
      <div className="answer-head">
        <h2 id="draft-heading">Answer, being written</h2>
      </div>
      <p className="answer-text" data-testid="answer-draft-text">
        {text}
        {!checking && <span aria-hidden="true">▍</span>}
      </p>
      <p className="muted">
        Written by {answerer}.{' '}
        {checking
          ? 'Checking each statement against the passages it cites…'
          : 'Not checked yet: each statement is checked against the passages it cites when it is done.'}
      </p>
    </section>
  );
}

const FIRST_PASS: Readonly<Record<string, string>> = {
  abstain: 'did not answer it',
  conflict: 'disagreed',
  partial: 'answered it only in part',
  supported: 'answered it',
};

/** The answer came from premise-directed inquiry: say so, and what the first evidence gave. */
function SettledByInquiry({ result }: { readonly result: AskResult }) {
  const first = result.firstPass;
  if (!first) return null;
  const rounds = result.inquiry?.rounds.length ?? 0;
  return (
    <div className="muted answerer" data-testid="settled-by-inquiry">
      <p>
        Settled by {rounds === 1 ? 'a follow-up search' : `${rounds} follow-up searches`}: the first passages found{' '}
        {FIRST_PASS[first.outcome] ?? first.outcome}, so Evident searched for the record that decides it (see “Inquiry”
        in the trail). {result.reason}
      </p>
      <details>
        <summary>What the first passages gave</summary>
        {first.reason && <p>{first.reason}</p>}
        <p>{first.answer.text || 'No answer.'}</p>
      </details>
    </div>
  );
}

/** Which model wrote the answer, and why a loaded generator did not, when it did not. */
function Answerer({ models, computed }: { readonly models: AskResult['models']; readonly computed: boolean }) {
  return (
    <p className="muted answerer" data-testid="answerer" data-answerer={models.answerer}>
      {models.answerer === 'extractive'
        ? computed
          ? 'Computed from figures quoted from the evidence (no answer model).'
          : 'Sentences quoted from the evidence (no answer model).'
        : `Written by ${models.answerer} from the sources below; every statement checked against the passages it cites.`}
      {models.generatorFallback && ` ${models.generatorFallback}`}
    </p>
  );
}

function OutcomeBadge({ outcome }: { readonly outcome: AskResult['outcome'] }) {
  return (
    <span className={`outcome outcome-${outcome}`} data-testid="outcome">
      {OUTCOME_LABEL[outcome]}
    </span>
  );
}

type Operand = NonNullable<AskResult['answer']['computed']>['operands'][number];

/**
 * The work of a computed answer: the formula with names and with values, the result, and one row
 * per operand (value as printed, row, column, page, citation); "Open in document" shows the cited
 * passage with the operand's row label and value marked. A partial computation names what was not found.
 */
function ComputedWork({
  computed,
  onOperand,
}: {
  readonly computed: NonNullable<AskResult['answer']['computed']>;
  readonly onOperand: (citationId: string, cells: readonly string[]) => void;
}) {
  const open = (o: Operand): void => onOperand(o.citationId, [o.row, o.printed]);
  return (
    <div className="computed-work" data-testid="computed-work" data-status={computed.status}>
      <p className="computed-formula" data-testid="computed-formula">
        {computed.formula}
        {computed.written && (
          <>
            {' '}
            = {computed.written} = <strong data-testid="computed-result">{computed.display}</strong>
          </>
        )}
      </p>
      <table className="computed-operands">
        <caption className="muted">Operands, each quoted from a table cell</caption>
        <thead>
          <tr>
            <th scope="col">Operand</th>
            <th scope="col">Value</th>
            <th scope="col">Where</th>
          </tr>
        </thead>
        <tbody>
          {computed.operands.map((o, i) => (
            <tr key={i} data-testid="computed-operand">
              <th scope="row">{o.row}</th>
              <td>{o.printed}</td>
              <td>
                {o.column || o.period}
                {o.page !== null ? `, p. ${o.page}` : ''} [{o.citationId}]{' '}
                <button type="button" className="secondary small" onClick={() => open(o)} data-testid="computed-open">
                  Open in document
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {computed.missing.length > 0 && (
        <p className="muted" data-testid="computed-missing">
          Not computed: {computed.missing.join('; ')}.
        </p>
      )}
      <details className="computed-trace">
        <summary>Lookups</summary>
        <ul>
          {computed.trace.map((t, i) => (
            <li key={i}>{t}</li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function AnswerView({
  result,
  onCite,
  onOperand = () => {},
}: {
  readonly result: AskResult;
  readonly onCite: (id: string) => void;
  readonly onOperand?: (citationId: string, cells: readonly string[]) => void;
}) {
  const work = result.answer.computed ? <ComputedWork computed={result.answer.computed} onOperand={onOperand} /> : null;
  const titleOf = (id: string): string => result.sources.find((s) => s.citationId === id)?.title ?? '';
  const citeLabel = (id: string): string => `Open source ${id}${titleOf(id) ? `: ${titleOf(id)}` : ''}`;
  const paragraphs = answerParagraphs(result.answer.text);
  const unsupported = result.answer.sentences.filter((s) => !s.supported);
  const computed = result.answer.computed;
  // A complete calculation reads first as its result; the work below shows the formula and every
  // operand with its citation (the answer's text repeats them in prose, for copying and grading).
  const body =
    computed?.status === 'complete' && computed.display ? (
      <div className="answer-text" data-testid="answer-text">
        <p className="short-answer">
          <Segments
            segments={
              answerParagraphs(
                `${computed.display} [${[...new Set(computed.operands.map((o) => o.citationId))].join(', ')}]`,
              )[0] ?? []
            }
            onCite={onCite}
            citeLabel={citeLabel}
          />
        </p>
      </div>
    ) : (
      <div className="answer-text" data-testid="answer-text">
        {paragraphs.map((p, i) => (
          <p key={i} className={i === 0 && result.answer.short ? 'short-answer' : undefined}>
            <Segments segments={p} onCite={onCite} citeLabel={citeLabel} />
          </p>
        ))}
      </div>
    );
  return (
    <section className="panel answer" aria-labelledby="answer-heading" data-testid="answer">
      <div className="answer-head">
        <h2 id="answer-heading">Answer</h2>
        <OutcomeBadge outcome={result.outcome} />
      </div>
      {result.firstPass ? (
        <SettledByInquiry result={result} />
      ) : (
        <Answerer models={result.models} computed={result.answer.computed !== undefined} />
      )}
      {result.outcome === 'abstain' ? (
        <>
          <div className="abstain-note">
            <p>
              <strong>Why:</strong> {result.reason}
            </p>
            {result.suggestion && (
              <p className="suggestion">
                <strong>What you can do:</strong> {result.suggestion}
              </p>
            )}
          </div>
          <SetAside result={result} />
          {work}
          {result.answer.kind !== 'insufficient' && (
            <details className="tentative">
              <summary>What the closest passages say (not an answer)</summary>
              {body}
            </details>
          )}
        </>
      ) : (
        <>
          {body}
          {work}
          {result.outcome !== 'supported' && (
            <div className="abstain-note">
              {result.reason && <p>{result.reason}</p>}
              {result.suggestion && <p className="suggestion">{result.suggestion}</p>}
            </div>
          )}
          <SetAside result={result} />
          {unsupported.length > 0 && (
            <div className="unsupported">
              <p>Not supported by the passages they cite:</p>
              <ul>
                {unsupported.map((s, i) => (
                  <li key={i}>
                    “{s.text}” <span className="muted">— {s.problem}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Documents the verifier set aside as one written-to-order claim: they agree on a value but share
 * nothing else, so they did not count as support (their passages are not among the sources).
 */
function SetAside({ result }: { readonly result: AskResult }) {
  const claims = setAsideClaims(result);
  if (claims.length === 0) return null;
  return (
    <div className="set-aside" data-testid="set-aside">
      {claims.map((c, i) => (
        <p key={i}>
          <strong>Set aside as one claim written to order:</strong> {c.reason}. They did not count as support.{' '}
          <span className="muted">
            Among the passages retrieved here: {c.documents.map((d) => d.title).join('; ')}.
          </span>
        </p>
      ))}
    </div>
  );
}

function SourceList({
  result,
  feedback,
  ocr,
  onOpen,
  onMark,
}: {
  readonly result: AskResult;
  readonly feedback: Readonly<Record<string, FeedbackMark>>;
  readonly ocr: OcrMarks;
  readonly onOpen: (s: AskSource) => void;
  readonly onMark: (s: AskSource, v: Verdict) => void;
}) {
  if (result.sources.length === 0) return null;
  const cited = new Set(result.answer.sentences.flatMap((s) => s.citationIds));
  const lambdaOf = (chunkId: string): number | undefined =>
    result.candidates.find((c) => c.id === chunkId)?.scores.prior;
  return (
    <section className="sources" aria-labelledby="sources-heading">
      <h2 id="sources-heading">Evidence used ({result.sources.length})</h2>
      <ol className="source-list" data-testid="sources">
        {result.sources.map((s) => {
          const mark = feedback[s.chunkId];
          return (
            <li key={s.citationId} className="source" data-citation={s.citationId} data-doc-id={s.docId}>
              <div className="source-head">
                <span className="source-id">{s.citationId}</span>
                <div>
                  <h3>{s.title}</h3>
                  <p className="muted">
                    {s.headings.length > 0 && `${s.headings.join(' › ')} · `}
                    {s.page !== null && `page ${s.page} · `}
                    <OcrBadge mark={ocrMarkOf(ocr, s.docId, s.page)} />
                    {SOURCE_TYPE_LABEL[s.sourceType]}
                    {lambdaOf(s.chunkId) !== undefined && ` (λ ${lambdaOf(s.chunkId)!.toFixed(2)})`} ·{' '}
                    <span className={`badge badge-${s.status}`}>{STATUS_LABEL[s.status]}</span>
                    {s.effectiveDate && ` · effective ${s.effectiveDate}`}
                    {cited.has(s.citationId) && ' · cited in the answer'}
                  </p>
                </div>
              </div>
              <div className="source-text">
                <ChunkText text={s.text} headings={s.headings} />
              </div>
              <div className="source-actions">
                <button type="button" className="secondary small" onClick={() => onOpen(s)}>
                  Open in document
                </button>
                <span className="feedback" role="group" aria-label={`Was ${s.citationId} helpful?`}>
                  <button
                    type="button"
                    className="secondary small"
                    aria-pressed={mark?.verdict === 'helpful'}
                    onClick={() => onMark(s, 'helpful')}
                  >
                    Helpful
                  </button>
                  <button
                    type="button"
                    className="secondary small"
                    aria-pressed={mark?.verdict === 'misleading'}
                    onClick={() => onMark(s, 'misleading')}
                  >
                    Misleading
                  </button>
                </span>
                {mark && (
                  <span className="muted feedback-status" role="status">
                    {mark.status === 'sending' && 'Saving…'}
                    {mark.status === 'error' && `Not saved: ${mark.error?.message ?? ''}`}
                    {mark.status === 'saved' &&
                      mark.result &&
                      `Reliability of this document: λ ${mark.result.before.toFixed(2)} → ${mark.result.after.toFixed(2)}${mark.result.persistent ? '' : ' (this tab only)'}`}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
