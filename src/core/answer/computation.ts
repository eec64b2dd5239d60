/**
 * Questions whose answer is a computation over figures: a ratio, a growth rate, a change, an
 * average, a margin, a turnover — or a judgment of a trend ("Has the company increased its
 * debt?", "Did PP&E grow?"), which compares two figures. No single sentence or cell states such
 * an answer as a rule: compute.ts computes it from cited cells with the work shown, and when it
 * cannot find every input unambiguously the answer refuses with the passages that hold the inputs
 * instead of quoting one of them as the answer (abstain.ts, reason `computation`). The table-cell answer is not tried for them either
 * (extractive.ts): the cell the question's words name is an input.
 */
import { measuresOf } from '../retrieval/financial-measures';
import { answerTypeOf } from '../verify/values';
import { COMPUTED_CUES, DERIVED_CUES, TREND_CUES } from '../lexicon/computation';
import { DESCRIPTION_FORM } from '../lexicon/questions';
import { asks, mainClause } from '../text/clauses';

/** True when the question asks for a derived figure (`DERIVED_CUES`). */
export function asksForDerivedFigure(question: string): boolean {
  return DERIVED_CUES.test(question);
}

/*
 * `COMPUTED_CUES` is narrower than `DERIVED_CUES`: the wording of a calculation, not of any rate or
 * share. "What is the mileage rate?" or "What percentage of staff work remotely?" ask for a figure
 * a sentence may state; "the year-over-year change in operating income", "the difference in net
 * sales between 2018 and 2019" or "the three-year average margin" ask for one that must be computed.
 */
/**
 * True when answering needs a computation over figures: a calculation's wording, or a yes/no trend
 * or measure judgment — unless the question asks by its form for a description. Only a question or
 * a request asks for one: a statement to check ("PGE2 promotes tumor growth by …") is answered by
 * the evidence about it, whatever figure words it holds.
 */
export function asksForComputation(question: string): boolean {
  if (!asks(question)) return false;
  // A question asking by its form what a measure means, why it moved or what drove it asks for a
  // description: the calculation words are its subject, and a sentence answers it.
  if (DESCRIPTION_FORM.test(mainClause(question).toLowerCase())) return false;
  if (COMPUTED_CUES.test(question)) return true;
  if (answerTypeOf(question) !== 'yesno') return false;
  return TREND_CUES.test(question) || measuresOf(question).length > 0;
}
