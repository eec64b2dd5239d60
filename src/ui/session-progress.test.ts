/**
 * Progress and results of a worker call travel on different MessagePorts, so a progress event
 * can arrive after the call's result. The session must not let such a late event change its
 * state: a finished batch stays 'ready', a loaded model stays 'ready'.
 */
import { describe, expect, it } from 'vitest';
import type { AddDocumentInput, AddDocumentsResult, BatchProgress, LoadProgress } from '../worker/api';
import { fakeLibraryCalls, FAKE_EMBEDDER, settle } from '../../test/session-fixture';
import { EvidentSession } from './session';

const DOCS: AddDocumentInput[] = [{ docId: 'a', title: 'A', text: 'alpha', format: 'text' }];

/**
 * A client that behaves like the worker across two ports: each call resolves, and one more
 * progress event (sent just before the result in the worker) is delivered a macrotask later.
 */
function lateProgressClient() {
  const added: string[] = [];
  const late = <P>(onProgress: ((p: P) => void) | undefined, p: P): void => {
    setTimeout(() => onProgress?.(p), 0);
  };
  return {
    added,
    client: {
      loadEmbedder: async (opts: { onProgress?: (p: LoadProgress) => void } = {}) => {
        late(opts.onProgress, { phase: 'ready', loadedBytes: 10, totalBytes: 10 });
        return FAKE_EMBEDDER;
      },
      addDocument: async () => {
        throw new Error('not used');
      },
      ...fakeLibraryCalls(added),
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
      deleteDocument: async () => true,
      search: async () => {
        throw new Error('not used');
      },
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
    expect(s.getState().model).toEqual({ phase: 'ready', info: FAKE_EMBEDDER });
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
