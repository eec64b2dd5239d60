import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import { loadBeir } from './beir';

function dataset(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'beir-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const corpus = [
  { _id: 'd1', title: 'T1', text: 'one', sentences: ['one'] },
  { _id: 'd2', title: 'T2', text: 'two' },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

describe('loadBeir', () => {
  it('SciFact layout: test queries in queries.jsonl, train in queries-train.jsonl', async () => {
    const dir = dataset({
      'corpus.jsonl': corpus,
      'queries.jsonl': '{"_id":"1","text":"test claim"}\n{"_id":"3","text":"unjudged"}\n',
      'queries-train.jsonl': '{"_id":"0","text":"train claim"}\n',
      'qrels/test.tsv': 'query-id\tcorpus-id\tscore\n1\td1\t1\n',
      'qrels/train.tsv': 'query-id\tcorpus-id\tscore\n0\td2\t1\n',
    });
    const test = await loadBeir(dir, 'test');
    expect(test.queries).toEqual([{ id: '1', text: 'test claim', meta: {} }]);
    expect(test.corpus).toEqual([
      { id: 'd1', title: 'T1', text: 'one', sentences: ['one'] },
      { id: 'd2', title: 'T2', text: 'two' },
    ]);
    const train = await loadBeir(dir, 'train');
    expect(train.queries.map((q) => q.text)).toEqual(['train claim']);
    expect(train.qrels.get('0')?.get('d2')).toBe(1);
    expect(train.name).toBe(path.basename(dir));
  });

  it('MuSiQue layout: extra query fields are kept as meta', async () => {
    const dir = dataset({
      'corpus.jsonl': corpus,
      'queries.jsonl': '{"_id":"2hop_1","text":"q?","answer":"1940","answer_aliases":[],"hops":2}\n',
      'qrels/test.tsv': 'query-id\tcorpus-id\tscore\n2hop_1\td1\t1\n2hop_1\td2\t1\n',
    });
    const ds = await loadBeir(dir);
    expect(ds.queries[0]).toEqual({ id: '2hop_1', text: 'q?', meta: { answer: '1940', answer_aliases: [], hops: 2 } });
    expect(ds.qrels.get('2hop_1')?.size).toBe(2);
  });

  it('names the missing path with code dataset_missing', async () => {
    const dir = dataset({ 'corpus.jsonl': corpus, 'queries.jsonl': '' });
    const err = await loadBeir(dir, 'dev').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvidentError);
    expect((err as EvidentError).code).toBe('dataset_missing');
    expect((err as EvidentError).message).toContain(path.join(dir, 'qrels', 'dev.tsv'));
    const gone = await loadBeir(path.join(dir, 'nope')).catch((e: unknown) => e);
    expect((gone as EvidentError).code).toBe('dataset_missing');
  });

  it('rejects qrels that judge queries no file holds', async () => {
    const dir = dataset({
      'corpus.jsonl': corpus,
      'queries.jsonl': '{"_id":"1","text":"a"}\n',
      'qrels/test.tsv': 'query-id\tcorpus-id\tscore\n9\td1\t1\n',
    });
    await expect(loadBeir(dir)).rejects.toThrow(/judges 1 queries not found/);
  });
});
