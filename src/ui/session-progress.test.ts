/**
 * Progress and results of a worker call travel on different MessagePorts, so a progress event
 * can arrive after the call's result. The session must not let such a late event change its
 * state: a finished batch stays 'ready', a loaded model stays 'ready'.
 */
import { describe, expect, it } from 'vitest';
import type {
  AddDocumentInput,
  AddDocumentsResult,
  BatchProgress,
  EmbedderInfo,
  LibraryDocument,
  LibraryInfo,
  LoadProgress,
  WorkerStatus,
} from '../worker/api';
import { EvidentSession } from './session';

const INFO: EmbedderInfo = {
  id: 'fake',
  dim: 2,
  maxTokens: 8,
  backend: { name: 'wasm', threads: 1, simd: true, crossOriginIsolated: true, reason: 'test' },
  bytes: 10,
  downloadMs: 1,
  initMs: 1,
  warmupMs: 1,
};
const DOCS: AddDocumentInput[] = [{ docId: 'a', title: 'A', text: 'alpha', format: 'text' }];

/** Lets queued macrotasks (the late progress events) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

/**
 * A client that behaves like the worker across two ports: each call resolves, and one more
 * progress event (sent just before the result in the worker) is delivered a macrotask later.
 */
function lateProgressClient() {
  const added: string[] = [];
  const stored = (): LibraryDocument[] =>
    added.map((docId) => ({ docId, title: docId, chunks: 1, sourceType: 'unknown', status: 'current', vectors: 1 }));
  const late = <P>(onProgress: ((p: P) => void) | undefined, p: P): void => {
    setTimeout(() => onProgress?.(p), 0);
  };
  return {
    added,
    client: {
      loadEmbedder: async (opts: { onProgress?: (p: LoadProgress) => void } = {}) => {
        late(opts.onProgress, { phase: 'ready', loadedBytes: 10, totalBytes: 10 });
        return INFO;
      },
      addDocument: async () => {
        throw new Error('not used');
      },
      openLibrary: async (): Promise<LibraryInfo> => ({
        persistent: true,
        storageError: null,
        documents: stored(),
        chunks: added.length,
        vectors: added.length,
        queued: 0,
        demoInstalled: false,
        skipped: [],
        lexical: 'empty',
        timings: { openMs: 1, readMs: 1, lexicalMs: 1, searchableMs: 1, vectorsMs: 1, loadedMs: 1 },
      }),
      addDocuments: async (
        docs: readonly AddDocumentInput[],
        opts: { onProgress?: (p: BatchProgress) => void } = {},
      ): Promise<AddDocumentsResult> => {
        for (const d of docs) added.push(d.docId);
        const last = docs.length - 1;
        late(opts.onProgress, {
          docId: docs[last]!.docId,
          phase: 'embed',
          done: 1,
          total: 1,
          index: last,
          count: docs.length,
          title: docs[last]!.title,
        });
        return {
          added: docs.map((d) => ({
            docId: d.docId,
            chunks: 1,
            tokens: 1,
            chunkMs: 0,
            embedMs: 1,
            indexMs: 0,
            replaced: false,
          })),
          failed: [],
        };
      },
      resumeIngest: async (): Promise<AddDocumentsResult> => ({ added: [], failed: [] }),
      fillVectors: async () => ({ documents: 0, chunks: 0, ms: 0 }),
      deleteDocument: async () => true,
      search: async () => {
        throw new Error('not used');
      },
      status: async (): Promise<WorkerStatus> => ({
        embedder: INFO,
        documents: stored(),
        chunks: added.length,
        crossOriginIsolated: true,
      }),
      subscribe: () => () => {},
      dispose: () => {},
    },
  };
}

describe('EvidentSession and progress that arrives after the result', () => {
  it('a late batch or model progress event leaves the library and the model ready', async () => {
    const f = lateProgressClient();
    const s = new EvidentSession(f.client as never, DOCS, true);
    await s.start();
    await settle();
    expect(f.added).toEqual(['a']);
    expect(s.getState().model).toEqual({ phase: 'ready', info: INFO });
    expect(s.getState().library).toMatchObject({ phase: 'ready', chunks: 1 });
  });

  it('progress that arrives while the call is in flight is still shown', async () => {
    const f = lateProgressClient();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const addDocuments = f.client.addDocuments;
    // This batch reports progress, then waits before it returns: the progress must show.
    f.client.addDocuments = async (docs, opts = {}) => {
      opts.onProgress?.({ docId: 'a', phase: 'chunk', done: 0, total: 1, index: 0, count: 1, title: 'A' });
      await gate;
      return addDocuments(docs, opts);
    };
    const s = new EvidentSession(f.client as never, DOCS, true);
    const started = s.start();
    await settle();
    expect(s.getState().library).toMatchObject({ phase: 'ingesting', title: 'A', index: 0, count: 1 });
    release();
    await started;
    await settle();
    expect(s.getState().library).toMatchObject({ phase: 'ready' });
  });
});
