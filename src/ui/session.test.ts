import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import type { AddDocumentInput, AddDocumentsResult, BatchProgress, SearchResponse } from '../worker/api';
import { fakeLibraryCalls, FAKE_EMBEDDER, settle } from '../../test/session-fixture';
import { EvidentSession } from './session';
import type { ClientEvent } from './worker-client';

const DOCS: AddDocumentInput[] = [
  { docId: 'a', title: 'A', text: 'alpha', format: 'text' },
  { docId: 'b', title: 'B', text: 'beta', format: 'text' },
];

function response(query: string): SearchResponse {
  return {
    query,
    hits: [],
    queryTerms: [query],
    dense: true,
    fusion: 'rrf',
    timings: { lexicalMs: 0, embedMs: 0, denseMs: 0, fuseMs: 0 },
  };
}

/** A scripted stand-in for the worker client; the session is the unit under test. */
function fakeClient() {
  let listener: (e: ClientEvent) => void = () => {};
  const added: string[] = [];
  const searches: { query: string; signal?: AbortSignal }[] = [];
  let loads = 0;
  let demoInstalled = false;
  const client = {
    loadEmbedder: async (
      opts: { onProgress?: (p: { phase: 'download'; loadedBytes: number; totalBytes: number }) => void } = {},
    ) => {
      loads++;
      opts.onProgress?.({ phase: 'download', loadedBytes: 5, totalBytes: 10 });
      return FAKE_EMBEDDER;
    },
    addDocument: async (doc: AddDocumentInput) => {
      added.push(doc.docId);
      return { docId: doc.docId, chunks: 1, tokens: 1, chunkMs: 0, embedMs: 2, indexMs: 0, replaced: false };
    },
    // Storage as the worker keeps it: survives a worker restart.
    ...fakeLibraryCalls(added, () => ({
      demoInstalled,
      lexical: 'rebuilt',
      timings: { openMs: 1, readMs: 1, lexicalMs: 1, searchableMs: 3, vectorsMs: 1, loadedMs: 4 },
    })),
    addDocuments: async (
      docs: readonly AddDocumentInput[],
      opts: { installDemo?: boolean; onProgress?: (p: BatchProgress) => void } = {},
    ): Promise<AddDocumentsResult> => {
      if (opts.installDemo) demoInstalled = true;
      const out = [];
      for (const [index, doc] of docs.entries()) {
        opts.onProgress?.({
          docId: doc.docId,
          phase: 'index',
          done: 1,
          total: 1,
          index,
          count: docs.length,
          title: doc.title,
        });
        added.push(doc.docId);
        out.push({ docId: doc.docId, chunks: 1, tokens: 1, chunkMs: 0, embedMs: 2, indexMs: 0, replaced: false });
      }
      return { added: out, failed: [] };
    },
    deleteDocument: async (docId: string) => {
      const at = added.indexOf(docId);
      if (at >= 0) added.splice(at, 1);
      return at >= 0;
    },
    search: (query: string, opts: { signal?: AbortSignal } = {}) => {
      searches.push({ query, signal: opts.signal });
      return new Promise<SearchResponse>((resolve, reject) => {
        if (query === 'fail') reject(new EvidentError('internal', 'broken'));
        opts.signal?.addEventListener('abort', () => reject(new EvidentError('aborted', 'Cancelled.')));
        setTimeout(() => resolve(response(query)), 5);
      });
    },
    subscribe: (l: (e: ClientEvent) => void) => {
      listener = l;
      return () => {};
    },
    dispose: () => {},
  };
  return { client, added, searches, emit: (e: ClientEvent) => listener(e), loads: () => loads };
}

describe('EvidentSession', () => {
  it('loads the model, then ingests every document, then is ready', async () => {
    const f = fakeClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    const phases: string[] = [];
    s.subscribe(() => phases.push(`${s.getState().model.phase}/${s.getState().library.phase}`));
    await s.start();
    expect(f.added).toEqual(['a', 'b']);
    const st = s.getState();
    expect(st.model).toEqual({ phase: 'ready', info: FAKE_EMBEDDER });
    expect(st.library).toMatchObject({ phase: 'ready', chunks: 2, embedMs: 4 });
    expect(phases[0]).toBe('loading/idle');
    expect(phases).toContain('ready/ingesting');
    expect(phases.at(-1)).toBe('ready/ready');
  });

  it('a newer search supersedes the one in flight; an empty query clears results', async () => {
    const f = fakeClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    const first = s.search('one');
    const second = s.search('two');
    await Promise.all([first, second]);
    expect(f.searches[0]!.signal!.aborted).toBe(true);
    const st = s.getState().search;
    expect(st.phase).toBe('done');
    expect(st.phase === 'done' && st.response.query).toBe('two');
    await s.search('  ');
    expect(s.getState().search).toEqual({ phase: 'idle' });
  });

  it('shows a failed search as an error, not an abort', async () => {
    const f = fakeClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    await s.search('fail');
    expect(s.getState().search).toMatchObject({ phase: 'error', error: { code: 'internal', message: 'broken' } });
  });

  it('after a worker restart it tells the user, reloads the model and reads the stored library without re-adding it', async () => {
    const f = fakeClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    await s.start();
    f.emit({ type: 'crashed', error: { code: 'worker_crashed', message: 'The background worker crashed.' } });
    f.emit({ type: 'restarted', generation: 2 });
    await settle();
    expect(f.loads()).toBe(2);
    expect(f.added).toEqual(['a', 'b']);
    expect(s.getState().library).toMatchObject({ phase: 'ready', source: 'stored', chunks: 2 });
    expect(s.getState().library.phase).toBe('ready');
    const notices = s.getState().notices;
    expect(notices.map((n) => n.kind)).toEqual(['error', 'info']);
    expect(notices[0]!.text).toMatch(/crashed/);
    s.dismissNotice(notices[0]!.id);
    expect(s.getState().notices).toHaveLength(1);
  });

  it('reports a worker that keeps crashing as a model error', () => {
    const f = fakeClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    f.emit({ type: 'failed', error: { code: 'worker_crashed', message: 'gave up' } });
    expect(s.getState().model).toEqual({ phase: 'error', error: { code: 'worker_crashed', message: 'gave up' } });
  });

  it('adds the demo only on the first run, not after the user removed it', async () => {
    const f = fakeClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    await s.start();
    expect(s.getState().library).toMatchObject({ phase: 'ready', source: 'ingested' });
    await s.deleteDocument('a');
    await s.deleteDocument('b');
    expect(s.getState().library).toMatchObject({ phase: 'ready', documents: [] });
    // A reload: a new session on the same stored library.
    const again = new EvidentSession(f.client as never, DOCS, true);
    await again.start();
    expect(f.added).toEqual([]);
    expect(again.getState().library).toMatchObject({ phase: 'ready', documents: [], source: 'stored' });
  });

  it('refreshLibrary lists documents added outside the session (files through the parsers)', async () => {
    const f = fakeClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    await s.refreshLibrary();
    // Before the library is open there is nothing to refresh.
    expect(s.getState().library).toEqual({ phase: 'idle' });
    await s.start();
    f.added.push('file:report.pdf');
    await s.refreshLibrary();
    const lib = s.getState().library;
    expect(lib.phase === 'ready' && lib.documents.map((d) => d.docId)).toEqual(['a', 'b', 'file:report.pdf']);
    expect(lib).toMatchObject({ phase: 'ready', chunks: 3 });
  });
});
