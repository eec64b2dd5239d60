/**
 * Which side of a contest a name is on: the winner's or the loser's. "Who was the runner-up?"
 * asks for the loser of a final, and the winner is named beside it in nearly every passage about
 * that final ("Spain defeated the Netherlands", "World Cup 2010 winner - Spain"). Without roles the
 * answerer votes for the name the passages put forward most, which is the winner.
 *
 * The question's role comes from its words: "runner-up", "second", "lost", "loser", "finalist",
 * "silver" ask for the losing side; "won", "winner", "champion", "beat", "defeated", "gold" for the
 * winning one. In a sentence, a role cue gives a side to the nearest value within `ROLE_WINDOW`
 * tokens:
 *   - a role noun or adjective marks the nearer value beside it, on either side ("The
 *     Netherlands. Runner-up.", "winner - Spain", "Spain, the European champions", "losing
 *     finalists the Netherlands");
 *   - a transitive contest verb ("beat", "defeated", "edged") marks the value before it as the
 *     winner and the value after it as the loser; after a passive "by" the other way round ("were
 *     beaten by Spain");
 *   - "lost" / "fell" mark the value before as the loser, and the value after "to" as the winner
 *     ("the Netherlands lost to Spain").
 * A value given both sides in one sentence gets neither. The answerer weighs a value on the asked
 * side as the answer slot and one on the other side by `OPPOSITE_ROLE_WEIGHT`.
 */
import { tokenize, type Token } from '../util/stage';
import type { KeyValue } from '../verify/values';
import { DEFEAT_VERBS, LOSE_NOUNS, LOSE_VERBS, WIN_NOUNS, WIN_VERBS } from '../lexicon/contests';

export type Side = 'win' | 'lose';

/** Most tokens between a cue and the value it marks. */
export const ROLE_WINDOW = 3;

/** Vote weight of a value on the other side than the question asks for (a weak vote, not none). */
export const OPPOSITE_ROLE_WEIGHT = 0.1;

/** Joins "runner" "up" (the tokenizer splits at the hyphen) into one cue word. */
function cueWords(tokens: readonly Token[], text: string): string[] {
  return tokens.map((t, i) => {
    const next = tokens[i + 1];
    if (next && t.lower === 'runner' && next.lower === 'up' && /^[-\s]?$/u.test(text.slice(t.end, next.start))) {
      return 'runner-up';
    }
    if (next && t.lower === 'runners' && next.lower === 'up') return 'runners-up';
    return t.lower;
  });
}

/** "second" names a place only as "second place(d)" or "came/finished/placed second", not "second season". */
function isPlace(words: readonly string[], i: number): boolean {
  if (words[i] !== 'second') return true;
  return /^(?:place|placed)$/u.test(words[i + 1] ?? '') || /^(?:came|finished|placed)$/u.test(words[i - 1] ?? '');
}

/** The side a question asks for, or null when it asks about no contest. */
export function questionSide(question: string): Side | null {
  const words = cueWords(tokenize(question), question);
  if (words.some((w, i) => (LOSE_NOUNS.has(w) && isPlace(words, i)) || LOSE_VERBS.has(w))) return 'lose';
  if (words.some((w) => WIN_NOUNS.has(w) || WIN_VERBS.has(w) || DEFEAT_VERBS.has(w))) return 'win';
  return null;
}

/**
 * First and last index of the tokens that overlap `[value.start, value.end)`; [-1, -1] when none
 * does. Shared with the extractive answer's role weights.
 */
export function tokenSpan(toks: readonly Token[], value: Pick<KeyValue, 'start' | 'end'>): [number, number] {
  let a = -1;
  let b = -1;
  toks.forEach((t, i) => {
    if (t.start < value.end && t.end > value.start) {
      if (a < 0) a = i;
      b = i;
    }
  });
  return [a, b];
}

/**
 * Side of each value in one sentence (null when no cue marks it, or cues disagree).
 * `values` are the sentence's answer candidates with offsets into `text`.
 */
export function sidesOf(text: string, values: readonly KeyValue[]): (Side | null)[] {
  if (values.length === 0) return [];
  const toks = tokenize(text);
  const words = cueWords(toks, text);
  const spans = values.map((v) => tokenSpan(toks, v));
  const marks = values.map(() => new Set<Side>());
  /** The value nearest to cue `p`, before it (`dir` −1) or after it (+1), within the window. */
  const nearest = (p: number, dir: -1 | 1): number => {
    let pick = -1;
    let best = Infinity;
    spans.forEach(([a, b], k) => {
      if (a < 0) return;
      const d = dir < 0 ? p - b : a - p;
      if (d >= 1 && d <= ROLE_WINDOW && d < best) {
        pick = k;
        best = d;
      }
    });
    return pick;
  };
  const mark = (k: number, side: Side): void => {
    if (k >= 0) marks[k]!.add(side);
  };
  words.forEach((w, p) => {
    // A value's own words are no cue ("Runner" in a value "Runner-up" is not the value's role).
    if (spans.some(([a, b]) => p >= a && p <= b)) return;
    const passive = words[p + 1] === 'by';
    if (WIN_NOUNS.has(w) || LOSE_NOUNS.has(w)) {
      const side: Side = WIN_NOUNS.has(w) ? 'win' : 'lose';
      if (!isPlace(words, p)) return;
      const before = nearest(p, -1);
      const after = nearest(p, 1);
      // The nearer one; the one before on a tie ("Netherlands. Runner-up. 11.").
      const db = before >= 0 ? p - spans[before]![1] : Infinity;
      const da = after >= 0 ? spans[after]![0] - p : Infinity;
      mark(db <= da ? before : after, side);
    } else if (DEFEAT_VERBS.has(w)) {
      if (passive) {
        mark(nearest(p + 1, 1), 'win');
        mark(nearest(p, -1), 'lose');
      } else {
        mark(nearest(p, -1), 'win');
        mark(nearest(p, 1), 'lose');
      }
    } else if (LOSE_VERBS.has(w)) {
      mark(nearest(p, -1), 'lose');
      if (words[p + 1] === 'to') mark(nearest(p + 1, 1), 'win');
    } else if (WIN_VERBS.has(w) && !passive && words[p - 1] !== 'to') {
      mark(nearest(p, -1), 'win');
    }
  });
  return marks.map((m) => (m.size === 1 ? ([...m][0] as Side) : null));
}
