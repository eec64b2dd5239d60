/**
 * Fits the abstention model (src/core/answer/abstain.ts) on training data only: RGB ids 0–49, both
 * threat models, three corpora per question (with edited passages, clean, negatives only). Ids
 * 50–99 are the report split and are never read here.
 *
 *   npx tsx src/cli/fit-abstain.ts --dataset ../shared/datasets/rgb-counterfactual [--write]
 *
 * Examples are the questions the rules in `decideAbstention` leave to the model (an answer was
 * made, no conflict, no missing premise); the label is whether that answer states the true answer.
 * Model: logistic regression on standardised features, batch gradient descent with L2 penalty
 * (our choice: 0.01) until the loss changes by < 1e-9, the weights of monotone features projected
 * onto ≥ 0 after every step. Threshold: the probability cut in {0.05, 0.10, …, 0.95} that
 * maximises correct answers − `WRONG_COST` × wrong answers on the same training examples (`--cost`
 * overrides it).
 * `--write` rewrites the block between BEGIN FITTED and END FITTED in abstain.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { EvidentError } from '../core/errors';
import {
  ABSTENTION_FEATURES,
  MONOTONE_FEATURES,
  featureVector,
  pCorrect,
  type AbstentionFeature,
  type AbstentionModel,
  type AbstentionSignals,
} from '../core/answer/abstain';
import { runRgb, THREATS, type RgbCase } from './rgb';

export interface Example {
  readonly x: Record<AbstentionFeature, number>;
  readonly y: 0 | 1;
  readonly signals: AbstentionSignals;
}

/** The model's examples from RGB cases run without abstention. */
export function examplesOf(cases: readonly RgbCase[]): Example[] {
  return cases
    .filter((c) => c.answerKind === 'answer' && c.signals !== null && c.signals.missingEntities.length === 0)
    .map((c) => ({ x: featureVector(c.signals!), y: c.answeredCorrectly ? 1 : 0, signals: c.signals! }));
}

/**
 * L2-regularised logistic regression by batch gradient descent on standardised features; the
 * weights of `MONOTONE_FEATURES` are projected onto ≥ 0 after every step.
 */
export function fitLogistic(examples: readonly Example[], l2 = 0.01, rate = 0.5, maxIter = 20_000): AbstentionModel {
  if (examples.length === 0) throw new EvidentError('invalid_input', 'fit-abstain: no training examples.');
  const fs = ABSTENTION_FEATURES;
  const mean = {} as Record<AbstentionFeature, number>;
  const sd = {} as Record<AbstentionFeature, number>;
  // A feature the examples do not all carry as a finite number is left out (weight 0).
  const usable = new Set(fs.filter((f) => examples.every((e) => Number.isFinite(e.x[f]))));
  for (const f of fs) {
    if (!usable.has(f)) {
      mean[f] = 0;
      sd[f] = 1;
      continue;
    }
    const xs = examples.map((e) => e.x[f]);
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
    mean[f] = m;
    sd[f] = Math.sqrt(v) > 1e-9 ? Math.sqrt(v) : 1;
  }
  const z = examples.map((e) => fs.map((f) => (usable.has(f) ? (e.x[f] - mean[f]) / sd[f] : 0)));
  const w = fs.map(() => 0);
  let b = 0;
  let prev = Infinity;
  for (let it = 0; it < maxIter; it++) {
    const gw = fs.map(() => 0);
    let gb = 0;
    let loss = 0;
    examples.forEach((e, i) => {
      const row = z[i] as number[];
      const s = b + row.reduce((a, x, k) => a + x * (w[k] as number), 0);
      const p = 1 / (1 + Math.exp(-s));
      const err = p - e.y;
      row.forEach((x, k) => {
        gw[k] = (gw[k] as number) + err * x;
      });
      gb += err;
      loss -= e.y * Math.log(Math.max(p, 1e-12)) + (1 - e.y) * Math.log(Math.max(1 - p, 1e-12));
    });
    const n = examples.length;
    loss = loss / n + (l2 / 2) * w.reduce((a, x) => a + x * x, 0);
    for (let k = 0; k < w.length; k++) {
      const next = (w[k] as number) - rate * ((gw[k] as number) / n + l2 * (w[k] as number));
      // Projected gradient: monotone features keep a weight ≥ 0.
      w[k] = MONOTONE_FEATURES.has(fs[k] as AbstentionFeature) ? Math.max(0, next) : next;
    }
    b -= (rate * gb) / n;
    if (Math.abs(prev - loss) < 1e-9) break;
    prev = loss;
  }
  const weights = Object.fromEntries(fs.map((f, k) => [f, w[k] as number])) as Record<AbstentionFeature, number>;
  return { mean, sd, weights, bias: b };
}

