/**
 * Abstention: one decision from the signals the pipeline already has (RAG guide: thresholds on
 * calibrated signals, tuned on a training split, never on the test split).
 *
 * Two models, chosen by the question's kind (`questionKindOf`): *factoid* (who / when / how many:
 * the answer is a value) and *descriptive* (what is X, why, how does, a yes/no question, a claim:
 * the answer is sentences). Signals (F = a feature of the factoid model, D = of the descriptive one):
 *   - answerScore F D: score of the best answer sentence (extractive.ts; 0 when there is none);
 *   - topScore: best raw BM25 score among the retrieved candidates, per query term;
 *   - margin F: how clearly the best document beats the next (`documentMargin`: fused retrieval
 *     scores times the priors, the runner-up from another document);
 *   - agreement D: overlap of the lexical and dense top-5 sets (|∩| / 5), null without dense
 *     retrieval (then read as the training mean);
 *   - independentSources: lineage clusters among the packed sources (verify stage);
 *   - conflict: an unresolved conflict on the question;
 *   - flagged: packed sources the verifier flagged;
 *   - coverage F D: share of the question's rationales the packed evidence covers;
 *   - spanCoverage F D: share of the rationales covered by the best sentence stating the answer
 *     value (factoid), by the lead answer sentence (descriptive);
 *   - typed F: whether the answer has a short answer of the asked-for kind (wh-type span present);
 *   - specificity F: how complete that span is (a date without its year answers "when" in part);
 *   - voteSources F, voteShare: packed passages stating the chosen value, and its share of the votes;
 *   - settled F: the chosen value is the winner of a resolved conflict on the question (independent
 *     support, credibility or internal consistency decided it in the verify stage);
 *   - entityCoverage D: share of the names the question mentions that the packed evidence mentions.
 *
 * Decision, in order (`ruleOf`, then the model): an unresolved conflict → not asserted
 * ('conflict'; the answer states both sides); no answer sentence → 'insufficient'; for a factoid,
 * a name the question mentions found in no packed passage → 'missing_premise'; otherwise the
 * kind's logistic model of "the answer is correct" over its standardised features, fitted by
 * `src/cli/fit-abstain.ts` with every weight kept ≥ 0; below the kind's threshold it abstains,
 * with 'untyped' when a factoid's evidence covers the question but states no value of the asked
 * kind (a name, date or number), 'uncovered' when the answer sentence's coverage is the weakest
 * standardised feature, 'uncorroborated' when a factoid's value is stated by one passage and that
 * count is what pulled the probability down most, and 'low_scores' otherwise.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import { checkRange } from '../util/stage';
import type { EvidencePacket } from '../select/packet';
import { termsOf } from '../select/rationales';
import type { Answer } from './extractive';
import { sourceBody } from './extractive';
import { answerTypeOf, dateParts, extractValues } from '../verify/values';
import { asksForComputation } from './computation';
import { resolvesName } from './compute';
import { deadlinesIn } from './deadlines';
import { asks } from '../text/clauses';

export interface AbstentionSignals {
  readonly answerScore: number;
  readonly topScore: number;
  readonly margin: number;
  readonly agreement: number | null;
  readonly independentSources: number;
  readonly conflict: boolean;
  readonly flagged: number;
  readonly coverage: number;
  readonly typed: boolean;
  /** Packed passages that state the chosen answer value (0 when none was voted). */
  readonly voteSources: number;
  /** The chosen value's share of all answer votes (0 when none). */
  readonly voteShare: number;
  /** Entity rationales of the question that no packed passage mentions. */
  readonly missingEntities: readonly string[];
  /** Entity rationales of the question (names it mentions); `missingEntities.length` when absent. */
  readonly entities?: number;
  /**
   * Factoid: share of the question's rationales covered by the best sentence that states the chosen
   * answer value (the answer span of the asked-for kind sits in a sentence about the whole question,
   * not just near its topic); 0 when no value was chosen. Descriptive: the share the lead answer
   * sentence covers. `coverage` when absent and the answer is typed.
   */
  readonly spanCoverage?: number;
  /** The chosen value is the one a resolved conflict on the question settled on. */
  readonly settled?: boolean;
  /**
   * How complete the short answer is for its kind, in [0, 1]: a date with its year (½), month (¼)
   * and day (¼) — "November 12" without a year answers "when" only in part; a name or a number 1;
   * no short answer 0. `typed` (1 or 0) when absent.
   */
  readonly specificity?: number;
  /**
   * Which model decides: `factoid` when the question asks for a name, date or number, `descriptive`
   * otherwise (an explanation, a yes/no question, a claim to check). `factoid` when absent.
   */
  readonly questionKind?: QuestionKind;
  /** Selection read the pool as long documents (`select/long-document.ts`). False when absent. */
  readonly longDocument?: boolean;
  /** The answer was read from a table cell chosen by row label and column header. False when absent. */
  readonly tableCell?: boolean;
  /** The question's answer is a computation over figures (computation.ts). False when absent. */
  readonly computation?: boolean;
  /**
   * The answer computes it (compute.ts): 'complete' when every operand is a cited cell, found
   * unambiguously, in agreeing units; 'partial' when some are missing. Absent when not computed.
   */
  readonly computed?: 'complete' | 'partial';
  /** Share of the question's terms the lead answer sentence holds (its heading trail at half weight). */
  readonly leadCoverage?: number;
  /** The lead sentence's score over the best sentence not chosen. */
  readonly leadMargin?: number;
  /**
   * Documents among the retrieval candidates (a one-document library has one). With one, nothing
   * weighs documents against each other (margin, votes, a settled conflict are unset) and the
   * one-document model decides.
   */
  readonly documents?: number;
}

