/**
 * Retrieval evaluation on a BEIR-layout dataset.
 *
 *   npm run eval -- --dataset ../shared/datasets/scifact [--split test|train]
 *                   [--config name[,name]] [--json out.json] [--trec-dir dir] [--depth 1000]
 *                   [--check [test/regression.json]]
 *   npm run eval -- --dataset ../shared/datasets/rgb-counterfactual --threat honest|spoofed [--json out.json]
 *   npm run eval -- --dataset ../shared/datasets/scifact --ablation [--split test|train] [--json out.json]
 *   npm run eval -- --dataset ../shared/datasets/financebench-dev --docqa [--json f] [--lexical-only] [--limit n] [--library single|all]
 *   npm run eval -- --dataset benchmarks/testdocs-qa --answers [--json f] [--lexical-only] [--limit n] [--every n]
 *
 * Prints nDCG@10, R@10, R@100, MRR@10, MAP and P@10 per config; `--json` writes
 * `{dataset, split, configs: [{name, metrics}]}`; `--trec-dir` writes one TREC run file per
 * config (`<dataset>-<split>-<config>.trec`); `--check` grades the configs against the pinned
 * regression matrix (ok / okish / fail) and exits 1 on a fail.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { EvidentError } from '../core/errors';
import { evaluateRun, METRIC_NAMES, type MetricValues, type Run } from '../core/eval/metrics';
import { formatRun } from '../core/eval/trec';
import { loadBeir, type BeirDataset } from '../node/beir';
import { CONFIGS, createEvalContext, getConfig, type DenseRunner, type EvalContext } from './configs';
import { gradeRun, pinnedConfigs, readRegressionFile, type GradedMetric } from './regression';
import { rgbMain } from './rgb';
import { ablationMain } from './ablation';
import { docQaMain } from './docqa';
import { answersMain } from './answers';
import { inquiryMain } from './inquiry';

export const DEFAULT_REGRESSION_FILE = 'test/regression.json';

export interface ConfigResult {
  readonly name: string;
  readonly metrics: MetricValues;
  readonly run: Run;
  readonly ms: number;
}

/** Runs configs by name on a loaded dataset and evaluates them against its qrels. */
export async function evaluateConfigs(ctx: EvalContext, names: readonly string[]): Promise<ConfigResult[]> {
  const results: ConfigResult[] = [];
  for (const name of names) {
    const config = getConfig(name);
    const t0 = performance.now();
    const run = await config.run(ctx);
    const ms = performance.now() - t0;
    results.push({ name, metrics: evaluateRun(run, ctx.dataset.qrels).mean, run, ms });
    ctx.log(`${name}: ${(ms / 1000).toFixed(1)} s`);
  }
  return results;
}

/** The `--json` document. */
export function toJsonReport(dataset: BeirDataset, results: readonly ConfigResult[]): object {
  return {
    dataset: dataset.name,
    split: dataset.split,
    configs: results.map((r) => ({
      name: r.name,
      metrics: Object.fromEntries(METRIC_NAMES.map((m) => [m, r.metrics[m]])),
    })),
  };
}

export function formatTable(results: readonly ConfigResult[]): string {
  const width = Math.max(8, ...results.map((r) => r.name.length));
  const header = ['config'.padEnd(width), ...METRIC_NAMES.map((m) => m.padStart(10))].join(' ');
  const rows = results.map((r) =>
    [r.name.padEnd(width), ...METRIC_NAMES.map((m) => r.metrics[m].toFixed(4).padStart(10))].join(' '),
  );
  return [header, ...rows].join('\n');
}

export function formatGrades(graded: readonly GradedMetric[]): string {
  return graded
    .map(
      (g) =>
        `${g.grade.toUpperCase().padEnd(5)} ${g.config} ${g.metric}: ${g.actual.toFixed(4)} (expected ${g.entry.expected} ± ${g.entry.tolerance}; ${g.why})`,
    )
    .join('\n');
}

async function loadDenseRunner(): Promise<DenseRunner> {
  const { denseRun } = await import('./dense-run');
  return denseRun;
}

