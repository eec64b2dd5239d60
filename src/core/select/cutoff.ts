/**
 * Stage 5 — the elbow cutoff (METEORA), which replaces a fixed top-k.
 *
 * Sort by score (desc); gaps d_i = s_i − s_{i+1}; cut after the first gap whose z-score over all
 * gaps exceeds 1.0 (METEORA's threshold). When no gap stands out, cut at the point of maximum
 * absolute second difference |s_{i−1} − 2s_i + s_{i+1}|: a positive value is a knee (big drop,
 * then flat) and the cut goes before the point; a negative value is a shoulder (flat, then big
 * drop) and the cut goes after it — either way the cut falls on the larger adjacent gap.
 * The result is clamped to [minKeep, maxKeep] ('bound' when the clamp moved it).
 *
 * Degenerate curves — fewer than three candidates, or all gaps equal (all scores equal, or evenly
 * spaced) — have no elbow: the z-score is undefined or says nothing. Then everything is kept up to
 * maxKeep ('degenerate'): no evidence for a cut is not evidence against the candidates, and the
 * later stages (dedup, MMR, token budget) still trim.
 *
 * Candidates whose score is not a finite number cannot be placed on the curve and are dropped.
 *
 * Rationale cover (`coverFloor`, METEORA pairs every rationale with its evidence): when the
 * caller passes which rationales each candidate covers, a rationale that no kept candidate
 * covers gets its best-scored covering candidate back if that score is at least `coverFloor` ×
 * the top score, within `maxKeep` (rule 'cover' in its trace). A two-part question whose second
 * part sits just below a steep first gap keeps both parts. `coverFloor: null`, or no cover
 * map, is METEORA's rule alone.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import { byScoreDesc, checkInt, checkRange, withEntry } from './common';

/**
 * Default `coverFloor`: a rationale's best candidate comes back when it scores ≥ 0.8 of the top.
 * Our choice, checked on SciFact TRAIN (docs/decisions/2026-12-01-selection-packing.md) and on the demo question.
 */
export const COVER_FLOOR = 0.8;
/** Default `coverRanks`: only the first 3 of the curve can come back (our choice, checked likewise). */
export const COVER_RANKS = 3;

export const CUTOFF_RULES = ['z-gap', 'second-diff', 'bound', 'degenerate'] as const;
/** Rule of a candidate kept below the cut because it covers an otherwise uncovered rationale. */
export const COVER_RULE = 'cover';
export type CutoffRule = (typeof CUTOFF_RULES)[number];

export interface CutoffOptions {
  /** A gap is an elbow when its z-score is above this (METEORA: 1.0). */
  readonly zThreshold: number;
  /** Keep at least this many (when there are that many). */
  readonly minKeep: number;
  /** Keep at most this many: the upper end of the cascade's "selection (5–12)" (RAG guide). */
  readonly maxKeep: number;
  /**
   * Reinstate the best candidate of an uncovered rationale when its score is ≥ this fraction of
   * the top score (needs `CutoffContext.covers`); null: METEORA's rule alone.
   */
  readonly coverFloor: number | null;
  /** …and when it ranks within the first this many of the curve. */
  readonly coverRanks: number;
  /** …and, when true, only from a document the cut already keeps (no new document for cover). */
  readonly coverSameDocument: boolean;
}

export const DEFAULT_CUTOFF_OPTIONS: CutoffOptions = Object.freeze({
  zThreshold: 1.0,
  minKeep: 1,
  maxKeep: 12,
  coverFloor: COVER_FLOOR,
  coverRanks: COVER_RANKS,
  coverSameDocument: true,
});

/** What the cutoff may know besides scores. */
export interface CutoffContext {
  /** Per candidate id: the rationale ids it covers (`RationalePairing.covers`). */
  readonly covers?: ReadonlyMap<string, readonly string[]>;
}

export interface CutoffResult {
  /** Kept candidates, best first. */
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  /** Sorted scores (desc) of the finite-scored candidates: the curve a UI draws. */
  readonly curve: readonly number[];
  /** How many were kept: the cut falls after `position` items. */
  readonly position: number;
  /** The unbounded elbow the rule found (equal to `position` unless the rule is 'bound'). */
  readonly elbow: number;
  readonly rule: CutoffRule;
}

