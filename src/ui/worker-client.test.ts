import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { connectFakeWorker, ok, waitFor, type FakeApi, type FakeWorker } from '../../test/fake-worker';
import { FAKE_EMBEDDER } from '../../test/session-fixture';
import { EvidentError } from '../core/errors';
import type { LoadProgress } from '../worker/api';
import { WorkerClient, type ClientEvent } from './worker-client';

// The unit under test is the client (RPC wrapping, abort channel, progress, crash detection and
// restart); the worker is the collaborator that is faked (`test/fake-worker.ts`).

const clients: WorkerClient[] = [];
const channels: (() => void)[] = [];

function setup(
  makeApi: (generation: number) => FakeApi,
  options: Partial<ConstructorParameters<typeof WorkerClient>[0]> = {},
) {
  const workers: FakeWorker[] = [];
  const events: ClientEvent[] = [];
  const client = new WorkerClient({
    createWorker: () => {
      const { worker, close } = connectFakeWorker(makeApi(workers.length + 1));
      channels.push(close);
      workers.push(worker);
      return worker;
    },
    heartbeatMs: 20,
    heartbeatTimeoutMs: 150,
    ...options,
  });
  client.subscribe((e) => events.push(e));
  clients.push(client);
  return { client, workers, events };
}

afterEach(() => {
  for (const c of clients.splice(0)) c.dispose();
  for (const close of channels.splice(0)) close();
});