export const QUESTION_KINDS = ['factoid', 'descriptive'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/**
 * `factoid` for a question asking for a name, a date or a number (the answer-type rules of
 * values.ts); `descriptive` for everything else, statements included: a claim to check ("The hotel
 * rate is capped at 180 EUR") asks whether the evidence supports it, not for a value.
 */
export function questionKindOf(question: string): QuestionKind {
  const t = answerTypeOf(question);
  return (t === 'entity' || t === 'date' || t === 'number') && asks(question) ? 'factoid' : 'descriptive';
}

export const ABSTENTION_REASONS = [
  'none',
  'conflict',
  'insufficient',
  'missing_premise',
  'uncovered',
  'low_scores',
  'uncorroborated',
  'untyped',
  'indirect',
  'computation',
] as const;
export type AbstentionReason = (typeof ABSTENTION_REASONS)[number];

export interface AbstentionDecision {
  readonly abstain: boolean;
  readonly reason: AbstentionReason;
  /** Modelled probability that the answer is correct (null when a rule decided). */
  readonly pCorrect: number | null;
  readonly signals: AbstentionSignals;
  /** What the user could do, when abstaining. */
  readonly suggestion: string | null;
}

/** Features of the logistic models, in order. */
export const ABSTENTION_FEATURES = [
  'answerScore',
  'margin',
  'coverage',
  'spanCoverage',
  'typed',
  'specificity',
  'voteSources',
  'voteShare',
  'settled',
  'agreement',
  'entityCoverage',
  'leadCoverage',
  'leadMargin',
] as const;
export type AbstentionFeature = (typeof ABSTENTION_FEATURES)[number];

/**
 * The features each kind's model reads (the others keep weight 0). A factoid answer is a value:
 * how complete it is, how many passages state it and whether a conflict settled on it say most.
 * A description has no value: how well its sentence and the evidence cover the question, and
 * whether the lexical and the dense retriever agree on where to look.
 */
export const KIND_FEATURES: Readonly<Record<QuestionKind, readonly AbstentionFeature[]>> = Object.freeze({
  factoid: Object.freeze([
    'answerScore',
    'margin',
    'coverage',
    'spanCoverage',
    'typed',
    'specificity',
    'voteSources',
    'voteShare',
    'settled',
    'leadCoverage',
    'leadMargin',
  ] as const),
  descriptive: Object.freeze([
    'answerScore',
    'coverage',
    'spanCoverage',
    'agreement',
    'entityCoverage',
    'leadCoverage',
    'leadMargin',
  ] as const),
});

/**
 * Every feature is one where more can only mean more confidence (higher scores, more coverage,
 * a more complete span, more agreeing passages, a settled conflict), so the fit keeps every weight
 * ≥ 0: correlated features then cannot flip a sign to cancel each other out, and the model stays
 * monotone (more evidence never lowers the probability of a correct answer).
 */
export const MONOTONE_FEATURES: ReadonlySet<AbstentionFeature> = new Set(ABSTENTION_FEATURES);

export interface AbstentionModel {
  readonly mean: Readonly<Record<AbstentionFeature, number>>;
  readonly sd: Readonly<Record<AbstentionFeature, number>>;
  readonly weights: Readonly<Record<AbstentionFeature, number>>;
  readonly bias: number;
}

/** One kind's model and the probability below which it abstains. */
export interface KindDecision {
  readonly model: AbstentionModel;
  readonly threshold: number;
}

// BEGIN FITTED (written by `npx tsx src/cli/fit-abstain.ts --rgb ../shared/datasets/rgb-counterfactual --scifact ../shared/datasets/scifact --write`)
// factoid: 447 examples (447 rgb, 0 scifact, 0 scifact-unanswerable), 252 correct; threshold 0.65 (wrong-answer cost 1.5) keeps 159, 151 correct.
// descriptive: 1620 examples (12 rgb, 805 scifact, 803 scifact-unanswerable), 509 correct; threshold 0.09 (selection F1 cost on answerable train claims 0.0033 ≤ 0.005) keeps 1568, 507 correct.
export const FITTED_ABSTENTION: AbstentionOptions = Object.freeze({
  factoid: Object.freeze({
    model: Object.freeze({
      mean: Object.freeze({
        answerScore: 1.5593,
        margin: 0.4234,
        coverage: 0.8975,
        spanCoverage: 0.7422,
        typed: 0.9799,
        specificity: 0.929,
        voteSources: 1.7852,
        voteShare: 0.5381,
        settled: 0.1387,
        agreement: 0,
        entityCoverage: 0,
        leadCoverage: 0,
        leadMargin: 0,
      }),
      sd: Object.freeze({
        answerScore: 0.3439,
        margin: 0.3507,
        coverage: 0.1959,
        spanCoverage: 0.2519,
        typed: 0.1405,
        specificity: 0.1946,
        voteSources: 1.1346,
        voteShare: 0.2803,
        settled: 0.3456,
        agreement: 1,
        entityCoverage: 1,
        leadCoverage: 0,
        leadMargin: 0,
      }),
      weights: Object.freeze({
        answerScore: 0,
        margin: 0.3555,
        coverage: 0,
        spanCoverage: 0,
        typed: 0,
        specificity: 0.8475,
        voteSources: 0.7979,
        voteShare: 0.4086,
        settled: 0.8729,
        agreement: 0,
        entityCoverage: 0,
        leadCoverage: 0,
        leadMargin: 0,
      }),
      bias: 0.4443,
    }),
    threshold: 0.65,
  }),
  descriptive: Object.freeze({
    model: Object.freeze({
      mean: Object.freeze({
        answerScore: 0.8054,
        margin: 0,
        coverage: 0.4941,
        spanCoverage: 0.3607,
        typed: 0,
        specificity: 0,
        voteSources: 0,
        voteShare: 0,
        settled: 0,
        agreement: 0.1155,
        entityCoverage: 0.7778,
        leadCoverage: 0,
        leadMargin: 0,
      }),
      sd: Object.freeze({
        answerScore: 0.2675,
        margin: 1,
        coverage: 0.2315,
        spanCoverage: 0.2158,
        typed: 1,
        specificity: 1,
        voteSources: 1,
        voteShare: 1,
        settled: 1,
        agreement: 0.2022,
        entityCoverage: 0.3683,
        leadCoverage: 0,
        leadMargin: 0,
      }),
      weights: Object.freeze({
        answerScore: 0.2746,
        margin: 0,
        coverage: 0.4566,
        spanCoverage: 0,
        typed: 0,
        specificity: 0,
        voteSources: 0,
        voteShare: 0,
        settled: 0,
        agreement: 0.5904,
        entityCoverage: 0,
        leadCoverage: 0,
        leadMargin: 0,
      }),
      bias: -0.8855,
    }),
    threshold: 0.09,
  }),
});
// END FITTED

/**
 * The features of the one-document model: how the lead sentence meets the question (its score,
 * its share of the question's weighted terms, its margin over the next sentence). Chosen by
 * leave-one-corpus-out: the packet-level features (coverage, span coverage, typed, specificity)
 * fitted on tables (TAT-QA) released wrong sentences of articles (COVID-QA) when it was left out
 * (9.9 % wrong against 7.6 % with these three; src/core/answer/README.md).
 */
export const ONE_DOCUMENT_FEATURES: readonly AbstentionFeature[] = Object.freeze([
  'answerScore',
  'leadCoverage',
  'leadMargin',
] as const);

// BEGIN ONE-DOCUMENT FITTED (written by `npx tsx src/cli/fit-release.ts --docqa covidqa-dev.json,tatqa-dev.json,financebench-dev.json --budget 0.05 --write`, the JSON reports of `npm run eval -- --dataset ../shared/datasets/<corpus> --answers --lexical-only --json <corpus>.json`, every question of covidqa-dev and financebench-dev, every third of tatqa-dev (`--every 3`))
// one-document model: 1265 examples (818 covidqa-dev, 414 tatqa-dev, 33 financebench-dev), threshold 0.71 (no corpus releases wrong answers for more than 5.0% of its questions).
export const FITTED_ONE_DOCUMENT: KindDecision = Object.freeze({
  model: Object.freeze({
    mean: Object.freeze({
      answerScore: 1.3272,
      margin: 0,
      coverage: 0,
      spanCoverage: 0,
      typed: 0,
      specificity: 0,
      voteSources: 0,
      voteShare: 0,
      settled: 0,
      agreement: 0,
      entityCoverage: 0,
      leadCoverage: 0.6251,
      leadMargin: 0.4693,
    }),
    sd: Object.freeze({
      answerScore: 0.4386,
      margin: 1,
      coverage: 1,
      spanCoverage: 1,
      typed: 1,
      specificity: 1,
      voteSources: 1,
      voteShare: 1,
      settled: 1,
      agreement: 1,
      entityCoverage: 1,
      leadCoverage: 0.3463,
      leadMargin: 0.493,
    }),
    weights: Object.freeze({
      answerScore: 0.3552,
      margin: 0,
      coverage: 0,
      spanCoverage: 0,
      typed: 0,
      specificity: 0,
      voteSources: 0,
      voteShare: 0,
      settled: 0,
      agreement: 0,
      entityCoverage: 0,
      leadCoverage: 0,
      leadMargin: 0.5182,
    }),
    bias: 0.4685,
  }),
  threshold: 0.71,
});
// END ONE-DOCUMENT FITTED

/** A model per question kind (see `questionKindOf`). */
export type AbstentionOptions = Readonly<Record<QuestionKind, KindDecision>>;

export const DEFAULT_ABSTENTION_OPTIONS: AbstentionOptions = FITTED_ABSTENTION;

export interface SignalInput {
  readonly packet: EvidencePacket;
  readonly answer: Answer;
  /** The retrieval candidates (fused, with bm25 scores and ranks). */
  readonly candidates: readonly Candidate[];
}

/** A trace entry saying its candidate copies another: dedup's duplicate or lineage's replica. */
const isCopyEntry = (e: Candidate['trace'][number]): boolean =>
  (e.stage === 'dedup' && typeof e.detail?.duplicateOf === 'string') ||
  (e.stage === 'verify' && typeof e.detail?.replicaOf === 'string');

/**
 * How clearly the best document beats the next one: (s1 − s2) / s1, where s is a candidate's fused
 * retrieval score times its prior (λ of its source type × its status factor, from the priors stage
 * of the packet's trace; 1 without one), s1 the best candidate's and s2 the best of any *other
 * document*. Another chunk of the same document is no competitor, and neither is a superseded copy
 * at its full score: a current policy and its older version score alike on retrieval alone. Nor is
 * a copy of another candidate (dedup's duplicate, the lineage check's replica: the same scanned
 * page in two files): it counts as one source with what it copies, which competes in its own
 * right. 1 when no other document was retrieved; 0 when nothing scores above 0.
 */
export function documentMargin(packet: Pick<EvidencePacket, 'candidates'>, candidates: readonly Candidate[]): number {
  const prior = new Map<string, number>();
  const copies = new Set<string>();
  for (const c of packet.candidates) {
    const d = c.trace.find((e) => e.stage === 'priors')?.detail;
    if (d && typeof d.lambda === 'number' && typeof d.statusFactor === 'number')
      prior.set(c.id, d.lambda * d.statusFactor);
    if (c.trace.some(isCopyEntry)) copies.add(c.id);
  }
  const scored = candidates
    .filter((c) => !copies.has(c.id))
    .map((c) => ({ docId: c.docId, s: (c.scores.fused ?? c.score) * (prior.get(c.id) ?? 1) }))
    .filter((x) => Number.isFinite(x.s))
    .sort((a, b) => b.s - a.s);
  const top = scored[0];
  if (!top || !(top.s > 0)) return 0;
  const next = scored.find((x) => x.docId !== top.docId);
  return next ? (top.s - Math.max(0, next.s)) / top.s : 1;
}

const PERIOD_PART = /^(?:(?:FY|CY|Q[1-4]|H[12])\s?['’]?(\d{2}|\d{4})?|(\d{4})|and|or|to|vs|versus|of|through|-|–|—)$/i;
const CURRENCY_CODE = /^(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|INR|SEK|NOK|DKK|HKD|SGD)$/;

/**
 * Names that are not what a question is about, or are mentioned in another form: a fiscal
 * period ("FY2018", "FY2019 - FY2020", "H1 FY2023") is mentioned where its years are, since
 * filings write "2018", not "FY2018"; a currency code ("USD") names the answer's unit; a
 * one-letter fragment ("P" of "P&L", "M" of "3M") cannot be checked. A possessive
 * ("JPM's") is read without its "'s".
 */
function periodOrUnitMentioned(name: string, textTerms: ReadonlySet<string>): boolean {
  const t = name.trim().replace(/['’]s$/i, '');
  if (CURRENCY_CODE.test(t) || t.replace(/[^\p{L}\p{N}]/gu, '').length <= 1) return true;
  if (t !== name.trim() && termsOf(t).some((x) => textTerms.has(x))) return true;
  const parts = t.split(/\s+|(?<=\d)(?=[-–—])|(?<=[-–—])(?=\S)/).filter((x) => x !== '');
  const years: string[] = [];
  for (const part of parts) {
    const m = PERIOD_PART.exec(part);
    if (!m) return false;
    const y = m[1] ?? m[2];
    if (y) years.push(y.length === 2 ? `20${y}` : y);
  }
  return years.every((y) => textTerms.has(y));
}

/** Reads the signals off the packet, the answer and the retrieval candidates. */
export function abstentionSignals(input: SignalInput): AbstentionSignals {
  const { packet, answer, candidates } = input;
  const qTerms = Math.max(1, termsOf(packet.question).length);
  const bm25 = candidates.map((c) => c.scores.bm25 ?? 0).filter(Number.isFinite);
  const topScore = bm25.length > 0 ? Math.max(...bm25) / qTerms : 0;
  const margin = documentMargin(packet, candidates);
  const lexTop = candidates.filter((c) => c.ranks.bm25 !== undefined && c.ranks.bm25 <= 5).map((c) => c.id);
  const denseTop = new Set(
    candidates.filter((c) => c.ranks.dense !== undefined && c.ranks.dense <= 5).map((c) => c.id),
  );
  const agreement = denseTop.size === 0 ? null : lexTop.filter((id) => denseTop.has(id)).length / 5;
  const covered = packet.rationales.filter((r) => r.covered).length;
  const coverage = packet.rationales.length === 0 ? 1 : covered / packet.rationales.length;
  // A name counts as mentioned when a packed passage, its document's title or its heading trail
  // holds it: a filing names its company in the title and on every page, not in every chunk.
  const text = packet.sources.map((s) => [s.title, ...s.headings, sourceBody(s)].join('\n')).join('\n');
  const textTerms = new Set(termsOf(text));
  const entities = packet.rationales.filter((r) => r.rationale.kind === 'entity' && r.rationale.terms.length > 0);
  const missingEntities = entities
    .filter(
      (r) => !r.rationale.terms.some((t) => textTerms.has(t)) && !periodOrUnitMentioned(r.rationale.text, textTerms),
    )
    .map((r) => r.rationale.text)
    // A line item a computation found under its printed label ("COGS" as "Cost of products sold").
    .filter((name) => !(answer.computed && resolvesName(answer.computed, name)));
  const questionKind = questionKindOf(packet.question);
  // A description has no answer value: the share of the rationales its lead sentence covers.
  const lead = answer.sentences[0];
  const leadCoverage =
    !lead || packet.rationales.length === 0 ? (lead ? 1 : 0) : lead.rationaleIds.length / packet.rationales.length;
  return {
    answerScore: answer.sentences[0]?.score ?? 0,
    topScore,
    margin,
    agreement,
    independentSources: packet.independentSources ?? packet.sources.length,
    conflict: answer.kind === 'conflict',
    flagged: new Set(packet.flags.map((f) => f.candidateId)).size,
    coverage,
    typed: answer.short !== null,
    voteSources: answer.votes?.sources ?? 0,
    voteShare: answer.votes?.share ?? 0,
    missingEntities,
    entities: entities.length,
    spanCoverage: questionKind === 'factoid' ? (answer.votes?.coverage ?? 0) : leadCoverage,
    settled: answer.votes?.settled ?? false,
    specificity: specificityOf(answer),
    questionKind,
    longDocument: packet.longDocument?.long ?? false,
    tableCell: answer.table !== undefined,
    // A generator may compute it; the extractive reader only quotes.
    computation: answer.answerer === 'extractive' && asksForComputation(packet.question),
    ...(answer.computed ? { computed: answer.computed.status } : {}),
    leadCoverage: answer.lead?.coverage ?? (answer.table ? 1 : 0),
    leadMargin: answer.lead?.margin ?? 0,
    documents: new Set(candidates.map((c) => c.docId)).size,
  };
}

/** Completeness of the short answer for its kind (see `AbstentionSignals.specificity`). */
export function specificityOf(answer: Answer): number {
  const short = answer.short;
  if (!short) return 0;
  if (short.kind === 'number' || short.kind === 'polarity') return 1;
  if (short.kind === 'entity') return 1;
  const dates = extractValues(short.text).filter((v) => v.kind === 'date');
  let best = 0;
  for (const d of dates) {
    const p = dateParts(d.key);
    best = Math.max(best, (p.y !== null ? 0.5 : 0) + (p.m !== null ? 0.25 : 0) + (p.d !== null ? 0.25 : 0));
  }
  // A relative deadline ("the next business day") is complete as it stands.
  if (best === 0 && deadlinesIn(short.text).length > 0) return 1;
  return best;
}

/** The feature vector of the logistic models; `agreement` is NaN without dense retrieval (read as its mean). */
export function featureVector(s: AbstentionSignals): Record<AbstentionFeature, number> {
  const entities = s.entities ?? s.missingEntities.length;
  const one = s.documents === 1;
  return {
    agreement: s.agreement ?? Number.NaN,
    entityCoverage: entities === 0 ? 1 : 1 - s.missingEntities.length / entities,
    answerScore: s.answerScore,
    // In a one-document library every answer's document "wins" by 1: unset, read as the mean.
    margin: one ? Number.NaN : s.margin,
    coverage: s.coverage,
    // Votes, their share and a settled conflict weigh documents against each other: with one
    // document in the library there is none to weigh (repetition inside it is no corroboration).
    voteSources: one ? Number.NaN : Math.min(s.voteSources, 5),
    voteShare: one ? Number.NaN : s.voteShare,
    spanCoverage: s.spanCoverage ?? (s.typed ? s.coverage : 0),
    specificity: s.specificity ?? (s.typed ? 1 : 0),
    typed: s.typed ? 1 : 0,
    settled: one ? Number.NaN : s.settled === true ? 1 : 0,
    leadCoverage: s.leadCoverage ?? Number.NaN,
    leadMargin: s.leadMargin ?? Number.NaN,
  };
}

/** A feature standardised by a model; a missing (non-finite) one reads as the mean, 0. */
export function standardised(x: Record<AbstentionFeature, number>, f: AbstentionFeature, m: AbstentionModel): number {
  const v = x[f];
  if (!Number.isFinite(v)) return 0;
  return (v - m.mean[f]) / (m.sd[f] > 0 ? m.sd[f] : 1);
}

/** Probability that the answer is correct under a logistic model. */
export function pCorrect(s: AbstentionSignals, model: AbstentionModel): number {
  const x = featureVector(s);
  let z = model.bias;
  for (const f of ABSTENTION_FEATURES) if (model.weights[f] !== 0) z += model.weights[f] * standardised(x, f, model);
  return 1 / (1 + Math.exp(-z));
}

/** Which model decides for these signals. */
export const kindOf = (s: AbstentionSignals): QuestionKind => s.questionKind ?? 'factoid';

const SUGGESTIONS: Readonly<Record<AbstentionReason, string | null>> = Object.freeze({
  none: null,
  conflict: 'The sources disagree; check which document is current or authoritative, or add one that settles it.',
  insufficient: 'No passage answers this. Try a narrower question, or add the document that covers it.',
  missing_premise: 'The documents do not mention what the question is about. Add the document that covers it.',
  uncovered: 'The evidence covers only part of the question. Ask about one aspect at a time.',
  low_scores:
    'The evidence matches the question only weakly. Try a narrower question, or add the document that covers it.',
  uncorroborated:
    'Open the passage below to check it yourself, or add a document that confirms it. If other documents may state it, keep more passages (Settings → Passages kept by the cutoff, Fewest) so they are compared.',
  untyped:
    'Read the closest passages below: the answer may be there in a form Evident does not pick out (a phrase, a table cell). For a figure in a table, name its row and period.',
  indirect:
    'Read the closest passages below, or ask for one figure by its row and period (e.g. "accounts payable at December 31, 2018").',
  computation:
    'Check the closest passages below for the figures: ask for the calculation naming each period and measure as the table prints them, or ask for each figure on its own.',
});

/**
 * The rules that decide before the model: an unresolved conflict, no answer sentence, and for a
 * factoid a missing premise (a name the question mentions that no packed passage does: the answer
 * would be about something else). A description or a claim names many things (genes, drugs,
 * places) its evidence may spell differently; for it the share of names found is a feature of the
 * model (`entityCoverage`), not a rule. Null when the model decides.
 */
export function ruleOf(signals: AbstentionSignals): AbstentionReason | null {
  if (signals.conflict) return 'conflict';
  if (signals.answerScore <= 0) return 'insufficient';
  if (signals.missingEntities.length > 0 && kindOf(signals) === 'factoid') return 'missing_premise';
  // A computed answer is not quoted from one of its inputs (a sentence stating one figure); a
  // cell whose row names the measure itself ("Gross margin | 2019") states it.
  // A computed answer (compute.ts) states it when every operand was found; else it quotes the inputs.
  if (signals.computed === 'partial') return 'computation';
  if (signals.computation === true && signals.tableCell !== true && signals.computed !== 'complete')
    return 'computation';
  return null;
}

/** Combines the signals into one decision. */
export function decideAbstention(
  signals: AbstentionSignals,
  options: Partial<AbstentionOptions> = {},
  oneDocument: KindDecision = FITTED_ONE_DOCUMENT,
): AbstentionDecision {
  assertKnownOptions(options, DEFAULT_ABSTENTION_OPTIONS, 'abstain');
  const o: AbstentionOptions = { ...DEFAULT_ABSTENTION_OPTIONS, ...options };
  for (const k of QUESTION_KINDS) checkRange('abstain', `${k}.threshold`, o[k].threshold, 0, 1);
  const decide = (abstain: boolean, reason: AbstentionReason, p: number | null): AbstentionDecision => ({
    abstain,
    reason,
    pCorrect: p,
    signals,
    suggestion: abstain ? SUGGESTIONS[reason] : null,
  });
  const rule = ruleOf(signals);
  if (rule) return decide(true, rule, null);
  // A complete computation is released on its own checks, not on the sentence models: every operand
  // is one unambiguous cited cell, in agreeing units, and validation recomputes the arithmetic.
  if (signals.computed === 'complete') return decide(false, 'none', null);
  const kind = kindOf(signals);
  // Evidence from one document: its own model (votes and margins say nothing there). A figure
  // read from a table cell by its row label and column header is no sentence: the kind's model
  // decides it, as in a library of several documents.
  const { model, threshold } = signals.documents === 1 && signals.tableCell !== true ? oneDocument : o[kind];
  const p = pCorrect(signals, model);
  const indirect =
    signals.longDocument === true && signals.tableCell !== true && !signals.typed && kind === 'descriptive';
  if (indirect && p < threshold) return decide(true, 'indirect', p);
  if (p >= threshold) return decide(false, 'none', p);
  const x = featureVector(signals);
  const z = (f: AbstentionFeature): number => standardised(x, f, model);
  // A factoid with no value of the asked kind in any sentence: its coverage reads 0 for that, not for a gap.
  if (kind === 'factoid' && !signals.typed && signals.coverage >= 1) return decide(true, 'untyped', p);
  if (z('spanCoverage') < z('answerScore') && z('spanCoverage') < 0) return decide(true, 'uncovered', p);
  // What pulled the probability down most: a value that one passage alone states.
  const pull = (f: AbstentionFeature): number => model.weights[f] * z(f);
  const weakest = ABSTENTION_FEATURES.filter((f) => model.weights[f] > 0).sort((a, b) => pull(a) - pull(b))[0];
  // Never "no other passage confirms it" where the library holds one document: it cannot.
  if (kind === 'factoid' && signals.voteSources === 1 && weakest === 'voteSources' && signals.documents !== 1)
    return decide(true, 'uncorroborated', p);
  return decide(true, 'low_scores', p);
}