/** Where the elbow falls on a sorted (desc) curve, before bounds: items to keep and the rule. */
export function findElbow(
  curve: readonly number[],
  zThreshold = DEFAULT_CUTOFF_OPTIONS.zThreshold,
): { elbow: number; rule: CutoffRule } {
  const n = curve.length;
  if (n < 3) return { elbow: n, rule: 'degenerate' };
  const gaps: number[] = [];
  for (let i = 0; i + 1 < n; i++) gaps.push((curve[i] as number) - (curve[i + 1] as number));
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const variance = gaps.reduce((a, d) => a + (d - mean) * (d - mean), 0) / gaps.length;
  const std = Math.sqrt(variance);
  // Equal gaps up to rounding: relative to the curve's own scale, so tiny score ranges still work.
  const scale = Math.max(Math.abs(curve[0] as number), Math.abs(curve[n - 1] as number), Number.MIN_VALUE);
  if (!(std > scale * 1e-12)) return { elbow: n, rule: 'degenerate' };
  for (let i = 0; i < gaps.length; i++) {
    if (((gaps[i] as number) - mean) / std > zThreshold) return { elbow: i + 1, rule: 'z-gap' };
  }
  let bestI = 1;
  let bestAbs = -1;
  for (let i = 1; i + 1 < n; i++) {
    const c = (gaps[i - 1] as number) - (gaps[i] as number);
    if (Math.abs(c) > bestAbs) {
      bestAbs = Math.abs(c);
      bestI = i;
    }
  }
  const c = (gaps[bestI - 1] as number) - (gaps[bestI] as number);
  return { elbow: c >= 0 ? bestI : bestI + 1, rule: 'second-diff' };
}

/** Keeps the candidates above the elbow of the score curve, within [minKeep, maxKeep] (plus rationale cover). */
export function cutoffCandidates(
  candidates: readonly Candidate[],
  options: Partial<CutoffOptions> = {},
  context: CutoffContext = {},
): CutoffResult {
  assertKnownOptions(options, DEFAULT_CUTOFF_OPTIONS, 'cutoff');
  const o: CutoffOptions = { ...DEFAULT_CUTOFF_OPTIONS, ...options };
  checkRange('cutoff', 'zThreshold', o.zThreshold, -10, 10);
  checkInt('cutoff', 'minKeep', o.minKeep, 0, 10_000);
  checkInt('cutoff', 'maxKeep', o.maxKeep, Math.max(1, o.minKeep), 10_000);
  if (o.coverFloor !== null) checkRange('cutoff', 'coverFloor', o.coverFloor, 0, 1);
  checkInt('cutoff', 'coverRanks', o.coverRanks, 1, 10_000);

  const valid = candidates.filter((c) => Number.isFinite(c.score)).sort(byScoreDesc);
  const invalid = candidates.filter((c) => !Number.isFinite(c.score));
  const curve = valid.map((c) => c.score);
  const { elbow, rule: found } = findElbow(curve, o.zThreshold);
  const position = Math.min(valid.length, Math.max(o.minKeep, Math.min(o.maxKeep, elbow)));
  const rule: CutoffRule = found !== 'degenerate' && position !== elbow ? 'bound' : found;

  const detail = { position, elbow, rule };
  const rescued = rescueUncovered(valid, position, o, context);
  const kept = valid
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => i < position || rescued.has(i))
    .map(({ c, i }) =>
      withEntry(c, {
        stage: 'cutoff',
        score: c.score,
        kept: true,
        ...(i >= position ? { reason: `kept below the cut: covers rationale ${rescued.get(i) as string}` } : {}),
        detail: { ...detail, rank: i + 1, ...(i >= position ? { rule: COVER_RULE } : {}) },
      }),
    );
  const dropped = [
    ...valid
      .map((c, i) => ({ c, i }))
      .filter(({ i }) => i >= position && !rescued.has(i))
      .map(({ c, i }) =>
        withEntry(c, {
          stage: 'cutoff',
          score: c.score,
          kept: false,
          reason: `below the elbow: rank ${i + 1} > cut ${position} (${rule})`,
          detail: { ...detail, rank: i + 1 },
        }),
      ),
    ...invalid.map((c) =>
      withEntry(c, { stage: 'cutoff', kept: false, reason: 'score is not a finite number', detail }),
    ),
  ];
  return { kept, dropped, curve, position, elbow, rule };
}

/**
 * Ranks below the cut (in `valid`, best first) to keep for rationale cover: per rationale that no
 * candidate above the cut covers, its best covering candidate when its score ≥ coverFloor × top;
 * at most `maxKeep − position` of them, best first. Rank → the rationale it covers.
 */
function rescueUncovered(
  valid: readonly Candidate[],
  position: number,
  o: CutoffOptions,
  context: CutoffContext,
): Map<number, string> {
  const rescued = new Map<number, string>();
  const covers = context.covers;
  if (o.coverFloor === null || !covers || position === 0 || position >= valid.length) return rescued;
  const covered = new Set<string>();
  const keptDocs = new Set<string>();
  for (const c of valid.slice(0, position)) {
    keptDocs.add(c.docId);
    for (const r of covers.get(c.id) ?? []) covered.add(r);
  }
  const floor = o.coverFloor * Math.max(0, (valid[0] as Candidate).score);
  const end = Math.min(valid.length, o.coverRanks);
  for (let i = position; i < end && position + rescued.size < o.maxKeep; i++) {
    const c = valid[i] as Candidate;
    if (c.score < floor) break;
    if (o.coverSameDocument && !keptDocs.has(c.docId)) continue;
    const fresh = (covers.get(c.id) ?? []).filter((r) => !covered.has(r));
    if (fresh.length === 0) continue;
    rescued.set(i, fresh[0] as string);
    for (const r of covers.get(c.id) ?? []) covered.add(r);
  }
  return rescued;
}
