/**
 * The selection ablation's targets on the real SciFact test split (the `quality` vitest project:
 * `npm run test:quality`, which `.ci/run` runs after `npm test`). Shared data: skips with a notice
 * when ../shared is missing, fails instead under REQUIRE_SHARED=1. The units and the measurement
 * are tested in ablation.test.ts (`npm test`).
 *
 * It is apart from `npm test` because its thresholds hold for the whole corpus with dense
 * vectors: a cold embedding cache fills ~29k chunks first (filled with `fillProcesses()`
 * processes, bit-identical vectors; the SciFact `eval --check` in `.ci/run` then reads the same
 * vectors from the cache).
 */
import { beforeAll, expect, it } from 'vitest';
import type { Embedder } from '../models/embedder';
import { loadBeir, type BeirDataset } from '../node/beir';
import { describeShared, sharedPath } from '../node/shared-data';
import {
  ABLATION_ROWS,
  ABSTENTION_ROW,
  ablationJson,
  buildUnits,
  runAblation,
  verificationCost,
  windowAbstract,
  type AblationReport,
  type AblationRow,
} from './ablation';
import { packChunks } from './dense-run';

// Dense vectors come from the embedding cache. A cold cache embeds ~29k chunks (and 300 claims)
// at 20–35 texts a second per CPU core: 15–25 minutes on one core before the first assertion,
// about half with two processes. Warm, the whole suite takes about a minute.
const COLD_CACHE_MS = 45 * 60_000;