describe('WorkerClient', () => {
  it('resolves ok values and rejects error values as EvidentError with the same code', async () => {
    const { client } = setup(() => ({
      ping: (n) => n,
      abort: () => false,
      search: async (query) =>
        query === 'bad'
          ? { ok: false, error: { code: 'invalid_input', message: 'Bad query.' } }
          : ok({
              query,
              hits: [],
              queryTerms: [],
              dense: false,
              fusion: 'rrf',
              timings: { lexicalMs: 0, embedMs: 0, denseMs: 0, fuseMs: 0 },
            }),
    }));
    await expect(client.search('hello')).resolves.toMatchObject({ query: 'hello', hits: [] });
    const err = await client.search('bad').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvidentError);
    expect((err as EvidentError).code).toBe('invalid_input');
    expect((err as EvidentError).message).toBe('Bad query.');
  });

  it('passes progress callbacks by reference and delivers their events', async () => {
    const { client } = setup(() => ({
      ping: (n) => n,
      abort: () => false,
      loadEmbedder: async (_opts, onProgress) => {
        await onProgress?.({ phase: 'download', loadedBytes: 5, totalBytes: 10 });
        await onProgress?.({ phase: 'download', loadedBytes: 10, totalBytes: 10 });
        return { ok: false, error: { code: 'model_not_found', message: 'missing' } };
      },
    }));
    const seen: LoadProgress[] = [];
    await expect(client.loadEmbedder({ onProgress: (p) => seen.push(p) })).rejects.toMatchObject({
      code: 'model_not_found',
    });
    expect(seen.map((p) => p.loadedBytes)).toEqual([5, 10]);
  });

  it('never invokes a progress callback after its call settled (progress travels on its own port)', async () => {
    let lateDelivered = false;
    const { client } = setup(() => ({
      ping: (n) => n,
      abort: () => false,
      loadEmbedder: async (_opts, onProgress) => {
        await onProgress?.({ phase: 'download', loadedBytes: 5, totalBytes: 10 });
        // Sent after the result, as the browser may deliver it; the proxy call resolves once the
        // client has handled the message.
        setTimeout(() => {
          void Promise.resolve(onProgress?.({ phase: 'init', loadedBytes: 10, totalBytes: 10 })).then(() => {
            lateDelivered = true;
          });
        }, 0);
        return ok(FAKE_EMBEDDER);
      },
    }));
    const seen: LoadProgress[] = [];
    await expect(client.loadEmbedder({ onProgress: (p) => seen.push(p) })).resolves.toEqual(FAKE_EMBEDDER);
    await waitFor(() => lateDelivered);
    expect(seen.map((p) => p.phase)).toEqual(['download']);
  });

  it('never invokes a progress callback after its call was aborted', async () => {
    let release: () => void = () => {};
    let lateDelivered = false;
    const { client } = setup(() => ({
      ping: (n) => n,
      abort: () => {
        release();
        return true;
      },
      loadEmbedder: async (_opts, onProgress) => {
        await onProgress?.({ phase: 'download', loadedBytes: 5, totalBytes: 10 });
        // A worker that reports once more before it notices the abort.
        await new Promise<void>((r) => (release = r));
        await onProgress?.({ phase: 'download', loadedBytes: 10, totalBytes: 10 });
        lateDelivered = true;
        return { ok: false, error: { code: 'aborted', message: 'Cancelled.' } };
      },
    }));
    const seen: LoadProgress[] = [];
    const controller = new AbortController();
    const pending = client.loadEmbedder({ signal: controller.signal, onProgress: (p) => seen.push(p) });
    await waitFor(() => seen.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    await waitFor(() => lateDelivered);
    expect(seen.map((p) => p.loadedBytes)).toEqual([5]);
  });

  it('abort rejects at once with "aborted" and sends abort(callId) for the same call', async () => {
    const callIds: string[] = [];
    const aborted: string[] = [];
    let release: () => void = () => {};
    const { client } = setup(() => ({
      ping: (n) => n,
      abort: (id) => {
        aborted.push(id);
        release();
        return true;
      },
      embed: async (_texts, opts) => {
        callIds.push(opts.callId ?? '');
        // Simulates a worker that only notices the abort at its next check.
        await new Promise<void>((r) => (release = r));
        return { ok: false, error: { code: 'aborted', message: 'Cancelled.' } };
      },
    }));
    const controller = new AbortController();
    const pending = client.embed(['a'], { signal: controller.signal });
    await waitFor(() => callIds.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    await waitFor(() => aborted.length === 1);
    expect(aborted).toEqual(callIds);
    // Ids are unique per call.
    const again = new AbortController();
    const second = client.embed(['b'], { signal: again.signal });
    await waitFor(() => callIds.length === 2);
    expect(callIds[1]).not.toBe(callIds[0]);
    again.abort();
    await expect(second).rejects.toMatchObject({ code: 'aborted' });
  });

  it('rejects an already aborted signal without calling the worker', async () => {
    let calls = 0;
    const { client } = setup(() => ({
      ping: (n) => n,
      abort: () => false,
      embed: async () => {
        calls++;
        return ok(new Float32Array(0));
      },
    }));
    await expect(client.embed(['x'], { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted' });
    expect(calls).toBe(0);
  });

  it('returns transferred Float32Arrays intact', async () => {
    const { client } = setup(() => ({
      ping: (n) => n,
      abort: () => false,
      embed: async (texts) => {
        const v = Float32Array.from(texts, (_, i) => i + 0.5);
        return Comlink.transfer(ok(v), [v.buffer]);
      },
    }));
    const v = await client.embed(['a', 'b', 'c']);
    expect(v).toBeInstanceOf(Float32Array);
    expect(Array.from(v)).toEqual([0.5, 1.5, 2.5]);
  });

  it('restarts a worker that stops answering the heartbeat and rejects calls in flight', async () => {
    const { client, workers, events } = setup((generation) => ({
      // The first worker hangs: it never answers a ping or a call.
      ping: (n) => (generation === 1 ? (new Promise<number>(() => {}) as unknown as number) : n),
      abort: () => false,
      status: () =>
        generation === 1
          ? (new Promise(() => {}) as never)
          : { embedder: null, documents: [], chunks: 0, crossOriginIsolated: false },
    }));
    const inFlight = client.status();
    await expect(inFlight).rejects.toMatchObject({ code: 'worker_crashed' });
    expect(events.map((e) => e.type)).toEqual(['crashed', 'restarted']);
    expect(workers).toHaveLength(2);
    expect(workers[0]!.terminated).toBe(true);
    expect(client.generation).toBe(2);
    // The new worker serves calls and stays up.
    await expect(client.status()).resolves.toMatchObject({ chunks: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(workers).toHaveLength(2);
  }, 5_000);

  it('restarts on the worker error event', async () => {
    const { client, workers, events } = setup(() => ({ ping: (n) => n, abort: () => false }), {
      heartbeatMs: 10_000,
    });
    workers[0]!.crash('boom');
    expect(events[0]).toMatchObject({ type: 'crashed', error: { code: 'worker_crashed' } });
    expect((events[0] as { error: { message: string } }).error.message).toContain('boom');
    expect(events[1]).toEqual({ type: 'restarted', generation: 2 });
    expect(workers).toHaveLength(2);
    expect(client.generation).toBe(2);
  });

  it('gives up after maxRestarts crashes within the window', async () => {
    const { client, workers, events } = setup(() => ({ ping: (n) => n, abort: () => false }), {
      heartbeatMs: 10_000,
      maxRestarts: 2,
    });
    workers[0]!.crash('1');
    workers[1]!.crash('2');
    workers[2]!.crash('3');
    expect(events.map((e) => e.type)).toEqual(['crashed', 'restarted', 'crashed', 'restarted', 'crashed', 'failed']);
    expect(workers).toHaveLength(3);
    await expect(client.status()).rejects.toMatchObject({ code: 'worker_crashed' });
  });
});
