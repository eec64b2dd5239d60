/**
 * Fits the release decision (the abstention models of src/core/answer/abstain.ts) on a pool of
 * corpora at once, and reports it leave-one-corpus-out: for each corpus, the models are fitted
 * and their thresholds chosen without it, then it is scored. A rule fitted to two datasets breaks
 * on the next; a fit that holds when a whole corpus is left out is one that carries.
 *
 *   npx tsx src/cli/fit-release.ts --rgb ../shared/datasets/rgb-counterfactual \
 *       --realtimeqa ../shared/datasets/realtimeqa-dev \
 *       --docqa ../shared/datasets/covidqa-dev:2,../shared/datasets/tatqa-dev:3,../shared/datasets/financebench-dev \
 *       [--lexical-only] [--budget 0.04] [--write]
 *
 * Examples: every question asked through the app's own answer path (`ask` for the document-QA
 * folders, one library per document; the RGB harness for RGB ids 0–49 and realtimeqa-dev ids
 * 0–49, both threat models, its six corpora per question), with the signals of its answer before
 * any abstention and a label: would the answer be right if released (the answers benchmark's
 * independent grade, `answers-grade.ts`: right, or evidenced on a gold page; RGB: states the true
 * answer). `DIR:n` takes every n-th question of a folder; a `.json` path is a report the answers
 * benchmark wrote (`npm run eval -- --answers --json f`), read without asking again.
 *
 * Per question kind, one logistic model (fit-abstain.ts's monotone fit over `KIND_FEATURES`),
 * then the threshold: the lowest cut on the grid at which no training corpus releases wrong
 * answers for more than `--budget` of its questions of that kind (a wrong release is the worst
 * outcome; a refusal of a quoted answer the second worst, so the lowest such cut). `--write`
 * rewrites the FITTED block of abstain.ts with the pooled fit.
 */
import { EvidentError } from '../core/errors';
import {
  ABSTENTION_FEATURES,
  FITTED_ONE_DOCUMENT,
  ONE_DOCUMENT_FEATURES,
  decideAbstention,
  featureVector,
  kindOf,
  ruleOf,
  type AbstentionFeature,
  type AbstentionSignals,
  type KindDecision,
} from '../core/answer/abstain';
import { formatTable, parseCli, pct, rewriteInFile, runIfMain } from './common';
import { fitLogistic, rgbCases, type Example } from './fit-abstain';
import { readFile } from 'node:fs/promises';
import { runAnswers, type AnswerRecord } from './answers';

/** A labelled example with the corpus it came from. */
export interface PoolExample {
  readonly corpus: string;
  readonly signals: AbstentionSignals;
  /** The answer, if released, would be right (or evidenced on a gold page). */
  readonly right: boolean;
}

/** Thresholds tried, lowest first: 0.01, 0.02, …, 0.99. */
const FINE_GRID: readonly number[] = Array.from({ length: 99 }, (_, k) => (k + 1) / 100);

/** Most wrong releases a corpus may have, as a share of its questions of a kind (default). */
export const WRONG_BUDGET = 0.04;

const asExample = (e: PoolExample): Example => ({
  x: featureVector(e.signals),
  y: e.right ? 1 : 0,
  signals: e.signals,
  source: 'rgb',
  f1: 0,
});

/** Released right and wrong shares of some examples under a decision (of all their questions). */
export function scoreDecision(
  examples: readonly PoolExample[],
  oneDocument: KindDecision = FITTED_ONE_DOCUMENT,
): { n: number; right: number; wrong: number } {
  let right = 0;
  let wrong = 0;
  for (const e of examples) {
    if (e.signals.conflict || decideAbstention(e.signals, {}, oneDocument).abstain) continue;
    if (e.right) right++;
    else wrong++;
  }
  const n = Math.max(1, examples.length);
  return { n: examples.length, right: right / n, wrong: wrong / n };
}

/** Examples the one-document model decides: evidence from one document, no rule deciding first. */
const oneDocumentExamples = (xs: readonly PoolExample[]): PoolExample[] =>
  xs.filter((e) => e.signals.documents === 1 && ruleOf(e.signals) === null);

/**
 * Fits the one-document model on `train` and picks the lowest threshold on the grid at which no
 * training corpus releases wrong answers for more than `budget` of its questions.
 */
export function fitPool(train: readonly PoolExample[], budget = WRONG_BUDGET): KindDecision {
  const corpora = [...new Set(train.map((e) => e.corpus))];
  const mine = oneDocumentExamples(train);
  const model = fitLogistic(mine.map(asExample), ONE_DOCUMENT_FEATURES);
  for (const t of FINE_GRID) {
    const within = corpora.every(
      (c) =>
        scoreDecision(
          train.filter((e) => e.corpus === c),
          { model, threshold: t },
        ).wrong <= budget,
    );
    if (within) return { model, threshold: t };
  }
  return { model, threshold: 1 };
}

/** The TypeScript block written into abstain.ts. */
function oneDocumentBlock(fitted: KindDecision, notes: readonly string[], command: string): string {
  const round = (x: number): number => Number(x.toFixed(4));
  const rec = (r: Readonly<Record<AbstentionFeature, number>>): string =>
    `Object.freeze({ ${ABSTENTION_FEATURES.map((f) => `${f}: ${round(r[f])}`).join(', ')} })`;
  return [
    `// BEGIN ONE-DOCUMENT FITTED (written by \`${command}\`)`,
    ...notes.map((n) => `// ${n}`),
    'export const FITTED_ONE_DOCUMENT: KindDecision = Object.freeze({',
    '  model: Object.freeze({',
    `    mean: ${rec(fitted.model.mean)},`,
    `    sd: ${rec(fitted.model.sd)},`,
    `    weights: ${rec(fitted.model.weights)},`,
    `    bias: ${round(fitted.model.bias)},`,
    '  }),',
    `  threshold: ${fitted.threshold},`,
    '});',
    '// END ONE-DOCUMENT FITTED',
  ].join('\n');
}