describeShared(
  'selection ablation on SciFact test (targets of the evidence selection engine)',
  ['datasets/scifact/corpus.jsonl', 'datasets/scifact/qrels/test.tsv', 'datasets/scifact/evidence-test.jsonl'],
  () => {
    let dataset: BeirDataset;
    let embedder: Embedder;
    let report: AblationReport;
    const row = (name: AblationRow) => report.configs.find((c) => c.name === name)!.metrics;

    beforeAll(async () => {
      dataset = await loadBeir(sharedPath('datasets', 'scifact'), 'test');
      const { fillProcesses, loadUseEmbedderNode } = await import('../node/use-node');
      embedder = (await loadUseEmbedderNode({ processes: fillProcesses() })).embedder;
      report = await runAblation(dataset, { embedder });
    }, COLD_CACHE_MS);

    it('cuts every abstract exactly as the dense maxchunk run does (same texts, same cache keys)', () => {
      const count = (t: string): number => embedder.countTokens(t);
      for (const d of dataset.corpus) {
        expect(windowAbstract(d, count, embedder.maxTokens).map((w) => w.embedText)).toEqual(
          packChunks(d, count, embedder.maxTokens),
        );
      }
    });

    it('covers every sentence of every abstract exactly once, in order', () => {
      const units = buildUnits(dataset.corpus, (t) => embedder.countTokens(t), embedder.maxTokens);
      const byDoc = new Map<string, number[]>();
      for (const id of units.ids) {
        const docId = units.chunks.get(id)!.docId;
        byDoc.set(docId, [...(byDoc.get(docId) ?? []), ...units.sentences.get(id)!]);
      }
      for (const d of dataset.corpus) {
        expect(byDoc.get(d.id)).toEqual(d.sentences!.map((_, i) => i));
      }
    });

    it('reports every row, over all 300 claims and the 188 with rationales, in the documented JSON shape', () => {
      expect(report.queries).toBe(300);
      expect(report.evidenceQueries).toBe(188);
      expect(ablationJson(report)).toEqual({
        dataset: 'scifact',
        split: 'test',
        // Every row of the table, in its order.
        configs: ABLATION_ROWS.map((name) => ({
          name,
          metrics: {
            precision: expect.any(Number),
            recall: expect.any(Number),
            f1: expect.any(Number),
            docs: expect.any(Number),
            tokens: expect.any(Number),
            sentence_recall: expect.any(Number),
          },
          ...(name === ABSTENTION_ROW ? { abstained: expect.any(Number) } : {}),
        })),
      });
    });

    // Issue target. Every test claim has relevant abstracts: an abstention there withholds evidence
    // the user needed, and a packet the verifier changed can lose a relevant abstract.
    it('target: the verifier and abstention cost at most 0.01 of selection F1 on answerable claims', () => {
      const cost = verificationCost(report.configs);
      expect(cost).not.toBeNull();
      expect(cost!).toBeLessThanOrEqual(0.01);
      // The row is real: the app does abstain on some claims, and a withheld claim selects nothing.
      const abstained = report.configs.find((c) => c.name === 'full packet + abstention')!.abstained!;
      expect(abstained).toBeGreaterThan(0);
      expect(row('full packet + abstention').docs).toBeLessThan(row('full packet').docs);
    });

    it('target: the full packet selects fewer documents than top-3 on average', () => {
      expect(row('full packet').docs).toBeLessThan(row('top-3').docs);
    });

    // Guards at the measured level (test, term-weighted retrieval: F1 0.570, 1.16 docs, 228 tokens,
    // sentence recall 0.510; top-1 F1 0.560, top-3 0.571 at 336 tokens / 0.592). Each fails if
    // selection regresses.
    it('the full packet beats top-1, top-5 and top-10 on F1 and keeps F1 ≥ 0.56', () => {
      const f1 = row('full packet').f1;
      expect(f1).toBeGreaterThanOrEqual(0.56);
      for (const k of ['top-1', 'top-5', 'top-10'] as const) expect(f1).toBeGreaterThan(row(k).f1);
    });

    it('the full packet buys more sentence recall per token than top-k (above the top-1 → top-3 line)', () => {
      const full = row('full packet');
      const [a, b] = [row('top-1'), row('top-3')];
      expect(full.tokens).toBeGreaterThan(a.tokens);
      expect(full.tokens).toBeLessThan(b.tokens);
      const line =
        a.sentence_recall +
        ((full.tokens - a.tokens) / (b.tokens - a.tokens)) * (b.sentence_recall - a.sentence_recall);
      expect(full.sentence_recall).toBeGreaterThan(line);
    });

    it('the elbow alone keeps more rationale sentences than top-5, in fewer tokens, at a higher F1', () => {
      const [elbow, top5] = [row('elbow'), row('top-5')];
      expect(elbow.sentence_recall).toBeGreaterThan(top5.sentence_recall);
      expect(elbow.tokens).toBeLessThan(top5.tokens);
      expect(elbow.f1).toBeGreaterThan(top5.f1);
    });

    it('top-k over documents: each row selects k documents and recall grows with k', () => {
      for (const k of [1, 2, 3, 5]) expect(row(`top-${k} docs`).docs).toBe(k);
      expect(row('top-3 docs').recall).toBeGreaterThan(row('top-1 docs').recall);
      // The reference points count documents: top-3 over documents is far below the packet's F1.
      expect(row('full packet').f1).toBeGreaterThan(row('top-3 docs').f1);
      expect(row('full packet').docs).toBeLessThan(row('top-3 docs').docs);
    });

    it('packing by document stays within half of top-3’s tokens and keeps the packet’s documents mostly', () => {
      const byDoc = row('full packet, by document');
      expect(byDoc.tokens).toBeLessThanOrEqual(row('top-3').tokens / 2);
      expect(byDoc.tokens).toBeLessThanOrEqual(row('top-3 docs').tokens / 2);
      // Guard at the measured level (test: 0.401 at 152 tokens, F1 0.563).
      expect(byDoc.sentence_recall).toBeGreaterThanOrEqual(0.39);
      expect(byDoc.f1).toBeGreaterThanOrEqual(0.55);
    });

    // Not met yet (numbers and reasons in the header of ./ablation.ts): these are expected failures, so the
    // suite stays green while the gap is known and turns red the day they pass — then make them
    // plain `it`. Recall needs better scores at the top (top-3 documents reach only 0.71 recall).
    it.fails('target (not met): full packet F1 ≥ 0.60 with recall ≥ 0.70', () => {
      expect(row('full packet').f1).toBeGreaterThanOrEqual(0.6);
      expect(row('full packet').recall).toBeGreaterThanOrEqual(0.7);
    });

    it.fails('target (not met): sentence recall ≥ top-3’s at no more than half of top-3’s tokens', () => {
      expect(row('full packet').sentence_recall).toBeGreaterThanOrEqual(row('top-3').sentence_recall);
      expect(row('full packet').tokens).toBeLessThanOrEqual(row('top-3').tokens / 2);
    });

    // The same target against top-3 over documents (the reading), for the packet packed by
    // document: test 0.401 at 152 tokens against top-3 documents' 0.411 at 337.
    it.fails('target (not met): by-document packet ≥ top-3 documents’ sentence recall at half their tokens', () => {
      const byDoc = row('full packet, by document');
      expect(byDoc.sentence_recall).toBeGreaterThanOrEqual(row('top-3 docs').sentence_recall);
      expect(byDoc.tokens).toBeLessThanOrEqual(row('top-3 docs').tokens / 2);
    });
  },
);
