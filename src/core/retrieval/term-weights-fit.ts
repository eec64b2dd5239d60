/**
 * Fits the query-term weight coefficients θ of ./term-weights.ts on training queries.
 *
 * Per query, each candidate's score is the max-normalised weighted BM25 score
 *
 *   s_d = Σ_t c_{d,t} · w(t) / max_d' Σ_t c_{d',t} · w(t),   w(t) = qtf(t) · exp(θ · φ(t)),
 *
 * (c_{d,t}: term t's BM25 contribution to d for one query occurrence), plus an optional fixed
 * `extra_d` (a dense score, when the weights are fitted inside a fusion). The loss is ListNet's
 * top-one cross-entropy (Cao et al. 2007) between softmax(s / T) and the uniform distribution over
 * the relevant candidates, plus ½·l2·|θ|²; minimised by Adam (Kingma & Ba 2015) from θ = 0 for a
 * fixed number of full-batch steps: deterministic, no random state. The gradient is exact,
 * including the max normalisation (the argmax candidate's own derivative).
 */
import { EvidentError } from '../errors';
import { TERM_FEATURES, type TermCoefficients, type TermFeature } from './term-weights';

export interface TermTrainingQuery {
  /** Per distinct query term: its features φ(t) (`termFeatures`). */
  readonly features: readonly Readonly<Record<TermFeature, number>>[];
  /** Per distinct query term: occurrences in the query. */
  readonly qtf: readonly number[];
  /** Per candidate, per term (same order as `features`): BM25 contribution of one occurrence. */
  readonly contributions: readonly (readonly number[])[];
  /** Per candidate: relevant or not. Queries without a relevant candidate are skipped. */
  readonly relevant: readonly boolean[];
  /** Per candidate: a fixed score added after normalisation (e.g. w_dense · cosine). */
  readonly extra?: readonly number[];
}

export interface TermFitOptions {
  /** Softmax temperature T. Default 0.1 (scores are in [0, 1]; T = 1 barely separates them). */
  readonly temperature: number;
  /** L2 penalty on θ. Default 0.01. */
  readonly l2: number;
  /** Adam steps. Default 150 (the loss has flattened by then on SciFact train). */
  readonly iterations: number;
  /** Adam step size. Default 0.05. */
  readonly learningRate: number;
}

export const DEFAULT_TERM_FIT_OPTIONS: Readonly<TermFitOptions> = Object.freeze({
  temperature: 0.1,
  l2: 0.01,
  iterations: 150,
  learningRate: 0.05,
});

const NF = TERM_FEATURES.length;

/** Score of every candidate under θ (max-normalised weighted BM25 + extra). */
export function scoreCandidates(q: TermTrainingQuery, theta: TermCoefficients): number[] {
  const w = q.features.map((f, t) => (q.qtf[t] as number) * Math.exp(dot(theta, f)));
  const raw = q.contributions.map((c) => c.reduce((s, x, t) => s + x * (w[t] as number), 0));
  const max = Math.max(1e-9, ...raw);
  return raw.map((r, d) => r / max + (q.extra?.[d] ?? 0));
}

function dot(theta: TermCoefficients, f: Readonly<Record<TermFeature, number>>): number {
  let z = 0;
  for (const k of TERM_FEATURES) z += theta[k] * f[k];
  return z;
}

function toCoefficients(v: Float64Array): TermCoefficients {
  return Object.freeze(
    Object.fromEntries(TERM_FEATURES.map((k, i) => [k, v[i] as number])) as Record<TermFeature, number>,
  );
}

