/**
 * The selection ablation: its units and measurement. The targets on the real SciFact test
 * split are in ablation.quality.test.ts (`npm run test:quality`, which `.ci/run` also runs).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../core/types';
import type { PackedSource } from '../core/select/pack';
import type { BeirDoc } from '../node/beir';
import {
  bestPerDocument,
  buildUnits,
  loadEvidence,
  measurePacked,
  SCIFACT_SELECTION,
  selectionCandidates,
  verificationCost,
  windowAbstract,
  type AblationConfig,
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
