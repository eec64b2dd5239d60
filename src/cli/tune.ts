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
 * - terms:  query-term weights for BM25 (src/core/retrieval/term-weights.ts): θ fitted by
 *           `fitTermWeights` on BM25 top 200 ∪ dense top 100 per claim; 5-fold cross-validation
 *           (held-out folds scored by real retrieval runs), then the fit on all of train.
 * - fusion: RRF (k=60), and weighted fusion with w ∈ {0, 0.05, …, 1}, over plain BM25 and over
 *           term-weighted BM25 (the default pipeline's lexical side).
 * Refuses a split named "test": choosing on test would make the reported numbers optimistic.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { EvidentError } from '../core/errors';
import { evaluateRun, type MetricValues, type Run } from '../core/eval/metrics';
import type { Bm25Options } from '../core/lexical/bm25';
import type { Qrels } from '../core/eval/metrics';
import { RRF_K } from '../core/retrieval/fusion';
import {
  bm25TermStats,
  DEFAULT_TERM_COEFFICIENTS,
  PLAIN_TERM_COEFFICIENTS,
  searchWithTermWeights,
  weighQueryTerms,
  type TermCoefficients,
} from '../core/retrieval/term-weights';
import { fitTermWeights, type TermTrainingQuery } from '../core/retrieval/term-weights-fit';
import type { Hit } from '../core/types';
import { mulberry32 } from '../core/util/prng';
import { loadBeir } from '../node/beir';
import { BM25_STEM, createEvalContext, DENSE_STRATEGIES, DENSE_STRATEGY, fuseRuns, type EvalContext } from './configs';
import { runIfMain } from './common';

export const GRIDS = ['bm25', 'dense', 'terms', 'fusion', 'all'] as const;
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
  const rows: TuneRow[] = [];
  for (const lexical of ['terms', 'plain'] as const) {
    const bm25 = lexical === 'terms' ? ctx.bm25TermsRun(BM25_STEM) : ctx.bm25Run(BM25_STEM);
    for (const strategy of [DENSE_STRATEGY, ...DENSE_STRATEGIES.filter((s) => s !== DENSE_STRATEGY)]) {
      const dense = await ctx.denseRun(strategy);
      const base = { bm25: lexical, strategy };
      rows.push(row(ctx, 'fusion', { ...base, mode: 'rrf', k: RRF_K }, fuseRuns(bm25, dense, 'rrf', 0, ctx.depth)));
      for (let i = 0; i <= 20; i++) {
        const w = i / 20;
        rows.push(
          row(ctx, 'fusion', { ...base, mode: 'weighted', w }, fuseRuns(bm25, dense, 'weighted', w, ctx.depth)),
        );
      }
    }
  }
  return rows;
}

function rounded(c: TermCoefficients): Record<string, number> {
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
}

/** Candidates per claim for the term-weight fit: BM25 top 200 ∪ dense top 100. */
export const TERM_FIT_POOL = Object.freeze({ bm25: 200, dense: 100 });

/** Training queries for `fitTermWeights` (BM25 contributions of every candidate, per term). */
export async function termTrainingQueries(ctx: EvalContext): Promise<Map<string, TermTrainingQuery>> {
  const index = ctx.bm25Index(BM25_STEM);
  const stats = bm25TermStats(index);
  const bm25 = ctx.bm25Run(BM25_STEM);
  const dense = await ctx.denseRun(DENSE_STRATEGY);
  const out = new Map<string, TermTrainingQuery>();
  for (const q of ctx.dataset.queries) {
    const terms = weighQueryTerms(index.analyze(q.text), stats, PLAIN_TERM_COEFFICIENTS);
    const ids = new Set([
      ...(bm25.get(q.id) ?? []).slice(0, TERM_FIT_POOL.bm25).map((h) => h.id),
      ...(dense.get(q.id) ?? []).slice(0, TERM_FIT_POOL.dense).map((h) => h.id),
    ]);
    const rel = ctx.dataset.qrels.get(q.id);
    const contributions: number[][] = [];
    const relevant: boolean[] = [];
    for (const id of ids) {
      const hit = index.explain(q.text, id);
      const per = new Map((hit?.terms ?? []).map((t) => [t.term, t.queryTf > 0 ? t.contribution / t.queryTf : 0]));
      contributions.push(terms.map((t) => per.get(t.term) ?? 0));
      relevant.push((rel?.get(id) ?? 0) > 0);
    }
    out.set(q.id, { features: terms.map((t) => t.features), qtf: terms.map((t) => t.qtf), contributions, relevant });
  }
  return out;
}