/** Mean loss and its gradient at θ (in `TERM_FEATURES` order). Exported for gradient checks. */
export function termFitObjective(
  queries: readonly TermTrainingQuery[],
  theta: Float64Array,
  o: Readonly<TermFitOptions> = DEFAULT_TERM_FIT_OPTIONS,
): { loss: number; grad: Float64Array } {
  const grad = new Float64Array(NF);
  let loss = 0;
  let used = 0;
  for (const q of queries) {
    const nRel = q.relevant.filter(Boolean).length;
    const n = q.contributions.length;
    if (nRel === 0 || n === 0) continue;
    used++;
    const nt = q.features.length;
    const phi = q.features.map((f) => TERM_FEATURES.map((k) => f[k]));
    const w = phi.map((p, t) => {
      let z = 0;
      for (let j = 0; j < NF; j++) z += (theta[j] as number) * (p[j] as number);
      return (q.qtf[t] as number) * Math.exp(z);
    });
    const raw = q.contributions.map((c) => {
      let s = 0;
      for (let t = 0; t < nt; t++) s += (c[t] as number) * (w[t] as number);
      return s;
    });
    let k = 0;
    for (let d = 1; d < n; d++) if ((raw[d] as number) > (raw[k] as number)) k = d;
    const max = Math.max(1e-9, raw[k] as number);
    const s = raw.map((r, d) => (r / max + (q.extra?.[d] ?? 0)) / o.temperature);
    const top = Math.max(...s);
    const e = s.map((x) => Math.exp(x - top));
    const z = e.reduce((a, b) => a + b, 0);
    // dL/ds_d = (p_d − y_d) / T, y uniform over the relevant candidates.
    const gs = e.map((x, d) => (x / z - (q.relevant[d] ? 1 / nRel : 0)) / o.temperature);
    q.relevant.forEach((r, d) => {
      if (r) loss -= (Math.log(Math.max(1e-300, (e[d] as number) / z)) as number) / nRel;
    });
    // ∂raw_d/∂θ_j = Σ_t c_{d,t} w_t φ_{t,j}; ∂(raw_d / raw_k) = ∂raw_d / max − raw_d ∂raw_k / max².
    const dRaw = (d: number): Float64Array => {
      const g = new Float64Array(NF);
      const c = q.contributions[d] as readonly number[];
      for (let t = 0; t < nt; t++) {
        const a = (c[t] as number) * (w[t] as number);
        if (a === 0) continue;
        const p = phi[t] as number[];
        for (let j = 0; j < NF; j++) g[j] = (g[j] as number) + a * (p[j] as number);
      }
      return g;
    };
    let gsRaw = 0;
    for (let d = 0; d < n; d++) {
      const g = gs[d] as number;
      gsRaw += g * (raw[d] as number);
      const dr = dRaw(d);
      for (let j = 0; j < NF; j++) grad[j] = (grad[j] as number) + (g * (dr[j] as number)) / max;
    }
    const drk = dRaw(k);
    for (let j = 0; j < NF; j++) grad[j] = (grad[j] as number) - (gsRaw * (drk[j] as number)) / (max * max);
  }
  if (used === 0) throw new EvidentError('invalid_input', 'fitTermWeights: no query has a relevant candidate.');
  for (let j = 0; j < NF; j++) grad[j] = (grad[j] as number) / used + o.l2 * (theta[j] as number);
  let reg = 0;
  for (let j = 0; j < NF; j++) reg += (theta[j] as number) ** 2;
  return { loss: loss / used + 0.5 * o.l2 * reg, grad };
}

export interface TermFitResult {
  readonly coefficients: TermCoefficients;
  /** Training loss before the first and after the last step. */
  readonly lossBefore: number;
  readonly lossAfter: number;
}

/** Fits θ by Adam on the training queries (see the file comment). */
export function fitTermWeights(
  queries: readonly TermTrainingQuery[],
  options: Partial<TermFitOptions> = {},
): TermFitResult {
  const o = { ...DEFAULT_TERM_FIT_OPTIONS, ...options };
  if (!(o.temperature > 0) || !(o.l2 >= 0) || !(o.learningRate > 0) || !Number.isInteger(o.iterations)) {
    throw new EvidentError(
      'invalid_option',
      'fitTermWeights: temperature and learningRate > 0, l2 ≥ 0, integer iterations.',
    );
  }
  for (const q of queries) {
    if (q.qtf.length !== q.features.length || q.relevant.length !== q.contributions.length)
      throw new EvidentError(
        'invalid_input',
        'fitTermWeights: features/qtf and contributions/relevant lengths differ.',
      );
  }
  const theta = new Float64Array(NF);
  const m = new Float64Array(NF);
  const v = new Float64Array(NF);
  const b1 = 0.9;
  const b2 = 0.999;
  const lossBefore = termFitObjective(queries, theta, o).loss;
  for (let step = 1; step <= o.iterations; step++) {
    const { grad } = termFitObjective(queries, theta, o);
    for (let j = 0; j < NF; j++) {
      const g = grad[j] as number;
      m[j] = b1 * (m[j] as number) + (1 - b1) * g;
      v[j] = b2 * (v[j] as number) + (1 - b2) * g * g;
      const mh = (m[j] as number) / (1 - b1 ** step);
      const vh = (v[j] as number) / (1 - b2 ** step);
      theta[j] = (theta[j] as number) - (o.learningRate * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  return {
    coefficients: toCoefficients(theta),
    lossBefore,
    lossAfter: termFitObjective(queries, theta, o).loss,
  };
}
