/** The score chart's caption: how the cutoff fell (cutoff.ts rules). */
const RULE_LABEL: Readonly<Record<string, string>> = Object.freeze({
  'z-gap': 'elbow: the first gap more than 1 standard deviation above the mean gap',
  'second-diff': 'elbow: the largest change of slope',
  degenerate: 'too few distinct scores: the upper bound',
});

/** The caption: the elbow rule, or, when a bound moved the cut, where the elbow fell and which bound kept what. */
export function ruleLabel(rule: string, position: number, elbow: number): string {
  if (rule !== 'bound') return RULE_LABEL[rule] ?? rule;
  return position > elbow
    ? `the elbow fell after ${elbow}; the lower bound keeps ${position}`
    : `the elbow fell after ${elbow}; the upper bound keeps ${position}`;
}