async function main(argv: string[]): Promise<number> {
  // RGB's poisoned-evidence evaluation has its own corpus per question and its own report.
  if (argv.includes('--threat')) return rgbMain(argv);
  // The selection ablation (top-k vs the selection stages, as sets; src/cli/ablation.ts).
  if (argv.includes('--ablation')) return ablationMain(argv);
  // Document QA over long documents (questions.jsonl + docs/; src/cli/docqa.ts).
  if (argv.includes('--docqa')) return docQaMain(argv);
  // Is the answer the user reads first right? (the same folders; src/cli/answers.ts)
  if (argv.includes('--answers')) return answersMain(argv);
  if (argv.includes('--inquiry')) return inquiryMain(argv); // premise-directed inquiry (src/cli/inquiry.ts)
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      config: { type: 'string' },
      json: { type: 'string' },
      'trec-dir': { type: 'string' },
      depth: { type: 'string', default: '1000' },
      check: { type: 'boolean', default: false },
      regression: { type: 'string', default: DEFAULT_REGRESSION_FILE },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help || !values.dataset) {
    console.log(
      `usage: npm run eval -- --dataset <dir> [--split test|train] [--config a,b] [--json out.json] [--trec-dir dir] [--depth n] [--check] [--regression file]\nconfigs: ${[...CONFIGS.values()].map((c) => `${c.name} (${c.description})`).join('; ')}`,
    );
    return values.help ? 0 : 2;
  }
  const depth = Number(values.depth);
  if (!Number.isInteger(depth) || depth < 1)
    throw new EvidentError('invalid_option', `--depth must be a positive integer, got ${values.depth}.`);
  const log = (msg: string): void => console.error(`[eval] ${msg}`);

  const dataset = await loadBeir(values.dataset, values.split);
  log(`${dataset.name}/${dataset.split}: ${dataset.corpus.length} docs, ${dataset.queries.length} queries`);
  const regression = values.check ? await readRegressionFile(values.regression) : null;
  const names = values.config
    ? values.config
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : regression
      ? pinnedConfigs(regression, dataset.name, dataset.split)
      : ['bm25-nostem', 'bm25'];
  if (names.length === 0)
    throw new EvidentError('invalid_option', `No configs to run for ${dataset.name}/${dataset.split}: pass --config.`);
  names.forEach(getConfig);

  const needsDense = names.some((n) => getConfig(n).usesDense);
  const ctx = createEvalContext(dataset, { depth, log, ...(needsDense ? { dense: await loadDenseRunner() } : {}) });
  const results = await evaluateConfigs(ctx, names);
  console.log(`${dataset.name} / ${dataset.split} (${dataset.queries.length} queries, depth ${depth})`);
  console.log(formatTable(results));

  if (values.json) {
    await writeFile(values.json, `${JSON.stringify(toJsonReport(dataset, results), null, 2)}\n`);
    log(`wrote ${values.json}`);
  }
  if (values['trec-dir']) {
    await mkdir(values['trec-dir'], { recursive: true });
    for (const r of results) {
      const file = path.join(values['trec-dir'], `${dataset.name}-${dataset.split}-${r.name}.trec`);
      await writeFile(file, formatRun(r.run, `evident-${r.name}`));
      log(`wrote ${file}`);
    }
  }
  if (regression) {
    const graded = gradeRun(regression, dataset.name, dataset.split, results);
    if (graded.length === 0) {
      console.log(`check: nothing pinned for ${dataset.name}/${dataset.split} × ${names.join(', ')}`);
      return 1;
    }
    console.log(formatGrades(graded));
    const fails = graded.filter((g) => g.grade === 'fail').length;
    console.log(
      `check: ${graded.length - fails} passed (${graded.filter((g) => g.grade === 'okish').length} okish), ${fails} failed`,
    );
    return fails > 0 ? 1 : 0;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof EvidentError) console.error(`error (${err.code}): ${err.message}`);
      else console.error(err);
      process.exit(2);
    },
  );
}
