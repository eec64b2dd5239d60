/**
 * Progress and results of a worker call travel on different MessagePorts, so a progress event
 * can arrive after the call's result. The session must not let such a late event change its
 * state: a finished batch stays 'ready', a loaded model stays 'ready'. The session runs over the
 * real `WorkerClient` (which closes a call's progress when the call settles) and a fake worker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectFakeWorker, ok, waitFor, type FakeApi } from '../../test/fake-worker';
import { fakeLibraryCalls, FAKE_EMBEDDER, settle } from '../../test/session-fixture';
import type { AddDocumentInput, AddDocumentsResult } from '../worker/api';
import { EvidentSession } from './session';
import { WorkerClient } from './worker-client';

const DOCS: AddDocumentInput[] = [{ docId: 'a', title: 'A', text: 'alpha', format: 'text' }];

/**
 * A worker whose `loadEmbedder` and `addDocuments` send one more progress event just after their
 * result, as the browser may deliver it; `late` counts those the client has received.
 */
function lateProgressWorker(options: { beforeResult?: () => Promise<void> } = {}) {
  const added: string[] = [];
  const state = { late: 0 };
  const library = fakeLibraryCalls(added);
  const sendLate = (send: () => void | Promise<void>): void => {
    setTimeout(() => {
      // The proxy call resolves once the client has handled the message.
      void Promise.resolve(send()).then(() => state.late++);
    }, 0);
  };
  const api: FakeApi = {
    ping: (n) => n,
    abort: () => false,
    // Comlink awaits what a worker method returns, so the fake library's async answer serves.
    status: library.status as unknown as FakeApi['status'],
    openLibrary: async () => ok(await library.openLibrary()),
    loadEmbedder: async (_opts, onProgress) => {
      sendLate(() => onProgress?.({ phase: 'init', loadedBytes: 10, totalBytes: 10 }));
      return ok(FAKE_EMBEDDER);
    },
    addDocuments: async (docs, _opts, onProgress) => {
      const last = docs.length - 1;
      const progress = { docId: docs[last]!.docId, index: last, count: docs.length, title: docs[last]!.title };
      await onProgress?.({ ...progress, phase: 'chunk', done: 0, total: 1 });
      await options.beforeResult?.();
      for (const d of docs) added.push(d.docId);
      sendLate(() => onProgress?.({ ...progress, phase: 'embed', done: 1, total: 1 }));
      const result: AddDocumentsResult = {
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
      return ok(result);
    },
  };
  return { api, added, state };
}

const disposers: (() => void)[] = [];
afterEach(() => {
  for (const d of disposers.splice(0)) d();
});

function sessionOver(api: FakeApi): EvidentSession {
  const { worker, close } = connectFakeWorker(api);
  const client = new WorkerClient({ createWorker: () => worker, heartbeatMs: 60_000 });
  disposers.push(() => client.dispose(), close);
  return new EvidentSession(client, DOCS, true);
}

describe('EvidentSession and progress that arrives after the result', () => {
  it('a late batch or model progress event leaves the library and the model ready', async () => {
    const w = lateProgressWorker();
    const s = sessionOver(w.api);
    await s.start();
    // Both late events reached the client before the state is read.
    await waitFor(() => w.state.late === 2);
    await settle();
    expect(w.added).toEqual(['a']);
    expect(s.getState().model).toEqual({ phase: 'ready', info: FAKE_EMBEDDER });
    expect(s.getState().library).toMatchObject({ phase: 'ready', chunks: 1 });
  });

  it('progress that arrives while the call is in flight is still shown', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let waiting = false;
    const w = lateProgressWorker({
      beforeResult: () => {
        waiting = true;
        return gate;
      },
    });
    const s = sessionOver(w.api);
    const started = s.start();
    await waitFor(() => waiting);
    expect(s.getState().library).toMatchObject({ phase: 'ingesting', title: 'A', index: 0, count: 1 });
    release();
    await started;
    await waitFor(() => w.state.late === 2);
    expect(s.getState().library).toMatchObject({ phase: 'ready' });
  });
});