/**
 * What a wrong answer costs relative to a correct one when choosing the threshold. A wrong answer
 * is worse than an abstention; 1.5 was chosen by 5-fold cross-validation over question ids on the
 * training split (1, 1.5 and 2 compared: 1.5 kept as many correct answers as 1 with fewer wrong
 * ones; 2 lost about a sixth of the correct answers of the clean corpus).
 */
export const WRONG_COST = 1.5;

/** Threshold in {0.05, …, 0.95} maximising correct − cost × wrong among answered examples. */
export function chooseThreshold(examples: readonly Example[], model: AbstentionModel, cost = 1): number {
  let best = 0.05;
  let bestUtility = -Infinity;
  for (let k = 1; k <= 19; k++) {
    const t = k / 20;
    let u = 0;
    for (const e of examples) if (pCorrect(e.signals, model) >= t) u += e.y === 1 ? 1 : -cost;
    if (u > bestUtility + 1e-9) {
      best = t;
      bestUtility = u;
    }
  }
  return best;
}

const round = (x: number): number => Number(x.toFixed(4));

/** The TypeScript block written into abstain.ts. */
export function modelBlock(model: AbstentionModel, threshold: number, note: string): string {
  const rec = (r: Record<AbstentionFeature, number>): string =>
    `Object.freeze({ ${ABSTENTION_FEATURES.map((f) => `${f}: ${round(r[f])}`).join(', ')} })`;
  return [
    '// BEGIN FITTED (written by `npx tsx src/cli/fit-abstain.ts --dataset ../shared/datasets/rgb-counterfactual --write`)',
    `// ${note}`,
    'export const FITTED_ABSTENTION_MODEL: AbstentionModel = Object.freeze({',
    `  mean: ${rec(model.mean)},`,
    `  sd: ${rec(model.sd)},`,
    `  weights: ${rec(model.weights)},`,
    `  bias: ${round(model.bias)},`,
    '});',
    `export const FITTED_ABSTENTION_THRESHOLD = ${threshold};`,
    '// END FITTED',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      write: { type: 'boolean', default: false },
      file: { type: 'string', default: 'src/core/answer/abstain.ts' },
      cost: { type: 'string', default: String(WRONG_COST) },
    },
    strict: true,
  });
  if (!values.dataset) {
    console.log('usage: tsx src/cli/fit-abstain.ts --dataset <rgb-counterfactual dir> [--write] [--file abstain.ts]');
    return 2;
  }
  const cases: RgbCase[] = [];
  for (const threat of THREATS) {
    const report = await runRgb({
      dataset: values.dataset,
      threat,
      ids: [0, 49],
      configs: ['evident', 'clean-ceiling', 'no-evidence'],
      abstain: false,
    });
    cases.push(...report.cases);
  }
  const examples = examplesOf(cases);
  const model = fitLogistic(examples);
  const cost = Number(values.cost);
  if (!(cost > 0)) throw new EvidentError('invalid_option', `--cost must be a positive number, got "${values.cost}".`);
  const threshold = chooseThreshold(examples, model, cost);
  const pos = examples.filter((e) => e.y === 1).length;
  const kept = examples.filter((e) => pCorrect(e.signals, model) >= threshold);
  const keptPos = kept.filter((e) => e.y === 1).length;
  const note = `RGB ids 0–49 (train), ${examples.length} answered examples (${pos} correct); wrong-answer cost ${cost}: at threshold ${threshold} it keeps ${kept.length} answers, ${keptPos} correct.`;
  console.log(note);
  console.log(JSON.stringify(model, null, 2));
  if (values.write) {
    const text = await readFile(values.file, 'utf8');
    const re = /\/\/ BEGIN FITTED[\s\S]*?\/\/ END FITTED/u;
    if (!re.test(text))
      throw new EvidentError('invalid_input', `${values.file} has no BEGIN FITTED … END FITTED block.`);
    await writeFile(values.file, text.replace(re, modelBlock(model, threshold, note)));
    console.log(`wrote ${values.file}`);
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof EvidentError ? `${err.code}: ${err.message}` : err);
      process.exit(1);
    },
  );
}
