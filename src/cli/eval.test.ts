/**
 * Quality thresholds on the real SciFact test split for the lexical configs (a few seconds),
 * graded against the same pinned matrix `npm run eval -- --check` uses. Skips with a notice when
 * ../shared is missing; fails instead under REQUIRE_SHARED=1.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MetricValues } from '../core/eval/metrics';
import { loadBeir } from '../node/beir';
import { describeShared, sharedPath } from '../node/shared-data';
import { createEvalContext } from './configs';
import { evaluateConfigs, toJsonReport } from './eval';
import { gradeOne, gradeRun, readRegressionFile } from './regression';

describeShared(
  'SciFact test, lexical configs',
  ['datasets/scifact/corpus.jsonl', 'datasets/scifact/qrels/test.tsv'],
  () => {
    const metrics = new Map<string, MetricValues>();
    let report: object = {};

    beforeAll(async () => {
      const dataset = await loadBeir(sharedPath('datasets', 'scifact'), 'test');
      const results = await evaluateConfigs(createEvalContext(dataset), ['bm25-nostem', 'bm25']);
      for (const r of results) metrics.set(r.name, r.metrics);
      report = toJsonReport(dataset, results);
    });

    it('BM25 without stemming reproduces the BEIR paper: nDCG@10 within 0.665 ± 0.01', () => {
      const ndcg = metrics.get('bm25-nostem')!['ndcg@10'];
      expect(ndcg).toBeGreaterThanOrEqual(0.655);
      expect(ndcg).toBeLessThanOrEqual(0.675);
    });

    it('BM25 with stemming reaches nDCG@10 ≥ 0.68', () => {
      expect(metrics.get('bm25')!['ndcg@10']).toBeGreaterThanOrEqual(0.68);
    });

    it('the JSON report has the documented shape', () => {
      expect(report).toEqual({
        dataset: 'scifact',
        split: 'test',
        configs: ['bm25-nostem', 'bm25'].map((name) => ({
          name,
          metrics: {
            'ndcg@10': expect.any(Number),
            'recall@10': expect.any(Number),
            'recall@100': expect.any(Number),
            'mrr@10': expect.any(Number),
            map: expect.any(Number),
            'p@10': expect.any(Number),
          },
        })),
      });
    });

    it('no pinned lexical metric fails the regression matrix', async () => {
      const file = await readRegressionFile(fileURLToPath(new URL('../../test/regression.json', import.meta.url)));
      const graded = gradeRun(
        file,
        'scifact',
        'test',
        [...metrics].map(([name, m]) => ({ name, metrics: m })),
      );
      expect(graded.length).toBeGreaterThanOrEqual(12);
      expect(graded.filter((g) => g.grade === 'fail')).toEqual([]);
    });
  },
);

describe('regression grading', () => {
  const entry = { expected: 0.7, tolerance: 0.001 };
  it('grades ok / okish / fail by distance and enforces floors and ceilings', () => {
    expect(gradeOne(0.7005, entry).grade).toBe('ok');
    expect(gradeOne(0.7025, entry).grade).toBe('okish');
    expect(gradeOne(0.695, entry).grade).toBe('fail');
    expect(gradeOne(0.7, { ...entry, min: 0.71 }).grade).toBe('fail');
    expect(gradeOne(0.7, { ...entry, max: 0.69 }).grade).toBe('fail');
    expect(gradeOne(NaN, entry).grade).toBe('fail');
  });
});
