import { describe, expect, it } from 'vitest';
import type { LibraryDocument } from '../worker/api';
import type { IngestJob } from './ingest-store';
import type { LibraryState, ModelState } from './session';
import { libraryTotals, statusLines } from './status-line';

const doc = (docId: string, title: string, chunks: number, vectors: number): LibraryDocument => ({
  docId,
  title,
  chunks,
  vectors,
  sourceType: 'official_filing',
  status: 'current',
});
const ready = (documents: LibraryDocument[]): LibraryState => ({ phase: 'ready', documents, chunks: 0, embedMs: 0 });
const modelReady: ModelState = {
  phase: 'ready',
  info: {
    id: 'use',
    dim: 512,
    maxTokens: 128,
    bytes: 1,
    downloadMs: 0,
    initMs: 0,
    warmupMs: 0,
    backend: { name: 'wasm', threads: 1, simd: true, crossOriginIsolated: true, reason: '' },
  },
};
const job = (patch: Partial<IngestJob>): IngestJob => ({
  id: 'f1',
  name: 'report.pdf',
  size: 1,
  status: 'working',
  phase: 'parse',
  done: 0,
  total: 0,
  error: null,
  result: null,
  wrongPassword: false,
  ...patch,
});
const none = { docId: null, rate: null };

describe('statusLines', () => {
  it('says nothing when nothing is in progress', () => {
    const library = ready([doc('a', 'A', 10, 10)]);
    expect(statusLines({ model: modelReady, library, jobs: [], embedding: none })).toEqual([]);
  });

  it('names the document in flight, its counts and the time left for every document still without vectors', () => {
    const library = ready([
      doc('a', 'Done', 10, 10),
      doc('b', 'Annual report 2022', 3804, 276),
      doc('c', 'Next', 600, 0),
    ]);
    // (3,528 + 600) chunks at 8 chunks/s: 516 s, "about 9 min".
    const lines = statusLines({ model: modelReady, library, jobs: [], embedding: { docId: 'b', rate: 8 } });
    expect(lines).toEqual([
      {
        kind: 'vectors',
        text: 'Annual report 2022 — searchable · computing meaning vectors 276 / 3,804 · 1 more document after it · about 9 min left',
        docId: 'b',
        vectors: 276,
        chunks: 3804,
      },
    ]);
  });

  it('without a measured rate gives no time; without a model says the vectors wait for it', () => {
    const library = ready([doc('b', 'Report', 20, 0)]);
    expect(statusLines({ model: modelReady, library, jobs: [], embedding: none })[0]?.text).toBe(
      'Report — searchable · computing meaning vectors 0 / 20',
    );
    const failed: ModelState = { phase: 'error', error: { code: 'model_load_failed', message: 'x' } };
    expect(statusLines({ model: failed, library, jobs: [], embedding: { docId: null, rate: 5 } })[0]?.text).toBe(
      'Report — searchable · meaning vectors wait for the embedding model',
    );
  });

  it('says which file is being read and how many wait, before the vectors line', () => {
    const library = ready([doc('b', 'Report', 20, 4)]);
    const jobs = [
      job({ id: 'f1', name: '3M_2022_10K.pdf', phase: 'parse', done: 120, total: 252 }),
      job({ id: 'f2', name: 'second.pdf', status: 'waiting', phase: null }),
      job({ id: 'f3', name: 'done.md', status: 'done', phase: 'done' }),
    ];
    const lines = statusLines({ model: modelReady, library, jobs, embedding: { docId: 'b', rate: null } });
    expect(lines.map((l) => [l.kind, l.text])).toEqual([
      ['read', 'Reading “3M_2022_10K.pdf” · page 120 / 252 · 1 more file waiting'],
      ['vectors', 'Report — searchable · computing meaning vectors 4 / 20'],
    ]);
  });

  it('says the model is loading, with bytes', () => {
    const loading: ModelState = {
      phase: 'loading',
      progress: { phase: 'download', loadedBytes: 1024 * 1024, totalBytes: 4 * 1024 * 1024 },
    };
    expect(statusLines({ model: loading, library: { phase: 'idle' }, jobs: [], embedding: none })).toEqual([
      { kind: 'model', text: 'Loading the embedding model · 1.0 MB of 4.0 MB' },
    ]);
  });
});

describe('libraryTotals', () => {
  it('describes the whole library, in words that agree with their counts', () => {
    expect(libraryTotals([])).toBe('0 documents · 0 chunks');
    expect(libraryTotals([doc('a', 'A', 1, 1)])).toBe('1 document · 1 chunk · all with meaning vectors');
    expect(libraryTotals([doc('a', 'A', 3000, 64), doc('b', 'B', 826, 826)])).toBe(
      '2 documents · 3,826 chunks · 890 with meaning vectors (23 %)',
    );
  });
});
