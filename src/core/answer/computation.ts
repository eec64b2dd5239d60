/**
 * Questions whose answer is a computation over figures: a ratio, a growth rate, a change, an
 * average, a margin, a turnover — or a judgment of a trend ("Has the company increased its
 * debt?", "Did PP&E grow?"), which compares two figures. No single sentence or cell states such
 * an answer as a rule; without a generator Evident does not compute one, so over long documents
 * it refuses with the passages that hold the inputs instead of quoting one of them as the answer
 * (abstain.ts, reason `computation`). The table-cell answer is not tried for them either
 * (extractive.ts): the cell the question's words name is an input.
 */
import { measuresOf } from '../retrieval/financial-measures';
import { answerTypeOf } from '../verify/values';

const DERIVED =
  /\b(?:ratios?|growth|change[sd]?|average|margins?|turnover|percent(?:age)?|rates?|difference|compound|cagr|per\s+share|defined\s+as)\b|%/iu;

const TREND =
  /\b(?:increas|decreas|grow|grew|improv|declin|rise|rose|fall|fell|shrank|shrink|expand|contract|reduc)\w*/iu;

/** True when the question asks for a derived figure (`DERIVED`). */
export function asksForDerivedFigure(question: string): boolean {
  return DERIVED.test(question);
}

/**
 * Narrower than `DERIVED`: the wording of a calculation, not of any rate or share. "What is the
 * mileage rate?" or "What percentage of staff work remotely?" ask for a figure a sentence may
 * state; "the year-over-year change in operating income" or "the three-year average margin" ask
 * for one that must be computed.
 */
const COMPUTED =
  /\b(?:ratios?|growth(?:\s+rate)?|changes?\s+(?:in|of|from|between)|changed|year[-\s]over[-\s]year|average|margins?|turnover|compound|cagr|difference\s+between|defined\s+as)\b/iu;

/** True when answering needs a computation over figures: a calculation's wording, or a yes/no trend or measure judgment. */
export function asksForComputation(question: string): boolean {
  if (COMPUTED.test(question)) return true;
  if (answerTypeOf(question) !== 'yesno') return false;
  return TREND.test(question) || measuresOf(question).length > 0;
}
