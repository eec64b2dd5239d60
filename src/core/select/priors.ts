/**
 * Stage 3 — source priors (source-aware reranking): `final = relevance × λ(source type) × status`.
 *
 * Relevance is the incoming score min-max normalised over the pool first. Multiplying raw scores
 * by λ is not meaningful on every scale: RRF scores of a whole pool sit within a factor of ~2 of
 * each other, so a 3× λ ratio would override any retrieval evidence, and a negative logit would
 * *gain* from a small λ. After normalisation the best candidate has relevance 1 and the worst 0,
 * and λ trades off against how much better one candidate is than another in this pool.
 * Zero spread (one candidate, all scores equal) gives relevance 1 to all, so λ alone orders them.
 *
 * Also here: the version-status preference (superseded and draft documents count less unless the
 * question asks about earlier versions), optional single-hop neighbour smoothing of λ, and the
 * bounded, decaying feedback update of λ with its storage interface.
 */
import type { Candidate, DocumentMeta, SourceType } from '../types';
import { SOURCE_TYPES } from '../types';
import { EvidentError, assertKnownOptions } from '../errors';
import type { EvidenceLookup } from './common';
import { byScoreDesc, checkOneOf, checkRange, cosine, metaOf, minMax, withEntry } from './common';
import { BEFORE_CHANGE, EARLIER_WORDS, QUALIFIED_EARLIER, USED_TO } from '../lexicon/versions';

/**
 * Source-type reliability λ: the taxonomy and values of the source-aware reranking paper as listed
 * in ARCHITECTURE.md (priors row). Editable by the user; stored in `PriorState.table`.
 */
export const DEFAULT_SOURCE_LAMBDAS: Readonly<Record<SourceType, number>> = Object.freeze({
  peer_reviewed: 0.95,
  government: 0.9,
  // The issuer is legally liable for a filing's content (SEC filings, annual reports, regulators' filings).
  official_filing: 0.9,
  internal_policy: 0.85,
  established_news: 0.75,
  blog: 0.5,
  user_generated: 0.4,
  ai_generated: 0.3,
  unknown: 0.6,
});

// ---------------------------------------------------------------------------------------------
// Feedback state
// ---------------------------------------------------------------------------------------------

/** Accumulated feedback on one source type or one document. */
export interface FeedbackCell {
  /** λ offset the feedback has built up (added to the base λ), as of `at`. */
  readonly delta: number;
  /** Effective number of past updates, as of `at` (decays like the offset). */
  readonly n: number;
  /** Epoch milliseconds of the last update. */
  readonly at: number;
}

export const PRIOR_STATE_VERSION = 1;

/** Everything priors need that the user can change; plain JSON so storage can persist it as is. */
export interface PriorState {
  readonly version: typeof PRIOR_STATE_VERSION;
  /** λ per source type before feedback. */
  readonly table: Readonly<Record<SourceType, number>>;
  readonly sources: Readonly<Partial<Record<SourceType, FeedbackCell>>>;
  /** Per-document feedback, relative to the document's source-type λ. */
  readonly docs: Readonly<Record<string, FeedbackCell>>;
}

/** Where the storage layer keeps the prior state (IndexedDB in the app; memory in tests and the CLI). */
export interface PriorStore {
  load(): Promise<PriorState>;
  save(state: PriorState): Promise<void>;
}

export type FeedbackVerdict = 'helpful' | 'misleading';

/** One user judgement of a source: about a whole source type, or about one document (whose type is needed to resolve its λ). */
export type Feedback =
  | {
      readonly sourceType: SourceType;
      readonly docId?: undefined;
      readonly verdict: FeedbackVerdict;
      readonly at: number;
    }
  | { readonly docId: string; readonly sourceType: SourceType; readonly verdict: FeedbackVerdict; readonly at: number };

export interface FeedbackOptions {
  /** Base step size η; the n-th update moves λ by η/√(n+1) of the way to its bound (decreasing step, as in stochastic approximation). Evident default. */
  readonly eta: number;
  /** Feedback older by this many days counts half (both its λ offset and its update count). Evident default: a quarter of a year. */
  readonly halfLifeDays: number;
  /** λ never leaves [minLambda, maxLambda]; a source is never fully silenced (ARCHITECTURE.md feedback; Evident bound). */
  readonly minLambda: number;
  readonly maxLambda: number;
}