/** Term-weighted BM25 run over some queries with coefficients θ. */
function termsRun(ctx: EvalContext, queryIds: ReadonlySet<string>, theta: TermCoefficients): Run {
  const index = ctx.bm25Index(BM25_STEM);
  const stats = bm25TermStats(index);
  const run = new Map<string, Hit[]>();
  for (const q of ctx.dataset.queries) {
    if (!queryIds.has(q.id)) continue;
    run.set(
      q.id,
      searchWithTermWeights(index, index.analyze(q.text), { k: ctx.depth }, { stats, coefficients: theta }),
    );
  }
  return run;
}

function qrelsOf(ctx: EvalContext, ids: ReadonlySet<string>): Qrels {
  return new Map([...ctx.dataset.qrels].filter(([qid]) => ids.has(qid)));
}

export async function tuneTerms(ctx: EvalContext, folds = 5, seed = 1): Promise<TuneRow[]> {
  const training = await termTrainingQueries(ctx);
  const ids = [...training.keys()];
  const random = mulberry32(seed);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
  }
  const rows: TuneRow[] = [];
  // Cross-validation: each fold's θ comes from the other folds; held-out queries are scored by
  // real retrieval runs, and the per-query values are pooled into one mean.
  const perQuery: number[] = [];
  const plainPerQuery: number[] = [];
  for (let f = 0; f < folds; f++) {
    const held = new Set(ids.filter((_, i) => i % folds === f));
    const fit = fitTermWeights(ids.filter((id) => !held.has(id)).map((id) => training.get(id) as TermTrainingQuery));
    const qrels = qrelsOf(ctx, held);
    const evaluated = evaluateRun(termsRun(ctx, held, fit.coefficients), qrels);
    const plain = evaluateRun(termsRun(ctx, held, PLAIN_TERM_COEFFICIENTS), qrels);
    for (const id of held) {
      perQuery.push(evaluated.perQuery.get(id)?.['ndcg@10'] ?? 0);
      plainPerQuery.push(plain.perQuery.get(id)?.['ndcg@10'] ?? 0);
    }
    rows.push({ grid: 'terms-fold', setting: { fold: f, ...rounded(fit.coefficients) }, metrics: evaluated.mean });
  }
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(
    `terms: ${folds}-fold cross-validated nDCG@10 ${mean(perQuery).toFixed(4)} (plain BM25 on the same folds ${mean(plainPerQuery).toFixed(4)})`,
  );
  const all = fitTermWeights([...training.values()]);
  const everyone = new Set(ids);
  rows.push({
    grid: 'terms',
    setting: { fit: 'all train', ...rounded(all.coefficients) },
    metrics: evaluateRun(termsRun(ctx, everyone, all.coefficients), ctx.dataset.qrels).mean,
  });
  rows.push({
    grid: 'terms',
    setting: { fit: 'shipped', ...DEFAULT_TERM_COEFFICIENTS },
    metrics: evaluateRun(termsRun(ctx, everyone, DEFAULT_TERM_COEFFICIENTS), ctx.dataset.qrels).mean,
  });
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
    ['terms', () => tuneTerms(ctx)],
    ['fusion', () => tuneFusion(ctx)],
  ];
  for (const [name, fn] of sections) {
    if (grid !== 'all' && grid !== name) continue;
    const rows = await fn();
    print(rows);
    const own = rows.filter((r) => r.grid === name);
    const top = best(own.length > 0 ? own : rows);
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

runIfMain(import.meta.url, main, { failureCode: 2 });
