/**
 * Stage 6 — context expansion (METEORA; RAG guide): optionally add the ±1 neighbouring chunks of
 * each kept chunk, or its parent section (the chunks that share its heading trail), once.
 *
 * Rules: only candidates that were not themselves added by expansion trigger it (expansion never
 * cascades); each added candidate records the child that triggered it (`detail.expandedFrom`) and
 * its relation ('prev', 'next', 'section'). An added chunk scores `trigger score × decay`: it is
 * context for the trigger, so it should rank just below it, never above. A chunk that was in the
 * pool but dropped earlier (e.g. below the elbow) is revived — its own trace continues — and
 * scores the higher of its own score and the decayed trigger score.
 *
 * Off by default ('none'): expansion spends token budget, and on short chunks or abstracts
 * (SciFact) it adds nothing. Turn it on for long documents cut into small chunks.
 */
import type { Candidate, Chunk } from '../types';
import { assertKnownOptions } from '../errors';
import type { EvidenceLookup } from './common';
import { byScoreDesc, checkInt, checkOneOf, checkRange, sectionKey, withEntry } from './common';

export const EXPAND_MODES = ['none', 'neighbours', 'section'] as const;
export type ExpandMode = (typeof EXPAND_MODES)[number];

export interface ExpandOptions {
  readonly mode: ExpandMode;
  /** Neighbours on each side in 'neighbours' mode (METEORA/RAG guide: ±1). */
  readonly radius: number;
  /** Most chunks of one section in 'section' mode, the trigger included, nearest first. Evident default. */
  readonly maxSectionChunks: number;
  /** Score of an added chunk relative to its trigger. Evident default: below the trigger, above most of the tail. */
  readonly decay: number;
}

export const DEFAULT_EXPAND_OPTIONS: ExpandOptions = Object.freeze({
  mode: 'none',
  radius: 1,
  maxSectionChunks: 6,
  decay: 0.7,
});

export interface ExpandInput {
  readonly lookup: EvidenceLookup;
  /** Candidates seen earlier (e.g. dropped by the cutoff), by id: revived instead of duplicated. */
  readonly seen?: ReadonlyMap<string, Candidate>;
}

export interface ExpandResult {
  /** The kept candidates plus the added ones, best first. */
  readonly candidates: readonly Candidate[];
  /** Ids of the added (or revived) candidates. */
  readonly added: readonly string[];
}

function isExpanded(c: Candidate): boolean {
  return c.trace.some((e) => e.stage === 'expand' && e.detail?.expandedFrom != null);
}

function walk(
  lookup: EvidenceLookup,
  from: Chunk,
  dir: 'prevId' | 'nextId',
  steps: number,
  sameSection: boolean,
): Chunk[] {
  const out: Chunk[] = [];
  const key = sectionKey(from.docId, from.headings);
  let cur: Chunk | undefined = from;
  for (let i = 0; i < steps; i++) {
    const id: string | null = cur[dir];
    if (id == null) break;
    const next = lookup.chunks.get(id);
    if (!next || next.docId !== from.docId) break;
    if (sameSection && sectionKey(next.docId, next.headings) !== key) break;
    out.push(next);
    cur = next;
  }
  return out;
}

/** Adds neighbours or parent-section chunks of the kept candidates, once. */
export function expandCandidates(
  kept: readonly Candidate[],
  input: ExpandInput,
  options: Partial<ExpandOptions> = {},
): ExpandResult {
  assertKnownOptions(options, DEFAULT_EXPAND_OPTIONS, 'expand');
  const o: ExpandOptions = { ...DEFAULT_EXPAND_OPTIONS, ...options };
  checkOneOf('expand', 'mode', o.mode, EXPAND_MODES);
  checkInt('expand', 'radius', o.radius, 1, 10);
  checkInt('expand', 'maxSectionChunks', o.maxSectionChunks, 1, 100);
  checkRange('expand', 'decay', o.decay, 0, 1);

  const sorted = [...kept].sort(byScoreDesc);
  if (o.mode === 'none') {
    return {
      added: [],
      candidates: sorted.map((c) =>
        withEntry(c, { stage: 'expand', score: c.score, kept: true, reason: 'expansion off' }),
      ),
    };
  }
  const present = new Set(sorted.map((c) => c.id));
  const added = new Map<string, Candidate>();
  const triggered = new Map<string, number>();
  for (const trigger of sorted) {
    const chunk = input.lookup.chunks.get(trigger.id);
    if (!chunk || isExpanded(trigger)) continue;
    const around: { chunk: Chunk; relation: string }[] = [];
    if (o.mode === 'neighbours') {
      for (const c of walk(input.lookup, chunk, 'prevId', o.radius, false)) around.push({ chunk: c, relation: 'prev' });
      for (const c of walk(input.lookup, chunk, 'nextId', o.radius, false)) around.push({ chunk: c, relation: 'next' });
    } else {
      const before = walk(input.lookup, chunk, 'prevId', o.maxSectionChunks - 1, true);
      const after = walk(input.lookup, chunk, 'nextId', o.maxSectionChunks - 1, true);
      // Nearest first, alternating, until the section bound.
      for (let i = 0; around.length < o.maxSectionChunks - 1 && (i < before.length || i < after.length); i++) {
        const b = before[i];
        const a = after[i];
        if (b) around.push({ chunk: b, relation: 'section' });
        if (a && around.length < o.maxSectionChunks - 1) around.push({ chunk: a, relation: 'section' });
      }
    }
    let count = 0;
    for (const { chunk: n, relation } of around) {
      if (present.has(n.id) || added.has(n.id)) continue;
      const decayed = trigger.score * o.decay;
      const earlier = input.seen?.get(n.id);
      const base: Candidate = earlier ?? { id: n.id, docId: n.docId, score: decayed, scores: {}, ranks: {}, trace: [] };
      const score = earlier && Number.isFinite(earlier.score) ? Math.max(earlier.score, decayed) : decayed;
      added.set(
        n.id,
        withEntry(
          base,
          {
            stage: 'expand',
            score,
            kept: true,
            reason: `${relation === 'section' ? 'same section as' : relation === 'prev' ? 'precedes' : 'follows'} ${trigger.id}`,
            detail: { expandedFrom: trigger.id, relation, revived: earlier !== undefined },
          },
          { score, scores: { ...base.scores, final: score } },
        ),
      );
      count++;
    }
    triggered.set(trigger.id, count);
  }
  const out = sorted.map((c) =>
    withEntry(c, { stage: 'expand', score: c.score, kept: true, detail: { added: triggered.get(c.id) ?? 0 } }),
  );
  return { candidates: [...out, ...added.values()].sort(byScoreDesc), added: [...added.keys()] };
}