export const DEFAULT_FEEDBACK_OPTIONS: FeedbackOptions = Object.freeze({
  eta: 0.2,
  halfLifeDays: 90,
  minLambda: 0.05,
  maxLambda: 1,
});

const DAY_MS = 86_400_000;

/** A fresh state with the default (or a given) λ table and no feedback. */
export function createPriorState(table: Partial<Record<SourceType, number>> = {}): PriorState {
  const merged = { ...DEFAULT_SOURCE_LAMBDAS, ...table };
  for (const t of SOURCE_TYPES) checkRange('priors', `table.${t}`, merged[t], 0, 1);
  return { version: PRIOR_STATE_VERSION, table: Object.freeze(merged), sources: {}, docs: {} };
}

/** Validates a stored state; rejects unknown versions and out-of-range values instead of guessing. */
export function parsePriorState(value: unknown): PriorState {
  const bad = (why: string): never => {
    throw new EvidentError('cache_corrupted', `Stored source priors are unreadable (${why}); reset them in settings.`);
  };
  if (typeof value !== 'object' || value === null) return bad('not an object');
  const v = value as Record<string, unknown>;
  if (v.version !== PRIOR_STATE_VERSION) return bad(`unknown version ${String(v.version)}`);
  const table = v.table as Record<string, unknown> | undefined;
  if (typeof table !== 'object' || table === null) return bad('no table');
  for (const t of SOURCE_TYPES) {
    const x = table[t];
    if (typeof x !== 'number' || !(x >= 0 && x <= 1)) bad(`table.${t}`);
  }
  const cell = (c: unknown, where: string): FeedbackCell => {
    const o = c as Record<string, unknown> | null;
    if (typeof o !== 'object' || o === null) return bad(where);
    const { delta, n, at } = o;
    if (typeof delta !== 'number' || !Number.isFinite(delta) || Math.abs(delta) > 1) return bad(`${where}.delta`);
    if (typeof n !== 'number' || !(n >= 0) || !Number.isFinite(n)) return bad(`${where}.n`);
    if (typeof at !== 'number' || !Number.isFinite(at)) return bad(`${where}.at`);
    return { delta, n, at };
  };
  const sources: Partial<Record<SourceType, FeedbackCell>> = {};
  const rawSources = (v.sources ?? {}) as Record<string, unknown>;
  for (const [k, c] of Object.entries(rawSources)) {
    if (!(SOURCE_TYPES as readonly string[]).includes(k)) bad(`unknown source type ${k}`);
    sources[k as SourceType] = cell(c, `sources.${k}`);
  }
  const docs: Record<string, FeedbackCell> = {};
  for (const [k, c] of Object.entries((v.docs ?? {}) as Record<string, unknown>)) docs[k] = cell(c, `docs.${k}`);
  const t = table as Record<SourceType, number>;
  return { version: PRIOR_STATE_VERSION, table: { ...t }, sources, docs };
}

/** Keeps the state in memory: for tests and the CLI. */
export class MemoryPriorStore implements PriorStore {
  private state: PriorState;
  constructor(initial: PriorState = createPriorState()) {
    this.state = initial;
  }
  async load(): Promise<PriorState> {
    // Round-trip through JSON so callers get what real storage would give back, not a shared object.
    return parsePriorState(JSON.parse(JSON.stringify(this.state)));
  }
  async save(state: PriorState): Promise<void> {
    this.state = parsePriorState(JSON.parse(JSON.stringify(state)));
  }
}

function feedbackOptions(options: Partial<FeedbackOptions>): FeedbackOptions {
  assertKnownOptions(options, DEFAULT_FEEDBACK_OPTIONS, 'feedback');
  const o = { ...DEFAULT_FEEDBACK_OPTIONS, ...options };
  checkRange('feedback', 'eta', o.eta, 0, 1);
  checkRange('feedback', 'halfLifeDays', o.halfLifeDays, 1e-6, 1e6);
  checkRange('feedback', 'minLambda', o.minLambda, 0, 1);
  checkRange('feedback', 'maxLambda', o.maxLambda, o.minLambda, 1);
  return o;
}

