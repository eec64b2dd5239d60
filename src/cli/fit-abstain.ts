/**
 * Fits the abstention models (src/core/answer/abstain.ts) on training data only, and reports
 * abstention precision and recall on held-apart data.
 *
 *   npx tsx src/cli/fit-abstain.ts --rgb ../shared/datasets/rgb-counterfactual \
 *                                  --scifact ../shared/datasets/scifact [--write] [--held-out]
 *
 * Training examples (the test splits are never read for the fit):
 *   - RGB ids 0–49, both threat models, six corpora per question (`RGB_FIT_CONFIGS`: with edited
 *     passages, clean, one true passage among the question's topical negatives, negatives only, one
 *     true passage among other questions' negatives, those alone); the label is whether the answer
 *     states the true answer. The single-source corpora are what a user's own library looks like
 *     (one document states a fact, nothing corroborates it): without them the model learned from
 *     RGB's many corroborating news passages that an uncorroborated fact is unreliable;
 *   - SciFact train, every claim twice: *answerable* (the real candidates) and *unanswerable*
 *     (the candidates of its relevant abstracts removed: the corpus has nothing on it). The label
 *     is whether the answer's lead sentence comes from a relevant abstract (never, unanswerable).
 * Each example goes to the model of its question's kind (`questionKindOf`): RGB's who/when/how
 * many questions are factoids, SciFact's claims and RGB's keyword queries descriptive. Only the
 * examples the rules of `decideAbstention` leave to the model count.
 *
 * Model: logistic regression on the kind's features (`KIND_FEATURES`), standardised, batch
 * gradient descent with L2 penalty (our choice: 0.01) until the loss changes by < 1e-9, every
 * weight projected onto ≥ 0 after each step (monotone). A missing feature (no dense retrieval:
 * `agreement`) reads as its mean.
 * Thresholds:
 *   - factoid: the cut in {0.05, …, 0.95} maximising correct − `WRONG_COST` × wrong answers;
 *   - descriptive: the highest cut in {0.01, …, 0.99} whose cost in selection F1 on the
 *     answerable training claims (an abstained claim selects nothing) is ≤ `F1_COST_BUDGET`. The
 *     issue allows 0.01 on SciFact test for the verifier and abstention together; half of it is
 *     left for the difference between the splits.
 * `--write` rewrites the block between BEGIN FITTED and END FITTED in abstain.ts. `--held-out`
 * then runs SciFact test (answerable and unanswerable) and RGB ids 50–99 and prints abstention
 * precision and recall there: an abstention (or a stated conflict) is right when the answer it
 * withheld was not correct.
 */
import { EvidentError } from '../core/errors';
import {
  ABSTENTION_FEATURES,
  KIND_FEATURES,
  MONOTONE_FEATURES,
  QUESTION_KINDS,
  decideAbstention,
  featureVector,
  kindOf,
  pCorrect,
  ruleOf,
  type AbstentionFeature,
  type AbstentionModel,
  type AbstentionOptions,
  type AbstentionSignals,
  type QuestionKind,
} from '../core/answer/abstain';
import { setPrf } from '../core/eval/selection-metrics';
import type { BeirDataset } from '../node/beir';
import {
  answerQuery,
  prepareAblation,
  prepareQueries,
  SCIFACT_SELECTION,
  selectionCandidates,
  type Prepared,
} from './ablation';
import { bestOnGrid, formatTable, parseCli, pct, rewriteInFile, runIfMain } from './common';
import { RGB_CONFIGS, runRgb, THREATS, type RgbCase, type RgbConfigName } from './rgb';
import { isPeerDefense } from './rgb-defenses';

export type ExampleSource = 'rgb' | 'scifact' | 'scifact-unanswerable';

export interface Example {
  readonly x: Record<AbstentionFeature, number>;
  /** The answer (before any abstention) is correct. */
  readonly y: 0 | 1;
  readonly signals: AbstentionSignals;
  readonly source: ExampleSource;
  /** Selection F1 of the full packet (SciFact answerable claims; 0 elsewhere). */
  readonly f1: number;
}

const exampleOf = (signals: AbstentionSignals, y: boolean, source: ExampleSource, f1 = 0): Example => ({
  x: featureVector(signals),
  y: y ? 1 : 0,
  signals,
  source,
  f1,
});

/** Examples from RGB cases run without abstention (every case with signals; see `forModel`). */
export function examplesOf(cases: readonly RgbCase[]): Example[] {
  return cases
    .filter((c) => c.signals !== null && c.answerKind !== 'conflict')
    .map((c) => exampleOf(c.signals!, c.answeredCorrectly, 'rgb'));
}

