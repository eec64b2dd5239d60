import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedbackRecord } from '../core/library-format';
import { DEFAULT_SOURCE_LAMBDAS, MemoryPriorStore } from '../core/select/priors';
import type { Result } from './api';
import { appApi, READ_MAX_COUNT, readDocumentView, recordFeedback, type RunCall } from './app-api';
import type { FileQueue } from './ingest-files';
import { Engine } from './engine';
import { asResult } from './result';
import { SettingsHost, type SettingsStore } from './settings';
import { bytesOf, WordHashEmbedder } from './testing';

const LONG = `# Handbook\n\n${Array.from({ length: 30 }, (_, i) => `## Part ${i}\n\nParagraph ${i} of the handbook says something about topic ${i}.\n`).join('\n')}`;

let engine: Engine;
beforeEach(async () => {
  engine = new Engine();
  engine.setEmbedder(new WordHashEmbedder());
  await engine.addDocument({ docId: 'h', title: 'Handbook', text: LONG, format: 'markdown', sourceType: 'blog' });
});

function store(): SettingsStore {
  const map = new Map<string, unknown>();
  return {
    getSetting: async (k) => map.get(k),
    setSetting: async (k, v) => void map.set(k, v),
    priors: new MemoryPriorStore(),
  };
}

describe('readDocumentView', () => {
  it('returns a window of passages in reading order with the document metadata', () => {
    const v = readDocumentView(engine, 'h', { from: 2, count: 3 });
    expect(v).toMatchObject({ docId: 'h', title: 'Handbook', sourceType: 'blog', format: 'markdown', from: 2 });
    expect(v.total).toBe(engine.document('h')!.chunks);
    expect(v.passages.map((p) => p.ordinal)).toEqual([2, 3, 4]);
    expect(v.passages[0]!.text.length).toBeGreaterThan(0);
  });

  it('rejects a missing document and bad windows', () => {
    expect(() => readDocumentView(engine, 'nope')).toThrow(/no longer in the library/);
    expect(() => readDocumentView(engine, 'h', { count: READ_MAX_COUNT + 1 })).toThrow(/count/);
    expect(() => readDocumentView(engine, 'h', { from: -1 })).toThrow(/from/);
  });
});

describe('recordFeedback', () => {
  it('moves the document λ up for helpful and down for misleading, stores the state and logs the mark', async () => {
    const kept = store();
    const settings = new SettingsHost(() => kept);
    const log: FeedbackRecord[] = [];
    const feedbackLog = () => ({ addFeedback: async (r: FeedbackRecord) => log.push(r) });
    // One clock for both marks: λ decays with time, so a second read at a later Date.now() would
    // differ from the first by however long the first call took.
    const now = Date.UTC(2025, 0, 1);
    const up = await recordFeedback(
      { engine, settings, feedbackLog },
      { docId: 'h', verdict: 'helpful', chunkId: 'h#1', question: 'q?' },
      now,
    );
    expect(up.before).toBe(DEFAULT_SOURCE_LAMBDAS.blog);
    expect(up.after).toBeGreaterThan(up.before);
    expect(up.persistent).toBe(true);
    const down = await recordFeedback({ engine, settings, feedbackLog }, { docId: 'h', verdict: 'misleading' }, now);
    expect(down.before).toBe(up.after);
    expect(down.after).toBeLessThan(down.before);
    expect((await settings.priors()).docs.h).toBeDefined();
    expect(log.map((r) => [r.docId, r.verdict, r.chunkId, r.query])).toEqual([
      ['h', 'helpful', 'h#1', 'q?'],
      ['h', 'misleading', undefined, undefined],
    ]);
  });

  it('keeps feedback in memory when there is no store, and says so', async () => {
    const settings = new SettingsHost(() => null);
    const r = await recordFeedback({ engine, settings }, { docId: 'h', verdict: 'misleading' });
    expect(r.persistent).toBe(false);
    expect((await settings.priors()).docs.h?.delta).toBeLessThan(0);
  });

  it('rejects unknown verdicts and documents', async () => {
    const settings = new SettingsHost(() => null);
    await expect(recordFeedback({ engine, settings }, { docId: 'h', verdict: 'meh' as never })).rejects.toThrow(
      /verdict/,
    );
    await expect(recordFeedback({ engine, settings }, { docId: 'x', verdict: 'helpful' })).rejects.toThrow(/no longer/);
  });
});