/** The cell as of `now`: offset and count both halve every half-life. Feedback "from the future" is not decayed. */
function decayed(cell: FeedbackCell | undefined, now: number, o: FeedbackOptions): { delta: number; n: number } {
  if (!cell) return { delta: 0, n: 0 };
  const age = Math.max(0, now - cell.at);
  const f = Math.pow(2, -age / (o.halfLifeDays * DAY_MS));
  return { delta: cell.delta * f, n: cell.n * f };
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** λ of a source type at time `now`, after decayed feedback, within the bounds. */
export function sourceLambda(
  state: PriorState,
  type: SourceType,
  now: number,
  options: Partial<FeedbackOptions> = {},
): number {
  const o = feedbackOptions(options);
  return clamp(state.table[type] + decayed(state.sources[type], now, o).delta, o.minLambda, o.maxLambda);
}

/** λ of one document at time `now`: its source type's λ plus its own decayed feedback, within the bounds. */
export function documentLambda(
  state: PriorState,
  meta: Pick<DocumentMeta, 'id' | 'sourceType'>,
  now: number,
  options: Partial<FeedbackOptions> = {},
): number {
  const o = feedbackOptions(options);
  const typeLambda = sourceLambda(state, meta.sourceType, now, o);
  return clamp(typeLambda + decayed(state.docs[meta.id], now, o).delta, o.minLambda, o.maxLambda);
}

/**
 * One feedback update. 'helpful' moves λ toward maxLambda, 'misleading' toward minLambda, by a
 * step η/√(n+1) of the remaining distance, where n is the decayed count of past updates: the
 * first judgements move λ most, repeated ones less, and a source can never leave the bounds
 * (each update is a convex combination of λ and a bound). Returns a new state.
 */
export function applyFeedback(
  state: PriorState,
  feedback: Feedback,
  options: Partial<FeedbackOptions> = {},
): PriorState {
  const o = feedbackOptions(options);
  if (!(SOURCE_TYPES as readonly string[]).includes(feedback.sourceType)) {
    throw new EvidentError('invalid_input', `feedback: unknown source type "${String(feedback.sourceType)}".`);
  }
  if (feedback.verdict !== 'helpful' && feedback.verdict !== 'misleading') {
    throw new EvidentError(
      'invalid_input',
      `feedback: verdict must be helpful or misleading, got "${String(feedback.verdict)}".`,
    );
  }
  if (!Number.isFinite(feedback.at))
    throw new EvidentError('invalid_input', 'feedback: "at" must be a timestamp in milliseconds.');
  const now = feedback.at;
  const target = feedback.verdict === 'helpful' ? o.maxLambda : o.minLambda;
  if (feedback.docId === undefined) {
    const type = feedback.sourceType;
    const past = decayed(state.sources[type], now, o);
    const current = sourceLambda(state, type, now, o);
    const step = o.eta / Math.sqrt(past.n + 1);
    const next = clamp(current + step * (target - current), o.minLambda, o.maxLambda);
    const cell: FeedbackCell = { delta: next - state.table[type], n: past.n + 1, at: now };
    return { ...state, sources: { ...state.sources, [type]: cell } };
  }
  const typeLambda = sourceLambda(state, feedback.sourceType, now, o);
  const past = decayed(state.docs[feedback.docId], now, o);
  const current = clamp(typeLambda + past.delta, o.minLambda, o.maxLambda);
  const step = o.eta / Math.sqrt(past.n + 1);
  const next = clamp(current + step * (target - current), o.minLambda, o.maxLambda);
  const cell: FeedbackCell = { delta: next - typeLambda, n: past.n + 1, at: now };
  return { ...state, docs: { ...state.docs, [feedback.docId]: cell } };
}

// ---------------------------------------------------------------------------------------------
// "Does the question ask about an earlier version?"
// ---------------------------------------------------------------------------------------------

const YEAR = /\b(19|20)\d{2}\b/g;

/**
 * True when the question asks about an earlier version of a document, so superseded copies should
 * not be penalised (priors) and an earlier effective version may be the canonical copy (dedup).
 * Rules: explicit words (previous, superseded, former, …); "old/prior/original" before a version
 * noun; "before/prior to/until" before a year or a change; "used to"/"no longer"; or a year
 * mentioned in the question that is earlier than the effective year of a current document in play
 * ("what applied in 2019" when the current version took effect in 2021).
 */
export function asksForEarlierVersion(question: string, documents: Iterable<DocumentMeta> = []): boolean {
  if (
    EARLIER_WORDS.test(question) ||
    QUALIFIED_EARLIER.test(question) ||
    BEFORE_CHANGE.test(question) ||
    USED_TO.test(question)
  ) {
    return true;
  }
  const years = [...question.matchAll(YEAR)].map((m) => Number(m[0]));
  if (years.length === 0) return false;
  const earliestAsked = Math.min(...years);
  for (const d of documents) {
    if (d.status !== 'current' || !d.effectiveDate) continue;
    const effective = Number(d.effectiveDate.slice(0, 4));
    if (Number.isFinite(effective) && earliestAsked < effective) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The stage
// ---------------------------------------------------------------------------------------------

export const PRIOR_NORMALIZATIONS = ['minmax', 'none'] as const;
export type PriorNormalization = (typeof PRIOR_NORMALIZATIONS)[number];

export interface SmoothingOptions {
  /** Documents whose centroid vectors have cosine ≥ tau are neighbours. Evident default 0.9 (near-paraphrase level for sentence encoders). */
  readonly tau: number;
  /** How far a document's λ moves toward the mean λ of its neighbours (0 = not at all, 1 = all the way). Evident default 0.5. */
  readonly alpha: number;
}

export interface PriorsOptions {
  /** 'minmax': relevance = score min-max normalised over the pool (see file comment); 'none': raw score. */
  readonly normalize: PriorNormalization;
  /** Multiplier for superseded documents unless the question asks about earlier versions. Evident default. */
  readonly supersededFactor: number;
  /** Multiplier for drafts (not yet in force). Evident default. */
  readonly draftFactor: number;
  /**
   * Optional single-hop neighbour smoothing of λ (source-aware reranking). Off by default: it needs
   * chunk vectors, and pulling a credible original toward its low-credibility copy is not always
   * wanted. Pass `{}` for the defaults below, or your own values.
   */
  readonly smoothing: Partial<SmoothingOptions> | null;
  /** Decay and bounds of the feedback offsets, shared with `applyFeedback`. */
  readonly feedback: Partial<FeedbackOptions>;
}

export const DEFAULT_SMOOTHING_OPTIONS: SmoothingOptions = Object.freeze({ tau: 0.9, alpha: 0.5 });

export const DEFAULT_PRIORS_OPTIONS: PriorsOptions = Object.freeze({
  normalize: 'minmax',
  supersededFactor: 0.8,
  draftFactor: 0.9,
  smoothing: null,
  feedback: Object.freeze({}),
});

export interface PriorsInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  /** User-edited table and feedback; the default table when absent. */
  readonly priors?: PriorState;
  /** Epoch ms the feedback decays to; the newest feedback time when absent (so results do not depend on the clock). */
  readonly now?: number;
}

export interface PriorsResult {
  /** All candidates, best first by `relevance × λ × status`. */
  readonly candidates: readonly Candidate[];
  /** Effective λ per document (after feedback and smoothing). */
  readonly lambdas: ReadonlyMap<string, number>;
  /** Whether the question asks about earlier versions (superseded copies then count fully). */
  readonly asksEarlier: boolean;
}

function latestFeedback(state: PriorState): number {
  let t = 0;
  for (const c of Object.values(state.sources)) if (c && c.at > t) t = c.at;
  for (const c of Object.values(state.docs)) if (c.at > t) t = c.at;
  return t;
}

/** Unit centroid of a document's chunk vectors in the pool, or undefined without vectors. */
function centroids(candidates: readonly Candidate[], lookup: EvidenceLookup): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (!lookup.vectorOf) return out;
  const sums = new Map<string, Float32Array>();
  for (const c of candidates) {
    const v = lookup.vectorOf(c.id);
    if (!v) continue;
    const s = sums.get(c.docId);
    if (!s) sums.set(c.docId, Float32Array.from(v));
    else for (let i = 0; i < Math.min(s.length, v.length); i++) s[i] = (s[i] as number) + (v[i] as number);
  }
  for (const [doc, s] of sums) {
    let norm = 0;
    for (const x of s) norm += x * x;
    norm = Math.sqrt(norm);
    if (norm > 0)
      out.set(
        doc,
        s.map((x) => x / norm),
      );
  }
  return out;
}

/** Reweights the pool by source reliability and version status. */
export function applyPriors(
  candidates: readonly Candidate[],
  input: PriorsInput,
  options: Partial<PriorsOptions> = {},
): PriorsResult {
  assertKnownOptions(options, DEFAULT_PRIORS_OPTIONS, 'priors');
  const o: PriorsOptions = { ...DEFAULT_PRIORS_OPTIONS, ...options };
  checkOneOf('priors', 'normalize', o.normalize, PRIOR_NORMALIZATIONS);
  checkRange('priors', 'supersededFactor', o.supersededFactor, 0, 1);
  checkRange('priors', 'draftFactor', o.draftFactor, 0, 1);
  const fb = feedbackOptions(o.feedback);
  let smoothing: SmoothingOptions | null = null;
  if (o.smoothing) {
    assertKnownOptions(o.smoothing, DEFAULT_SMOOTHING_OPTIONS, 'priors.smoothing');
    smoothing = { ...DEFAULT_SMOOTHING_OPTIONS, ...o.smoothing };
    checkRange('priors', 'smoothing.tau', smoothing.tau, -1, 1);
    checkRange('priors', 'smoothing.alpha', smoothing.alpha, 0, 1);
  }
  const state = input.priors ?? createPriorState();
  const now = input.now ?? latestFeedback(state);

  const docIds = [...new Set(candidates.map((c) => c.docId))];
  const metas = new Map(docIds.map((d) => [d, metaOf(input.lookup, d)]));
  const asksEarlier = asksForEarlierVersion(input.question, metas.values());

  const base = new Map(docIds.map((d) => [d, documentLambda(state, metas.get(d) as DocumentMeta, now, fb)]));
  const lambdas = new Map(base);
  const smoothedFrom = new Map<string, number>();
  if (smoothing) {
    const cent = centroids(candidates, input.lookup);
    for (const d of docIds) {
      const cd = cent.get(d);
      if (!cd) continue;
      const own = base.get(d) as number;
      const neighbours: number[] = [];
      for (const e of docIds) {
        const ce = cent.get(e);
        if (e === d || !ce) continue;
        if (cosine(cd, ce) >= smoothing.tau) neighbours.push(base.get(e) as number);
      }
      if (neighbours.length === 0) continue;
      // Single hop, from the unsmoothed λ of the neighbours: no propagation along chains.
      const mean = neighbours.reduce((a, b) => a + b, 0) / neighbours.length;
      const lo = Math.min(own, ...neighbours);
      const hi = Math.max(own, ...neighbours);
      lambdas.set(d, clamp(own + smoothing.alpha * (mean - own), lo, hi));
      smoothedFrom.set(d, neighbours.length);
    }
  }

  const relevance = o.normalize === 'minmax' ? minMax(candidates.map((c) => c.score)) : candidates.map((c) => c.score);
  const out = candidates.map((c, i) => {
    const meta = metas.get(c.docId) as DocumentMeta;
    const lambda = lambdas.get(c.docId) as number;
    let statusFactor = 1;
    let statusReason = '';
    if (meta.status === 'superseded' && !asksEarlier) {
      statusFactor = o.supersededFactor;
      statusReason = `, superseded ×${o.supersededFactor}`;
    } else if (meta.status === 'draft') {
      statusFactor = o.draftFactor;
      statusReason = `, draft ×${o.draftFactor}`;
    }
    const rel = relevance[i] as number;
    const final = Number.isFinite(rel) ? rel * lambda * statusFactor : 0;
    return withEntry(
      c,
      {
        stage: 'priors',
        score: final,
        kept: true,
        reason: `${meta.sourceType} λ=${lambda.toFixed(2)}${statusReason}`,
        detail: {
          relevance: rel,
          sourceType: meta.sourceType,
          lambda,
          baseLambda: base.get(c.docId) as number,
          smoothedNeighbours: smoothedFrom.get(c.docId) ?? 0,
          status: meta.status,
          statusFactor,
        },
      },
      { score: final, scores: { ...c.scores, prior: lambda, final } },
    );
  });
  return { candidates: out.sort(byScoreDesc), lambdas, asksEarlier };
}
