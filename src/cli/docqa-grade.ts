/**
 * Grading helpers of the document-QA benchmark (`docqa.ts`). Written apart from the answerer on
 * purpose: the benchmark judges the app's answers, so it must not reuse the app's own checks.
 */

/** Numbers of a text, signs and thousands separators removed ("(1,577)" → 1577, "$303 million" → 303). */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\d[\d,]*(?:\.\d+)?|\.\d+/g)) {
    const raw = m[0].replace(/,(?=\d{3}(?:\D|$))/g, '').replace(/,/g, '');
    const n = Number(raw);
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

const isYear = (n: number): boolean => Number.isInteger(n) && n >= 1900 && n <= 2100;

/** The figures a gold answer states (years left out: they name the period, not the value). */
export function figuresOf(answer: string): number[] {
  return numbersIn(answer).filter((n) => !isYear(n) && n !== 0);
}

/**
 * True when `text` states `figure`: the same number within 0.5 %, or the same at a scale of
 * 1,000 (a statement in thousands, an answer in millions).
 */
export function statesFigure(text: string, figure: number): boolean {
  const close = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(Math.abs(b) * 0.005, 1e-9);
  return numbersIn(text).some(
    (x) => !isYear(x) && (close(x, figure) || close(x * 1000, figure) || close(x, figure * 1000)),
  );
}

const FURNITURE = /^(?:continued|\(continued\)|table of contents|contents|index|note|notes|page|total|none|n\/a)$/i;

/**
 * Why a released answer is not an answer, or null: empty; fewer than three words and no figure;
 * a page-furniture word; a heading or label (a short line in title case with no figure and no
 * sentence end, such as "Consolidated Statement of Income" or "Additional Information").
 */
export function releasedAnswerProblem(answer: string): string | null {
  const text = answer
    .replace(/\[S\d+\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return 'empty';
  const bare = text.replace(/[.:;,\s]+$/, '');
  if (FURNITURE.test(bare)) return 'page furniture';
  const words = bare.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w));
  const figure = /\d/.test(bare);
  if (words.length < 3 && !figure) return 'fewer than three words and no figure';
  const capitalised = words.filter(
    (w) => /^[\p{Lu}(]/u.test(w) || /^(?:of|and|the|for|in|to|on|a|an|or|by|&)$/.test(w),
  );
  if (
    !figure &&
    words.length <= 8 &&
    !/[.!?]$/.test(text.replace(/\[S\d+\]/g, '').trim()) &&
    capitalised.length === words.length
  ) {
    return 'a heading or label';
  }
  return null;
}
