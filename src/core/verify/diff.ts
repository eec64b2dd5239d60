/**
 * Word-level diff of two texts by longest common subsequence, the tool behind the counterfactual
 * check: two near-identical passages that differ in one span (RGB's edited passages, an amended
 * clause, a copied page with one figure changed) diff into a single hunk, and the hunk is what they
 * disagree on.
 *
 * Tokens are compared folded (lower case, diacritics stripped). The DP table is (n+1)×(m+1) 16-bit
 * cells; callers cap the token counts (`MAX_DIFF_TOKENS`) so a pair never costs more than ~1 MB.
 */
import type { Token } from '../util/stage';
import { tokenize } from '../util/stage';

/** Longest texts (in word tokens) that are diffed; longer ones are compared sentence by sentence. */
export const MAX_DIFF_TOKENS = 600;

/** A differing region: tokens [aStart, aEnd) of A were replaced by tokens [bStart, bEnd) of B (either may be empty). */
export interface Hunk {
  readonly aStart: number;
  readonly aEnd: number;
  readonly bStart: number;
  readonly bEnd: number;
}

export interface WordDiff {
  readonly a: readonly Token[];
  readonly b: readonly Token[];
  /** Tokens the two texts share, in order (the LCS length). */
  readonly common: number;
  /** 2·common / (|a| + |b|): 1 for equal texts, 0 for disjoint ones (Ratcliff–Obershelp style). */
  readonly ratio: number;
  readonly hunks: readonly Hunk[];
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Folded comparison key of a token. */
export function foldToken(t: Token): string {
  // ASCII is its own NFKD form and has no combining marks.
  if (isAscii(t.lower)) return t.lower;
  return t.lower.normalize('NFKD').replace(/\p{M}+/gu, '');
}

/** Diffs two token lists (as `tokenize` cuts them). */
export function diffTokens(a: readonly Token[], b: readonly Token[]): WordDiff {
  const n = Math.min(a.length, MAX_DIFF_TOKENS);
  const m = Math.min(b.length, MAX_DIFF_TOKENS);
  const { common, ratio, hunks } = diffKeys(a.slice(0, n).map(foldToken), b.slice(0, m).map(foldToken));
  return { a: a.slice(0, n), b: b.slice(0, m), common, ratio, hunks };
}

/** Diffs two sequences of comparison keys (at most `MAX_DIFF_TOKENS` each are read). */
export function diffKeys(
  keysA: readonly string[],
  keysB: readonly string[],
): { common: number; ratio: number; hunks: Hunk[] } {
  const n = Math.min(keysA.length, MAX_DIFF_TOKENS);
  const m = Math.min(keysB.length, MAX_DIFF_TOKENS);
  const ka = keysA;
  const kb = keysB;
  // L[i][j] = LCS of a[i..] and b[j..], filled backwards so the forward walk is greedy.
  const w = m + 1;
  const L = new Uint16Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      L[i * w + j] =
        ka[i] === kb[j]
          ? (L[(i + 1) * w + j + 1] as number) + 1
          : Math.max(L[(i + 1) * w + j] as number, L[i * w + j + 1] as number);
    }
  }
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: { aStart: number; bStart: number } | null = null;
  const close = (): void => {
    if (open) hunks.push({ aStart: open.aStart, aEnd: i, bStart: open.bStart, bEnd: j });
    open = null;
  };
  while (i < n || j < m) {
    if (i < n && j < m && ka[i] === kb[j]) {
      close();
      i++;
      j++;
      continue;
    }
    open ??= { aStart: i, bStart: j };
    if (j >= m || (i < n && (L[(i + 1) * w + j] as number) >= (L[i * w + j + 1] as number))) i++;
    else j++;
  }
  close();
  const common = L[0] ?? 0;
  const total = n + m;
  return { common, ratio: total === 0 ? 1 : (2 * common) / total, hunks };
}

/** Diffs two texts word by word. */
export function diffWords(a: string, b: string): WordDiff {
  return diffTokens(tokenize(a), tokenize(b));
}
