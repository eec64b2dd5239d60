/**
 * The browser benchmark against the eval CLI on the same dataset: the same parsed records, the
 * same runs, the same metrics. The CLI side reads the files from disk (`loadBeir`) and runs
 * `src/cli/configs.ts` (dense: `src/cli/dense-run.ts`); the benchmark side reads the files'
 * texts and runs in-process what the worker runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beirFiles, writeBeir, type BeirFixture, TINY_BEIR } from '../../test/beir-fixture';
import { createEvalContext } from '../cli/configs';
import { evaluateConfigs } from '../cli/eval';
import { EvidentError } from '../core/errors';
import { METRIC_NAMES } from '../core/eval/metrics';
import type { Embedder } from '../models/embedder';
import { loadBeir, type BeirDataset } from '../node/beir';
import { loadUseEmbedderNode } from '../node/use-node';
import { runBenchmark } from './benchmark';
import { parseBenchmarkDataset, type BenchmarkDataset, type DatasetTexts } from './benchmark-dataset';

function texts(data: BeirFixture = TINY_BEIR): DatasetTexts {
  const f = beirFiles(data);
  return {
    name: 'tiny',
    split: 'test',
    corpus: { name: 'corpus.jsonl', text: f.corpus },
    queries: [{ name: 'queries.jsonl', text: f.queries }],
    qrels: { name: 'test.tsv', text: f.qrels },
  };
}

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<EvidentError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (err instanceof EvidentError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('the browser benchmark and the eval CLI on one dataset', () => {
  let dir: string;
  let cliDataset: BeirDataset;
  let dataset: BenchmarkDataset;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-bench-'));
    await writeBeir(dir);
    cliDataset = await loadBeir(dir, 'test');
    dataset = parseBenchmarkDataset(texts());
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads the same documents, queries and judgments as the Node loader', () => {
    expect(dataset.corpus).toEqual(cliDataset.corpus);
    expect(dataset.queries).toEqual(cliDataset.queries.map((q) => ({ id: q.id, text: q.text })));
    expect(dataset.qrels).toEqual(cliDataset.qrels);
    expect(dataset.warnings).toEqual([]);
  });

  it('gives the CLI numbers for bm25 and bm25-nostem, exactly', async () => {
    const cli = await evaluateConfigs(createEvalContext(cliDataset), ['bm25', 'bm25-nostem']);
    const ours = await runBenchmark(dataset, { configs: ['bm25', 'bm25-nostem'], embedder: null });
    expect(ours.configs.map((c) => c.name)).toEqual(['bm25', 'bm25-nostem']);
    for (const [i, c] of ours.configs.entries()) expect(c.metrics).toEqual(cli[i]!.metrics);
    // Not a degenerate fixture: the numbers differ between queries and are below perfect.
    expect(ours.configs[0]!.metrics['ndcg@10']).toBeGreaterThan(0.3);
    expect(ours.configs[0]!.metrics['ndcg@10']).toBeLessThan(1);
    expect(ours.dataset).toEqual({ name: 'tiny', split: 'test', documents: 15, queries: 8, judgments: 13 });
    expect(ours.embedderId).toBeNull();
  });

  it('reports each query’s nDCG@10, highest first, whose mean is the table’s nDCG@10', async () => {
    const ours = await runBenchmark(dataset, { configs: ['bm25'], embedder: null });
    const curve = ours.configs[0]!.ndcgByQuery;
    expect(curve).toHaveLength(8);
    expect([...curve].sort((a, b) => b - a)).toEqual(curve);
    expect(curve.reduce((a, b) => a + b, 0) / curve.length).toBeCloseTo(ours.configs[0]!.metrics['ndcg@10'], 12);
  });

  describe('with the USE lite embedder (dense, weighted, rrf)', () => {
    let embedder: Embedder;
    beforeAll(async () => {
      ({ embedder } = await loadUseEmbedderNode());
    });
    afterAll(() => embedder?.dispose());

    it('gives the CLI numbers', async () => {
      const { denseRun } = await import('../cli/dense-run');
      const names = ['dense', 'weighted', 'rrf'] as const;
      const cli = await evaluateConfigs(createEvalContext(cliDataset, { dense: denseRun }), names);
      const progress: string[] = [];
      const ours = await runBenchmark(dataset, {
        configs: names,
        embedder,
        onProgress: (p) => progress.push(`${p.config}:${p.stage}`),
      });
      for (const [i, c] of ours.configs.entries()) {
        for (const m of METRIC_NAMES) expect(c.metrics[m], `${c.name} ${m}`).toBeCloseTo(cli[i]!.metrics[m], 6);
      }
      expect(ours.embedderId).toBe(embedder.id);
      // The corpus is embedded once for the three configurations.
      expect(progress.filter((p) => p.endsWith(':embed')).every((p) => p.startsWith('dense:'))).toBe(true);
      expect(progress).toContain('weighted:search');
    });

    it('stops with `aborted` when cancelled while embedding', async () => {
      const controller = new AbortController();
      const err = await rejection(
        runBenchmark(dataset, {
          configs: ['dense'],
          embedder,
          signal: controller.signal,
          onProgress: (p) => {
            if (p.stage === 'embed') controller.abort();
          },
        }),
      );
      expect(err.code).toBe('aborted');
    });
  });
});

describe('bad benchmark files and options give plain messages', () => {
  const withCorpus = (corpus: string): DatasetTexts => ({ ...texts(), corpus: { name: 'corpus.jsonl', text: corpus } });

  it('names the file and the line of a broken record', async () => {
    const lines = beirFiles().corpus.split('\n');
    lines[2] = '{"_id": "d3", "title": "Coffee"';
    expect((await rejection(() => parseBenchmarkDataset(withCorpus(lines.join('\n'))))).message).toBe(
      '“corpus.jsonl” line 3 is not valid JSON. A BEIR .jsonl file has one JSON object per line.',
    );
    expect((await rejection(() => parseBenchmarkDataset(withCorpus('{"title": "x"}\n')))).message).toMatch(
      /“corpus\.jsonl” line 1 has no "_id"/,
    );
    expect((await rejection(() => parseBenchmarkDataset(withCorpus('{"_id": 1}\n{"_id": "1"}\n')))).message).toBe(
      '“corpus.jsonl” has the document id "1" twice (lines 1 and 2).',
    );
    expect((await rejection(() => parseBenchmarkDataset(withCorpus('\n\n')))).message).toBe(
      '“corpus.jsonl” has no documents.',
    );
    expect((await rejection(() => parseBenchmarkDataset(withCorpus('[1, 2]\n')))).message).toMatch(/not a JSON object/);
  });

  it('explains qrels that do not parse or do not match the queries', async () => {
    const qrels = (text: string): DatasetTexts => ({ ...texts(), qrels: { name: 'test.tsv', text } });
    const columns = await rejection(() => parseBenchmarkDataset(qrels('query-id\tcorpus-id\tscore\nq1 d1\n')));
    expect(columns.code).toBe('invalid_input');
    expect(columns.message).toMatch(/^“test\.tsv”: qrels line 2 has 2 columns.*query-id, tab, corpus-id, tab, score/);
    expect((await rejection(() => parseBenchmarkDataset(qrels('q98\td1\t1\nq99\td2\t1\n')))).message).toBe(
      '“test.tsv” judges 2 queries not found in “queries.jsonl” (first: "q98"). Are the files from the same dataset?',
    );
    expect((await rejection(() => parseBenchmarkDataset(qrels('query-id\tcorpus-id\tscore\n')))).message).toBe(
      '“test.tsv” judges no queries.',
    );
    const none = await rejection(() => parseBenchmarkDataset({ ...texts(), queries: [] }));
    expect(none.code).toBe('dataset_missing');
  });

  it('warns about judged documents missing from the corpus, and runs', async () => {
    const data = { ...TINY_BEIR, qrels: [...TINY_BEIR.qrels, ['q1', 'gone', 1] as const] };
    const parsed = parseBenchmarkDataset(texts(data));
    expect(parsed.warnings).toEqual([
      '1 judgment names a document not in “corpus.jsonl”: they count against recall but can never be retrieved.',
    ]);
    const result = await runBenchmark(parsed, { configs: ['bm25'], embedder: null });
    expect(result.warnings).toEqual(parsed.warnings);
  });

  it('refuses no configuration, an unknown one, a bad depth, and dense without a model', async () => {
    const dataset = parseBenchmarkDataset(texts());
    expect((await rejection(runBenchmark(dataset, { configs: [], embedder: null }))).code).toBe('invalid_option');
    expect((await rejection(runBenchmark(dataset, { configs: ['bm42' as never], embedder: null }))).message).toMatch(
      /Unknown configuration "bm42"/,
    );
    expect((await rejection(runBenchmark(dataset, { configs: ['bm25'], depth: 0, embedder: null }))).code).toBe(
      'invalid_option',
    );
    const dense = await rejection(runBenchmark(dataset, { configs: ['bm25', 'weighted'], embedder: null }));
    expect(dense.code).toBe('model_not_found');
    expect(dense.message).toMatch(/run BM25 only/);
  });
});