/** The examples a kind's model decides: of that kind, and left to the model by the rules. */
export function forModel(examples: readonly Example[], kind: QuestionKind): Example[] {
  return examples.filter((e) => kindOf(e.signals) === kind && ruleOf(e.signals) === null);
}

/**
 * SciFact claims through the app's answer path (ablation.ts: the full packet with verify on, the
 * extractive answer, its signals), each claim answerable and, with its relevant abstracts' chunks
 * removed from the candidates, unanswerable.
 */
export async function sciFactExamples(
  dataset: BeirDataset,
  prepared: Prepared,
  abstention?: AbstentionOptions,
): Promise<{ examples: Example[]; abstained: boolean[] }> {
  const profile = SCIFACT_SELECTION;
  const queries = prepareQueries(dataset, prepared, profile.candidates);
  const examples: Example[] = [];
  const abstained: boolean[] = [];
  for (const q of queries) {
    const judged = dataset.qrels.get(q.id) ?? new Map<string, number>();
    const relevant = (docId: string | null): boolean => docId !== null && (judged.get(docId) ?? 0) >= 1;
    const all = selectionCandidates(q.candidates, profile.candidates);
    for (const answerable of [true, false]) {
      const candidates = answerable ? all : all.filter((c) => !relevant(c.docId));
      const a = await answerQuery({ ...q, candidates }, prepared.data, profile.selection, abstention);
      const correct = a.answer.kind === 'answer' && relevant(a.leadDocId);
      const f1 = answerable ? setPrf(new Set(a.packet.sources.map((s) => s.docId)), judged).f1 : 0;
      examples.push(exampleOf(a.signals, correct, answerable ? 'scifact' : 'scifact-unanswerable', f1));
      abstained.push(a.decision.abstain);
    }
  }
  return { examples, abstained };
}

/**
 * L2-regularised logistic regression by batch gradient descent on the standardised `features`
 * (the others get weight 0); weights of `MONOTONE_FEATURES` are projected onto ≥ 0 after every
 * step. A non-finite feature value reads as the feature's mean.
 */
export function fitLogistic(
  examples: readonly Example[],
  features: readonly AbstentionFeature[] = ABSTENTION_FEATURES,
  l2 = 0.01,
  rate = 0.5,
  maxIter = 20_000,
): AbstentionModel {
  if (examples.length === 0) throw new EvidentError('invalid_input', 'fit-abstain: no training examples.');
  const fs = ABSTENTION_FEATURES;
  const used = new Set(features);
  const mean = {} as Record<AbstentionFeature, number>;
  const sd = {} as Record<AbstentionFeature, number>;
  for (const f of fs) {
    const xs = examples.map((e) => e.x[f]).filter(Number.isFinite);
    if (!used.has(f) || xs.length === 0) {
      mean[f] = 0;
      sd[f] = 1;
      continue;
    }
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
    mean[f] = m;
    sd[f] = Math.sqrt(v) > 1e-9 ? Math.sqrt(v) : 1;
  }
  const z = examples.map((e) =>
    fs.map((f) => (used.has(f) && Number.isFinite(e.x[f]) ? (e.x[f] - mean[f]) / sd[f] : 0)),
  );
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
      const f = fs[k] as AbstentionFeature;
      if (!used.has(f)) continue;
      const next = (w[k] as number) - rate * ((gw[k] as number) / n + l2 * (w[k] as number));
      // Projected gradient: monotone features keep a weight ≥ 0.
      w[k] = MONOTONE_FEATURES.has(f) ? Math.max(0, next) : next;
    }
    b -= (rate * gb) / n;
    if (Math.abs(prev - loss) < 1e-9) break;
    prev = loss;
  }
  const weights = Object.fromEntries(fs.map((f, k) => [f, w[k] as number])) as Record<AbstentionFeature, number>;
  return { mean, sd, weights, bias: b };
}

/**
 * What a wrong factoid answer costs relative to a correct one when choosing the threshold. A wrong
 * answer is worse than an abstention; 1.5 was chosen by 5-fold cross-validation over question ids
 * on RGB's training split (1, 1.5 and 2 compared: 1.5 kept as many correct answers as 1 with fewer
 * wrong ones; 2 lost about a sixth of the correct answers of the clean corpus).
 */
export const WRONG_COST = 1.5;

/** Factoid threshold: the grid cut maximising correct − cost × wrong among the answered examples. */
export function chooseThreshold(examples: readonly Example[], model: AbstentionModel, cost = 1): number {
  const p = examples.map((e) => pCorrect(e.signals, model));
  return bestOnGrid((t) => examples.reduce((u, e, i) => u + ((p[i] as number) >= t ? (e.y === 1 ? 1 : -cost) : 0), 0));
}

