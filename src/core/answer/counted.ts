/**
 * What a "how many" question counts. "How many blocks do the engineers recommend replacing?"
 * asks for a count of blocks; the passage that answers it ("replacing forty blocks") also says
 * that the blocks shifted by "twelve centimetres", that the work takes "nine weeks" and costs
 * "three hundred thousand euros". Those are numbers of other things: without this they vote
 * beside the count and thin its share of the votes.
 *
 * The counted terms are the stems of the (at most `COUNTED_WORDS`) content words right after
 * "how many" ("how many Republican candidates" → republican, candid). A number in a sentence fits
 * the count when a counted term follows it within `COUNT_WINDOW` tokens ("five Republican
 * candidates", "40 gold medals"); it counts something else when its own unit names another thing
 * ("nine weeks", "€300,000") or a content word other than a counted one follows it directly
 * ("twelve centimetres"); otherwise ("40 were killed", "forty of the blocks") it may be the count.
 */
import { tokenize } from '../util/stage';
import { isStopword, termOf } from '../select/rationales';
import type { KeyValue } from '../verify/values';

/** Content words after "how many" that name what is counted. */
export const COUNTED_WORDS = 2;
/** Most tokens from a number to the counted word ("40 gold medals": 2). */
export const COUNT_WINDOW = 3;
/** Vote weight of a number that counts something else than the question does. */
export const OTHER_COUNT_WEIGHT = 0.3;

/** Stems of what a "how many" question counts; empty for any other question. */
export function countedTerms(question: string): ReadonlySet<string> {
  const toks = tokenize(question);
  const at = toks.findIndex((t, i) => t.lower === 'how' && toks[i + 1]?.lower === 'many');
  const out = new Set<string>();
  if (at < 0) return out;
  for (const t of toks.slice(at + 2)) {
    if (isStopword(t.lower) || !/^\p{L}/u.test(t.raw) || out.size >= COUNTED_WORDS) break;
    out.add(termOf(t.raw));
  }
  return out;
}

/** Unit keys of values.ts that are things a count can be of (a count of people is a count). */
const COUNT_UNITS: ReadonlySet<string> = new Set(['people', 'medal']);

/**
 * How well a number value of `text` fits the count the question asks for: 1 when it may be that
 * count, `OTHER_COUNT_WEIGHT` when it counts or measures something else (see the module note).
 * 1 for every value when nothing is counted or the value is no number.
 */
export function countFit(text: string, value: KeyValue, counted: ReadonlySet<string>): number {
  if (counted.size === 0 || value.kind !== 'number') return 1;
  const after = tokenize(text.slice(value.start)).filter((t) => t.start >= value.end - value.start);
  const within = after.slice(0, COUNT_WINDOW).map((t) => termOf(t.raw));
  if (within.some((t) => counted.has(t))) return 1;
  if (value.raw.split(/\s+/u).some((w) => counted.has(termOf(w)))) return 1;
  const unit = /[a-z%]+$/u.exec(value.key)?.[0];
  if (unit !== undefined && !COUNT_UNITS.has(unit)) return OTHER_COUNT_WEIGHT;
  const next = after[0];
  if (next && /^\p{L}/u.test(next.raw) && !isStopword(next.lower)) return OTHER_COUNT_WEIGHT;
  return 1;
}
