/**
 * The selection ablation: its units and measurement (always), and the targets on the real
 * SciFact test split (shared data: skips with a notice when ../shared is missing, fails instead
 * under REQUIRE_SHARED=1).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Candidate } from '../core/types';
import type { PackedSource } from '../core/select/pack';
import type { Embedder } from '../models/embedder';
import { loadBeir, type BeirDataset, type BeirDoc } from '../node/beir';
import { describeShared, sharedPath } from '../node/shared-data';
import {
  ABLATION_ROWS,
  ABSTENTION_ROW,
  ablationJson,
  bestPerDocument,
  buildUnits,
  loadEvidence,
  measurePacked,
  runAblation,
  SCIFACT_SELECTION,
  selectionCandidates,
  verificationCost,
  windowAbstract,
  type AblationConfig,
  type AblationReport,
  type AblationRow,
} from './ablation';
import { packChunks } from './dense-run';

const words = (s: string): number => s.split(' ').filter((w) => w !== '').length;

const doc = (id: string, title: string, sentences: string[]): BeirDoc => ({
  id,
  title,
  text: sentences.join(' '),
  sentences,
});

describe('windowAbstract', () => {
  it('cuts title + sentences like packChunks and keeps the sentence indices', () => {
    const d = doc('d', 'T t', ['a a a', 'b b', 'c c c c', 'd']);
    expect(windowAbstract(d, words, 7)).toEqual([
      { embedText: 'T t a a a b b', from: 0, to: 2 },
      { embedText: 'T t c c c c d', from: 2, to: 4 },
    ]);
  });

  it('embeds exactly the texts packChunks embeds, so the dense cache hits (property)', () => {
    const sentence = fc.oneof(
      fc.constant(''),
      fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' ')),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('', 'T', 'Title here'),
        fc.array(sentence, { minLength: 0, maxLength: 15 }),
        fc.integer({ min: 1, max: 12 }),
        (title, sentences, max) => {
          const d = doc('d', title, sentences);
          expect(windowAbstract(d, words, max).map((w) => w.embedText)).toEqual(packChunks(d, words, max));
        },
      ),
    );
  });
});

describe('buildUnits', () => {
  const corpus = [doc('d1', 'Title one', ['A b c.', 'D e f.', 'G h i.']), doc('d2', 'Two', ['Only one.'])];
  const units = buildUnits(corpus, words, 5);

  it('makes linked chunks whose text is the abstract between their offsets, title as heading', () => {
    expect(units.ids).toEqual(['d1#0', 'd1#1', 'd1#2', 'd2#0']);
    for (const id of units.ids) {
      const c = units.chunks.get(id)!;
      const source = corpus.find((d) => d.id === c.docId)!;
      expect(c.text).toBe(source.text.slice(c.start, c.end));
      expect(c.headings).toEqual([source.title]);
    }
    expect(units.chunks.get('d1#0')).toMatchObject({ prevId: null, nextId: 'd1#1' });
    expect(units.chunks.get('d1#1')).toMatchObject({ prevId: 'd1#0', nextId: 'd1#2' });
    expect(units.chunks.get('d1#2')).toMatchObject({ prevId: 'd1#1', nextId: null });
    expect(units.chunks.get('d2#0')).toMatchObject({ prevId: null, nextId: null });
  });

  it('records the sentences each chunk holds and embeds title + text', () => {
    expect(units.sentences.get('d1#1')).toEqual([1]);
    expect(units.embedTexts[1]).toBe('Title one D e f.');
    expect(units.documents.get('d2')).toEqual({
      id: 'd2',
      title: 'Two',
      sourceType: 'peer_reviewed',
      status: 'current',
    });
  });
});

describe('loadEvidence', () => {
  it('merges a query’s rationale sentences per document and rejects malformed lines', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evident-evidence-'));
    await writeFile(
      path.join(dir, 'evidence-x.jsonl'),
      [
        '{"query-id": "1", "corpus-id": "d1", "label": "SUPPORT", "sentences": [2, 5]}',
        '{"query-id": "1", "corpus-id": "d1", "label": "SUPPORT", "sentences": [5, 7]}',
        '{"query-id": "1", "corpus-id": "d2", "label": "CONTRADICT", "sentences": [0]}',
        '',
      ].join('\n'),
    );
    const gold = await loadEvidence(dir, 'x');
    expect([...gold.get('1')!.get('d1')!].sort((a, b) => a - b)).toEqual([2, 5, 7]);
    expect([...gold.get('1')!.get('d2')!]).toEqual([0]);
    await writeFile(path.join(dir, 'evidence-y.jsonl'), '{"query-id": "1", "corpus-id": "d1", "sentences": "2"}\n');
    await expect(loadEvidence(dir, 'y')).rejects.toThrow(/sentences/);
    await expect(loadEvidence(dir, 'missing')).rejects.toThrow(/evidence-missing\.jsonl/);
  });
});

describe('measurePacked', () => {
  it('scores the packed documents against the qrels and their sentences against the gold', () => {
    const source = (chunkId: string): PackedSource =>
      ({ chunkId, docId: chunkId.split('#')[0]!, candidateId: chunkId }) as PackedSource;
    const sentences = new Map([
      ['d1#0', [0, 1, 2]],
      ['d1#1', [3, 4]],
      ['d9#0', [0, 1]],
    ]);
    const m = measurePacked(
      { sources: [source('d1#0'), source('d9#0')], tokens: 250 },
      new Map([
        ['d1', 1],
        ['d2', 1],
      ]),
      new Map([['d1', new Set([1, 3])]]),
      { sentences },
    );
    // Documents {d1, d9}: P 1/2, R 1/2, F1 1/2. Gold sentences of d1: 1 packed (in d1#0), 3 not.
    expect(m).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, docs: 2, tokens: 250, sentenceRecall: 0.5 });
  });

  it('counts only the sentences a trimmed source quotes in full', () => {
    const source = {
      chunkId: 'd1#0',
      docId: 'd1',
      candidateId: 'd1#0',
      spans: [{ start: 10, end: 30 }],
    } as unknown as PackedSource;
    const units = {
      sentences: new Map([['d1#0', [0, 1, 2]]]),
      sentenceSpans: new Map([
        [
          'd1#0',
          [
            [0, 9],
            [10, 30],
            [31, 50],
          ] as const,
        ],
      ]),
    };
    const m = measurePacked(
      { sources: [source], tokens: 20 },
      new Map([['d1', 1]]),
      new Map([['d1', new Set([0, 1])]]),
      units,
    );
    expect(m.sentenceRecall).toBe(0.5);
  });
});

describe('measurePacked, a source packed by document', () => {
  it('counts every sentence of the abstract its spans quote in full, whichever chunk holds it', () => {
    const units = buildUnits([doc('d1', 'T', ['A b c.', 'D e f.', 'G h i.'])], words, 4);
    expect(units.ids).toEqual(['d1#0', 'd1#1', 'd1#2']);
    // One source (its chunk d1#0) quoting sentence 0 and sentence 2 (chunk d1#2), not sentence 1.
    const source = {
      chunkId: 'd1#0',
      docId: 'd1',
      candidateId: 'd1#0',
      spans: [
        { start: 0, end: 6 },
        { start: 14, end: 20 },
      ],
    } as unknown as PackedSource;
    const m = measurePacked(
      { sources: [source], tokens: 9 },
      new Map([['d1', 1]]),
      new Map([['d1', new Set([1, 2])]]),
      units,
    );
    expect(m.sentenceRecall).toBe(0.5);
  });
});

describe('candidate grouping', () => {
  const cand = (id: string, score: number): Candidate => ({
    id,
    docId: id.split('#')[0]!,
    score,
    scores: {},
    ranks: {},
    trace: [],
  });
  const list = [cand('a#1', 0.5), cand('b#0', 0.7), cand('a#0', 0.9), cand('b#1', 0.8), cand('c#0', 0.1)];

  it('keeps each document’s best chunk, best first', () => {
    expect(bestPerDocument(list).map((c) => c.id)).toEqual(['a#0', 'b#1', 'c#0']);
  });

  it('hands selection the cascade depth, grouped or not', () => {
    const o = { ...SCIFACT_SELECTION.candidates, cascadeDepth: 2 };
    expect(selectionCandidates(list, { ...o, groupByDocument: false }).map((c) => c.id)).toEqual(['a#0', 'b#1']);
    expect(selectionCandidates(list, { ...o, groupByDocument: true, cascadeDepth: 3 }).map((c) => c.id)).toEqual([
      'a#0',
      'b#1',
      'c#0',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The targets on the SciFact test split
describe('verificationCost', () => {
  const config = (name: AblationConfig['name'], f1: number): AblationConfig => ({
    name,
    metrics: { precision: 0, recall: 0, f1, docs: 0, tokens: 0, sentence_recall: 0, queries: 1, evidenceQueries: 0 },
  });
  it('is the F1 of the packet without verify minus the F1 after abstention, null without both rows', () => {
    expect(
      verificationCost([config('full packet, no verify', 0.55), config('full packet + abstention', 0.542)]),
    ).toBeCloseTo(0.008, 10);
    expect(verificationCost([config('full packet', 0.55)])).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

// Dense vectors come from the embedding cache. A cold cache embeds ~29k chunks (and 300 claims)
// at 20–35 texts a second on one CPU core: 15–25 minutes before the first assertion. Warm, the
// whole suite takes about a minute.
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
      const { loadUseEmbedderNode } = await import('../node/use-node');
      embedder = (await loadUseEmbedderNode()).embedder;
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