/** Most selection F1 that abstention may cost on the answerable training claims (see the file comment). */
export const F1_COST_BUDGET = 0.005;

/**
 * Whether the app withholds the evidence: a rule abstains, or the model is below `t`. A stated
 * conflict is no abstention here: the answer shows both sides with their passages.
 */
function withholds(s: AbstentionSignals, model: AbstentionModel, t: number): boolean {
  const rule = ruleOf(s);
  return rule !== null ? rule !== 'conflict' : pCorrect(s, model) < t;
}

/** Selection F1 lost on the answerable claims when everything below `t` (or decided by a rule) abstains. */
export function f1Cost(examples: readonly Example[], model: AbstentionModel, t: number): number {
  const answerable = examples.filter((e) => e.source === 'scifact');
  if (answerable.length === 0) return 0;
  const lost = answerable.reduce((a, e) => a + (withholds(e.signals, model, t) ? e.f1 : 0), 0);
  return lost / answerable.length;
}

/** Descriptive threshold: the highest cut in {0.01, …, 0.99} whose F1 cost stays within `budget` (0 if none). */
export function chooseBudgetThreshold(
  examples: readonly Example[],
  model: AbstentionModel,
  budget = F1_COST_BUDGET,
): number {
  let best = 0;
  for (let k = 1; k <= 99; k++) if (f1Cost(examples, model, k / 100) <= budget + 1e-12) best = k / 100;
  return best;
}

const round = (x: number): number => Number(x.toFixed(4));

/** The TypeScript block written into abstain.ts. */
export function modelBlock(fitted: AbstentionOptions, notes: readonly string[]): string {
  const rec = (r: Record<AbstentionFeature, number>): string =>
    `Object.freeze({ ${ABSTENTION_FEATURES.map((f) => `${f}: ${round(r[f])}`).join(', ')} })`;
  const model = (kind: QuestionKind): string[] => {
    const { model: m, threshold } = fitted[kind];
    return [
      `  ${kind}: Object.freeze({`,
      '    model: Object.freeze({',
      `      mean: ${rec(m.mean)},`,
      `      sd: ${rec(m.sd)},`,
      `      weights: ${rec(m.weights)},`,
      `      bias: ${round(m.bias)},`,
      '    }),',
      `    threshold: ${threshold},`,
      '  }),',
    ];
  };
  return [
    '// BEGIN FITTED (written by `npx tsx src/cli/fit-abstain.ts --rgb ../shared/datasets/rgb-counterfactual --scifact ../shared/datasets/scifact --write`)',
    ...notes.map((n) => `// ${n}`),
    'export const FITTED_ABSTENTION: AbstentionOptions = Object.freeze({',
    ...QUESTION_KINDS.flatMap(model),
    '});',
    '// END FITTED',
  ].join('\n');
}

/** Abstention precision and recall: an abstention (or a stated conflict) is right when the withheld answer was not correct. */
export interface AbstentionPr {
  readonly cases: number;
  readonly abstained: number;
  readonly shouldAbstain: number;
  readonly precision: number;
  readonly recall: number;
}

export function abstentionPr(
  items: readonly { readonly abstained: boolean; readonly correct: boolean }[],
): AbstentionPr {
  const abstained = items.filter((x) => x.abstained).length;
  const should = items.filter((x) => !x.correct).length;
  const hit = items.filter((x) => x.abstained && !x.correct).length;
  return {
    cases: items.length,
    abstained,
    shouldAbstain: should,
    precision: abstained === 0 ? 0 : hit / abstained,
    recall: should === 0 ? 0 : hit / should,
  };
}

/** The RGB corpora the factoid model is fitted on and checked against (not the top-5 baseline or the peer defenses). */
export const RGB_FIT_CONFIGS: readonly RgbConfigName[] = RGB_CONFIGS.filter(
  (c) => c !== 'baseline-top5' && !isPeerDefense(c),
);

export async function rgbCases(dataset: string, ids: readonly [number, number], abstain: boolean): Promise<RgbCase[]> {
  const cases: RgbCase[] = [];
  for (const threat of THREATS) {
    const report = await runRgb({
      dataset,
      threat,
      ids,
      configs: RGB_FIT_CONFIGS,
      abstain,
    });
    cases.push(...report.cases);
  }
  return cases;
}