describe('appApi', () => {
  // The worker's `run` without the abort registry: errors as values, progress passed through.
  const run: RunCall = (_options, onProgress, fn) =>
    asResult(() => fn(new AbortController().signal, (p) => onProgress?.(p as never)));
  const api = () =>
    appApi({
      run,
      engine,
      settings: new SettingsHost(() => null),
      ready: async () => undefined,
      exclusive: (fn) => fn(),
      embedder: () => null,
    });

  it('adds files and asks about them through the API, errors as values', async () => {
    const a = api();
    const added = await a.addFiles(
      [
        {
          fileId: '1',
          name: 'leave.md',
          mimeType: '',
          bytes: bytesOf('# Leave\n\nEmployees receive 28 days of annual leave per year.\n'),
        },
      ],
      {},
    );
    expect(added).toMatchObject({ ok: true, value: { files: [{ ok: true, docId: 'file:leave.md' }] } });
    const asked = await a.ask('How many days of annual leave do employees receive?', {});
    expect(asked.ok).toBe(true);
    const value = (asked as Extract<Result<unknown>, { ok: true }>).value as { sources: { docId: string }[] };
    expect(value.sources.some((s) => s.docId === 'file:leave.md')).toBe(true);
    expect(await a.ask('', {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await a.readDocument('missing')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('queues a batch of files in the library queue before adding them, and empties it as they are stored', async () => {
    const queued: { docId: string; kind: string }[][] = [];
    const dequeued: number[] = [];
    let next = 1;
    const queue: FileQueue = {
      enqueue: async (entries) => {
        queued.push(entries.map((e) => ({ docId: e.docId, kind: e.source.kind })));
        return entries.map((e) => ({ ...e, seq: next++ }));
      },
      queued: async () => [],
      dequeue: async (seq) => void dequeued.push(seq),
      beginQueued: async () => 1,
    };
    const a = appApi({
      run,
      engine,
      settings: new SettingsHost(() => null),
      ready: async () => undefined,
      exclusive: (fn) => fn(),
      embedder: () => null,
      queue: () => queue,
    });
    const added = await a.addFiles(
      [
        { fileId: '1', name: 'a.md', mimeType: '', bytes: bytesOf('# A\n\nAlpha text.\n') },
        { fileId: '2', name: 'b.txt', mimeType: '', bytes: new ArrayBuffer(0) },
        { fileId: '3', name: 'c.txt', mimeType: '', bytes: bytesOf('Gamma text.') },
      ],
      {},
    );
    expect(added.ok && added.value.files.map((f) => f.ok)).toEqual([true, false, true]);
    // The empty file is refused at once and not queued.
    expect(queued).toEqual([
      [
        { docId: 'file:a.md', kind: 'bytes' },
        { docId: 'file:c.txt', kind: 'bytes' },
      ],
    ]);
    // The empty file was never queued, so nothing was dropped (stored files leave the queue in their document's transaction).
    expect(dequeued).toEqual([]);
  });

  it('reads, updates and resets settings', async () => {
    const a = api();
    const updated = await a.updateSettings({ values: { budget: 700 } });
    expect(updated).toMatchObject({ ok: true, value: { values: { budget: 700 } } });
    expect(await a.updateSettings({ values: { budget: 1 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    const reset = await a.resetSettings();
    expect(reset).toMatchObject({ ok: true, value: { values: { budget: 3000 } } });
  });
});