async function docqaExamples(spec: string, lexicalOnly: boolean, log: (m: string) => void): Promise<PoolExample[]> {
  const [dir, every] = spec.split(':') as [string, string | undefined];
  // A `--json` report of the answers benchmark is read as it is (the same records, no re-run).
  const report = dir.endsWith('.json')
    ? (JSON.parse(await readFile(dir, 'utf8')) as { dataset: string; questions: AnswerRecord[] })
    : await runAnswers(dir, { lexicalOnly, every: every ? Number(every) : 1, log });
  const out: PoolExample[] = [];
  for (const r of report.questions) {
    const signals = (r.abstention as { signals?: AbstentionSignals } | null)?.signals;
    if (!signals) continue;
    out.push({ corpus: report.dataset, signals, right: r.wouldBe === 'right' || r.wouldBe === 'evidenced' });
  }
  return out;
}

async function rgbExamples(dir: string, name: string): Promise<PoolExample[]> {
  const cases = await rgbCases(dir, [0, 49], false);
  return cases
    .filter((c) => c.signals !== null)
    .map((c) => ({ corpus: name, signals: c.signals as AbstentionSignals, right: c.answeredCorrectly }));
}

async function main(argv: string[]): Promise<number> {
  const cli = parseCli(
    argv,
    {
      rgb: { type: 'string' },
      realtimeqa: { type: 'string' },
      docqa: { type: 'string', default: '' },
      'lexical-only': { type: 'boolean', default: false },
      budget: { type: 'string', default: String(WRONG_BUDGET) },
      write: { type: 'boolean', default: false },
      dump: { type: 'string' },
      file: { type: 'string', default: 'src/core/answer/abstain.ts' },
    },
    'tsx src/cli/fit-release.ts [--rgb DIR] [--realtimeqa DIR] [--docqa DIR[:every],…] [--lexical-only] [--budget 0.04] [--dump f.json] [--write]',
    [],
  );
  if (!cli.ok) return cli.exit;
  const { values } = cli;
  const budget = Number(values.budget);
  if (!(budget > 0 && budget < 1))
    throw new EvidentError('invalid_option', `--budget must be a share in (0, 1), got "${values.budget}".`);
  const log = (msg: string): void => console.error(`[fit-release] ${msg}`);
  const pool: PoolExample[] = [];
  if (values.rgb) pool.push(...(await rgbExamples(values.rgb, 'rgb')));
  if (values.realtimeqa) pool.push(...(await rgbExamples(values.realtimeqa, 'realtimeqa')));
  for (const spec of (values.docqa as string).split(',').filter(Boolean)) {
    pool.push(...(await docqaExamples(spec, values['lexical-only'] as boolean, log)));
    log(`${spec}: ${pool.length} examples so far`);
  }
  if (values.dump) {
    const { writeFile } = await import('node:fs/promises');
    const rows = pool.map((e) => ({
      corpus: e.corpus,
      right: e.right,
      kind: kindOf(e.signals),
      x: featureVector(e.signals),
      signals: e.signals,
    }));
    await writeFile(values.dump, JSON.stringify(rows));
    log(`wrote ${pool.length} examples to ${values.dump}`);
  }
  const corpora = [...new Set(pool.map((e) => e.corpus))];
  if (corpora.length < 2) throw new EvidentError('invalid_option', 'fit-release needs at least two corpora.');

  const pooled = fitPool(pool, budget);
  const rows: string[][] = [];
  for (const c of corpora) {
    const held = pool.filter((e) => e.corpus === c);
    const loco = fitPool(
      pool.filter((e) => e.corpus !== c),
      budget,
    );
    const now = scoreDecision(held);
    const a = scoreDecision(held, pooled);
    const b = scoreDecision(held, loco);
    const wouldBe = held.filter((e) => e.right).length / held.length;
    const share = (xs: readonly PoolExample[]): string => pct(xs.length / Math.max(1, held.length));
    rows.push([
      c,
      String(a.n),
      share(oneDocumentExamples(held)),
      pct(wouldBe),
      `${pct(now.right)} / ${pct(now.wrong)}`,
      `${pct(a.right)} / ${pct(a.wrong)}`,
      `${pct(b.right)} / ${pct(b.wrong)} (t ${loco.threshold})`,
    ]);
  }
  console.log(
    formatTable(
      [
        'corpus',
        'questions',
        'one-document model',
        'right if all released',
        'shipped right / wrong',
        'pooled right / wrong',
        'left out: right / wrong',
      ],
      rows,
    ),
  );
  const mine = oneDocumentExamples(pool);
  const notes = [
    `one-document model: ${mine.length} examples (${corpora.map((c) => `${mine.filter((e) => e.corpus === c).length} ${c}`).join(', ')}), threshold ${pooled.threshold} (no corpus releases wrong answers for more than ${pct(budget)} of its questions).`,
  ];
  for (const n of notes) console.log(n);
  if (values.write) {
    const command = `npx tsx src/cli/fit-release.ts ${argv.filter((a) => a !== '--write').join(' ')} --write`;
    await rewriteInFile(
      values.file,
      /\/\/ BEGIN ONE-DOCUMENT FITTED[\s\S]*?\/\/ END ONE-DOCUMENT FITTED/u,
      oneDocumentBlock(pooled, notes, command),
    );
    console.log(`wrote ${values.file}`);
  }
  return 0;
}

runIfMain(import.meta.url, main);