async function main(argv: string[]): Promise<number> {
  const cli = parseCli(
    argv,
    {
      rgb: { type: 'string' },
      scifact: { type: 'string' },
      write: { type: 'boolean', default: false },
      'held-out': { type: 'boolean', default: false },
      file: { type: 'string', default: 'src/core/answer/abstain.ts' },
      cost: { type: 'string', default: String(WRONG_COST) },
    },
    'tsx src/cli/fit-abstain.ts --rgb <rgb-counterfactual dir> --scifact <scifact dir> [--write] [--held-out]',
    ['rgb', 'scifact'],
  );
  if (!cli.ok) return cli.exit;
  const { values } = cli;
  const cost = Number(values.cost);
  if (!(cost > 0)) throw new EvidentError('invalid_option', `--cost must be a positive number, got "${values.cost}".`);
  const log = (msg: string): void => console.error(`[fit-abstain] ${msg}`);

  const { loadBeir } = await import('../node/beir');
  const { loadUseEmbedderNode } = await import('../node/use-node');
  const { embedder } = await loadUseEmbedderNode();
  try {
    // Training data.
    const rgbTrain = examplesOf(await rgbCases(values.rgb as string, [0, 49], false));
    log(`RGB 0–49: ${rgbTrain.length} examples`);
    const sciTrain = await loadBeir(values.scifact as string, 'train');
    const sci = await sciFactExamples(sciTrain, await prepareAblation(sciTrain, embedder, log));
    log(`SciFact train: ${sci.examples.length} examples`);
    const examples = [...rgbTrain, ...sci.examples];

    const notes: string[] = [];
    const fitted = {} as Record<QuestionKind, { model: AbstentionModel; threshold: number }>;
    for (const kind of QUESTION_KINDS) {
      const mine = forModel(examples, kind);
      const model = fitLogistic(mine, KIND_FEATURES[kind]);
      const threshold =
        kind === 'factoid' ? chooseThreshold(mine, model, cost) : chooseBudgetThreshold(examples, model);
      fitted[kind] = { model, threshold };
      const by = (src: ExampleSource): string => `${mine.filter((e) => e.source === src).length} ${src}`;
      const kept = mine.filter((e) => pCorrect(e.signals, model) >= threshold);
      const rule =
        kind === 'factoid'
          ? `wrong-answer cost ${cost}`
          : `selection F1 cost on answerable train claims ${f1Cost(examples, model, threshold).toFixed(4)} ≤ ${F1_COST_BUDGET}`;
      notes.push(
        `${kind}: ${mine.length} examples (${by('rgb')}, ${by('scifact')}, ${by('scifact-unanswerable')}), ` +
          `${mine.filter((e) => e.y === 1).length} correct; threshold ${threshold} (${rule}) keeps ${kept.length}, ` +
          `${kept.filter((e) => e.y === 1).length} correct.`,
      );
    }
    for (const n of notes) console.log(n);
    console.log(JSON.stringify(fitted, null, 2));
    if (values.write) {
      await rewriteInFile(values.file, /\/\/ BEGIN FITTED[\s\S]*?\/\/ END FITTED/u, modelBlock(fitted, notes));
      console.log(`wrote ${values.file}`);
    }

    if (values['held-out']) {
      // Held-apart data, decided by the models just fitted.
      const sciTest = await loadBeir(values.scifact as string, 'test');
      const test = await sciFactExamples(sciTest, await prepareAblation(sciTest, embedder, log), fitted);
      const rgbTest = await rgbCases(values.rgb as string, [50, 99], false);
      const rgbItems = rgbTest
        .filter((c) => c.signals !== null)
        .map((c) => ({
          abstained: decideAbstention(c.signals!, fitted).abstain,
          correct: c.answeredCorrectly,
        }));
      const sciItems = test.examples.map((e, i) => ({
        abstained: test.abstained[i] as boolean,
        correct: e.y === 1,
        source: e.source,
      }));
      const rows: [string, AbstentionPr][] = [
        ['SciFact test, all', abstentionPr(sciItems)],
        ['SciFact test, answerable', abstentionPr(sciItems.filter((x) => x.source === 'scifact'))],
        ['SciFact test, unanswerable', abstentionPr(sciItems.filter((x) => x.source !== 'scifact'))],
        [`RGB 50–99 (${RGB_FIT_CONFIGS.length * THREATS.length} corpora per question)`, abstentionPr(rgbItems)],
      ];
      console.log(
        formatTable(
          ['held-apart data', 'cases', 'should abstain', 'abstained', 'precision', 'recall'],
          rows.map(([name, r]) => [
            name,
            String(r.cases),
            String(r.shouldAbstain),
            String(r.abstained),
            pct(r.precision),
            pct(r.recall),
          ]),
        ),
      );
    }
  } finally {
    embedder.dispose();
  }
  return 0;
}

runIfMain(import.meta.url, main);
