/**
 * Abort check page (test/e2e/models.e2e.test.ts): starts a long embedding in the worker, sends
 * `abort` on the first progress event, and reports what the call resolved to.
 */
import * as Comlink from 'comlink';
import type { AbortPageWorkerApi, AbortTrace } from './abort.worker';

const worker = Comlink.wrap<AbortPageWorkerApi>(
  new Worker(new URL('./abort.worker.ts', import.meta.url), { type: 'module' }),
);
let calls = 0;

export interface AbortRun {
  /** Error code the call resolved to (null when it finished). */
  readonly code: string | null;
  /** Abort sent → result received on the page, ms (includes two messages). */
  readonly pageStopMs: number;
  readonly trace: AbortTrace | null;
}

const probe = {
  load: () => worker.load(),

  async abortAfterFirstProgress(texts: string[]): Promise<AbortRun> {
    const callId = `abort-${++calls}`;
    let sentAt = 0;
    const result = await worker.embed(
      texts,
      callId,
      Comlink.proxy(() => {
        if (sentAt !== 0) return;
        sentAt = performance.now();
        void worker.abort(callId);
      }),
    );
    const pageStopMs = performance.now() - sentAt;
    return { code: result.ok ? null : result.error.code, pageStopMs, trace: await worker.trace() };
  },

  /** Rows as plain arrays (the test compares them). */
  async embed(texts: string[], batchSize?: number): Promise<number[][]> {
    const result = await worker.embed(texts, `embed-${++calls}`, undefined, batchSize);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    const dim = result.value.length / texts.length;
    return texts.map((_, i) => Array.from(result.value.subarray(i * dim, (i + 1) * dim)));
  },
};

export type AbortProbe = typeof probe;
(window as unknown as { abortProbe: AbortProbe }).abortProbe = probe;
const status = document.getElementById('status');
if (status) status.dataset.state = 'ready';
