/**
 * Parameter sweeps on a TRAINING split; the chosen values become cited constants in
 * `src/cli/configs.ts` and `src/core/retrieval/fusion.ts`.
 *
 *   npx tsx src/cli/tune.ts --dataset ../shared/datasets/scifact [--split train]
 *                           [--grid bm25|dense|fusion|all] [--json out.json]
 *
 * Grids (objective: mean nDCG@10; R@100 is printed beside it):
 * - bm25:   k1 ∈ {0.6, 0.9, 1.2, 1.5} × b ∈ {0.3, 0.4, 0.5, 0.6, 0.75, 0.9}, stemmed and not,
 *           then the title field weight ∈ {0.5, 1, 1.5, 2, 3, 4} at the best k1/b.
 * - dense:  document representation `lead` vs `maxchunk` vs `maxsent`.
 * - fusion: RRF (k=60), and weighted fusion with w ∈ {0, 0.05, …, 1}.
 * Refuses a split named "test": choosing on test would make the reported numbers optimistic.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { EvidentError } from '../core/errors';
import { evaluateRun, type MetricValues, type Run } from '../core/eval/metrics';
import type { Bm25Options } from '../core/lexical/bm25';
import { RRF_K } from '../core/retrieval/fusion';
import { loadBeir } from '../node/beir';
import { BM25_STEM, createEvalContext, DENSE_STRATEGIES, DENSE_STRATEGY, fuseRuns, type EvalContext } from './configs';

export const GRIDS = ['bm25', 'dense', 'fusion', 'all'] as const;
export type Grid = (typeof GRIDS)[number];

export interface TuneRow {
  readonly grid: string;
  readonly setting: Readonly<Record<string, number | string | boolean>>;
  readonly metrics: MetricValues;
}

function row(ctx: EvalContext, grid: string, setting: TuneRow['setting'], run: Run): TuneRow {
  return { grid, setting, metrics: evaluateRun(run, ctx.dataset.qrels).mean };
}

/** The best row by nDCG@10 (first wins a tie, so list the simpler setting first). */
export function best(rows: readonly TuneRow[]): TuneRow {
  if (rows.length === 0) throw new EvidentError('invalid_input', 'tune: no rows to choose from.');
  return rows.reduce((a, b) => (b.metrics['ndcg@10'] > a.metrics['ndcg@10'] ? b : a));
}

export function tuneBm25(ctx: EvalContext): TuneRow[] {
  const rows: TuneRow[] = [];
  for (const stem of [true, false]) {
    const grid: TuneRow[] = [];
    for (const k1 of [0.9, 1.2, 0.6, 1.5]) {
      for (const b of [0.4, 0.75, 0.3, 0.5, 0.6, 0.9]) {
        grid.push(row(ctx, 'bm25', { stem, k1, b }, ctx.bm25Search({ stem, k1, b })));
      }
    }
    rows.push(...grid);
    const top = best(grid).setting;
    for (const title of [1, 0.5, 1.5, 2, 3, 4]) {
      const options: Partial<Bm25Options> = {
        stem,
        k1: top.k1 as number,
        b: top.b as number,
        fieldWeights: { title, headings: 1, text: 1 },
      };
      rows.push(
        row(
          ctx,
          'bm25-title',
          { stem, k1: options.k1 as number, b: options.b as number, title },
          ctx.bm25Search(options),
        ),
      );
    }
  }
  return rows;
}

export async function tuneDense(ctx: EvalContext): Promise<TuneRow[]> {
  const rows: TuneRow[] = [];
  for (const strategy of DENSE_STRATEGIES) rows.push(row(ctx, 'dense', { strategy }, await ctx.denseRun(strategy)));
  return rows;
}

export async function tuneFusion(ctx: EvalContext): Promise<TuneRow[]> {
  const bm25 = ctx.bm25Run(BM25_STEM);
  const rows: TuneRow[] = [];
  for (const strategy of [DENSE_STRATEGY, ...DENSE_STRATEGIES.filter((s) => s !== DENSE_STRATEGY)]) {
    const dense = await ctx.denseRun(strategy);
    rows.push(row(ctx, 'fusion', { strategy, mode: 'rrf', k: RRF_K }, fuseRuns(bm25, dense, 'rrf', 0, ctx.depth)));
    for (let i = 0; i <= 20; i++) {
      const w = i / 20;
      rows.push(row(ctx, 'fusion', { strategy, mode: 'weighted', w }, fuseRuns(bm25, dense, 'weighted', w, ctx.depth)));
    }
  }
  return rows;
}

function print(rows: readonly TuneRow[]): void {
  for (const r of rows) {
    const s = Object.entries(r.setting)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    console.log(
      `${r.grid.padEnd(10)} ${s.padEnd(44)} nDCG@10 ${r.metrics['ndcg@10'].toFixed(4)}  R@100 ${r.metrics['recall@100'].toFixed(4)}`,
    );
  }
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'train' },
      grid: { type: 'string', default: 'bm25' },
      json: { type: 'string' },
    },
    strict: true,
  });
  if (!values.dataset) {
    console.log(
      `usage: npx tsx src/cli/tune.ts --dataset <dir> [--split train] [--grid ${GRIDS.join('|')}] [--json out.json]`,
    );
    return 2;
  }
  if (values.split === 'test') {
    throw new EvidentError('invalid_option', 'tune: refusing to tune on the test split; use --split train.');
  }
  const grid = values.grid as Grid;
  if (!GRIDS.includes(grid))
    throw new EvidentError('invalid_option', `tune: --grid must be one of ${GRIDS.join(', ')}.`);
  const log = (msg: string): void => console.error(`[tune] ${msg}`);
  const dataset = await loadBeir(values.dataset, values.split);
  const needsDense = grid !== 'bm25';
  const dense = needsDense ? (await import('./dense-run')).denseRun : undefined;
  const ctx = createEvalContext(dataset, { depth: 1000, log, ...(dense ? { dense } : {}) });
  const all: TuneRow[] = [];
  const sections: [string, () => Promise<TuneRow[]> | TuneRow[]][] = [
    ['bm25', () => tuneBm25(ctx)],
    ['dense', () => tuneDense(ctx)],
    ['fusion', () => tuneFusion(ctx)],
  ];
  for (const [name, fn] of sections) {
    if (grid !== 'all' && grid !== name) continue;
    const rows = await fn();
    print(rows);
    const top = best(rows);
    console.log(`best ${name}: ${JSON.stringify(top.setting)} nDCG@10 ${top.metrics['ndcg@10'].toFixed(4)}\n`);
    all.push(...rows);
  }
  if (values.json)
    await writeFile(
      values.json,
      `${JSON.stringify({ dataset: dataset.name, split: dataset.split, rows: all }, null, 2)}\n`,
    );
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
