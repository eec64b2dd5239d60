/**
 * A stand-in for the app's Web Worker in Node tests of the UI side (`src/ui/worker-client.test.ts`,
 * `src/ui/session-progress.test.ts`, the stores' tests): a Comlink endpoint over a Node MessageChannel whose other end
 * exposes a test API. The client under test talks to it exactly as to the real worker, progress
 * callbacks included (each proxy gets its own MessagePort, as in the browser).
 */
import * as Comlink from 'comlink';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { EvidentWorkerApi, Result } from '../src/worker/api';
import { WorkerClient, type WorkerLike } from '../src/ui/worker-client';

export type FakeApi = Partial<EvidentWorkerApi> & Pick<EvidentWorkerApi, 'ping' | 'abort'>;

export class FakeWorker extends EventTarget implements WorkerLike {
  terminated = false;
  constructor(private readonly port: MessagePort) {
    super();
  }
  postMessage(message: unknown, transfer?: Transferable[]): void {
    if (!this.terminated) this.port.postMessage(message, transfer as never);
  }
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: AddEventListenerOptions,
  ): void {
    if (type === 'message') (this.port as unknown as EventTarget).addEventListener(type, listener, options);
    else super.addEventListener(type, listener, options);
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (type === 'message') (this.port as unknown as EventTarget).removeEventListener(type, listener);
    else super.removeEventListener(type, listener);
  }
  start(): void {
    this.port.start();
  }
  terminate(): void {
    this.terminated = true;
    this.port.close();
  }
  crash(message: string): void {
    const e = new Event('error') as Event & { message: string };
    e.message = message;
    this.dispatchEvent(e);
  }
}

/** A fake worker serving `api`; `close` closes both ends of its channel. */
export function connectFakeWorker(api: FakeApi): { worker: FakeWorker; close(): void } {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(api, port2 as unknown as Comlink.Endpoint);
  return {
    worker: new FakeWorker(port1),
    close: () => {
      port1.close();
      port2.close();
    },
  };
}

/** The app's `WorkerClient` over a fake worker serving `api` (no heartbeat); `dispose` ends both. */
export function fakeWorkerClient(api: FakeApi): { client: WorkerClient; dispose(): void } {
  const { worker, close } = connectFakeWorker(api);
  const client = new WorkerClient({ createWorker: () => worker, heartbeatMs: 60_000 });
  return {
    client,
    dispose: () => {
      client.dispose();
      close();
    },
  };
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Resolves once `cond` holds, polling every 5 ms; rejects after `ms`. */
export function waitFor(cond: () => boolean, ms = 3000): Promise<void> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (cond()) resolve();
      else if (Date.now() - t0 > ms) reject(new Error('timed out waiting'));
      else setTimeout(tick, 5);
    };
    tick();
  });
}
