import { describe, expect, it } from 'vitest';
import { fakeWorkerClient, ok, waitFor } from '../../test/fake-worker';
import { EvidentError } from '../core/errors';
import type { AskProgress, AskResult, FeedbackInput, FeedbackResult } from '../worker/ask-api';
import { AskStore } from './ask-store';
import type { CallSignal } from './worker-client';

const result = (question: string): AskResult =>
  ({ question, outcome: 'supported', sources: [] }) as unknown as AskResult;

/** A stand-in worker: answers after `gate` opens, honours the abort signal like the real client. */
function fakeClient() {
  const asked: string[] = [];
  const feedback: FeedbackInput[] = [];
  let release: () => void = () => {};
  const client = {
    asked,
    feedback: async (input: FeedbackInput): Promise<FeedbackResult> => {
      feedback.push(input);
      if (input.verdict === 'misleading' && input.docId === 'gone')
        throw new EvidentError('invalid_input', 'No longer in the library.');
      return {
        docId: input.docId,
        sourceType: 'blog',
        before: 0.5,
        after: input.verdict === 'helpful' ? 0.6 : 0.4,
        persistent: true,
      };
    },
    ask: (q: string, opts: CallSignal & { onProgress?: (p: AskProgress) => void } = {}): Promise<AskResult> =>
      new Promise((resolve, reject) => {
        asked.push(q);
        opts.onProgress?.({ phase: 'select' });
        opts.signal?.addEventListener('abort', () => reject(new EvidentError('aborted', 'Cancelled.')));
        release = () => resolve(result(q));
      }),
    release: () => release(),
    sent: feedback,
  };
  return client;
}

describe('AskStore', () => {
  it('shows progress, then the result; an empty question clears the page', async () => {
    const client = fakeClient();
    const store = new AskStore(client);
    const done = store.ask('  How many days?  ');
    expect(store.getState().ask).toMatchObject({ phase: 'asking', question: 'How many days?', step: 'select' });
    client.release();
    await done;
    expect(store.getState().ask).toMatchObject({ phase: 'done', result: { question: 'How many days?' } });
    await store.ask('   ');
    expect(store.getState().ask).toEqual({ phase: 'idle' });
  });

  it('ignores progress that arrives after the result (through the real client, over a message port)', async () => {
    let lateDelivered = false;
    const { client, dispose } = fakeWorkerClient({
      ping: (n) => n,
      abort: () => false,
      ask: async (q, _opts, onProgress) => {
        await onProgress?.({ phase: 'select' });
        // Sent after the result, as the browser may deliver it.
        setTimeout(() => {
          void Promise.resolve(onProgress?.({ phase: 'validate' })).then(() => (lateDelivered = true));
        }, 0);
        return ok(result(q));
      },
    });
    try {
      const store = new AskStore(client);
      const steps: string[] = [];
      store.subscribe(() => {
        const a = store.getState().ask;
        if (a.phase === 'asking') steps.push(a.step);
      });
      await store.ask('q');
      await waitFor(() => lateDelivered);
      expect(steps).toEqual(['retrieve', 'select']);
      expect(store.getState().ask).toMatchObject({ phase: 'done', result: { question: 'q' } });
    } finally {
      dispose();
    }
  });

  it('cancels the question in flight when a new one is asked (the older result never shows)', async () => {
    const client = fakeClient();
    const store = new AskStore(client);
    const first = store.ask('first');
    const second = store.ask('second');
    await first;
    expect(store.getState().ask).toMatchObject({ phase: 'asking', question: 'second' });
    client.release();
    await second;
    expect(store.getState().ask).toMatchObject({ phase: 'done', result: { question: 'second' } });
  });

  it('reports errors other than a cancel', async () => {
    const store = new AskStore({
      ask: async () => {
        throw new EvidentError('invalid_input', 'Type a question first.');
      },
      feedback: async () => {
        throw new Error('unused');
      },
    });
    await store.ask('x');
    expect(store.getState().ask).toMatchObject({ phase: 'error', error: { code: 'invalid_input' } });
  });

  it('sends feedback with the question, records the λ change, and ignores a repeated click', async () => {
    const client = fakeClient();
    const store = new AskStore(client);
    const asking = store.ask('q?');
    client.release();
    await asking;
    await store.mark({ chunkId: 'd#1', docId: 'd' }, 'helpful');
    await store.mark({ chunkId: 'd#1', docId: 'd' }, 'helpful');
    expect(client.sent).toEqual([{ docId: 'd', chunkId: 'd#1', verdict: 'helpful', question: 'q?' }]);
    expect(store.getState().feedback['d#1']).toMatchObject({
      verdict: 'helpful',
      status: 'saved',
      result: { after: 0.6 },
    });
    await store.mark({ chunkId: 'g#0', docId: 'gone' }, 'misleading');
    expect(store.getState().feedback['g#0']).toMatchObject({ status: 'error', error: { code: 'invalid_input' } });
  });
});

describe('AskStore streaming', () => {
  it('shows a generator’s answer as it is written, and never shortens it', async () => {
    let send: (p: AskProgress) => void = () => {};
    let finish: () => void = () => {};
    const store = new AskStore({
      ask: (q: string, opts: { onProgress?: (p: AskProgress) => void } = {}) =>
        new Promise<AskResult>((resolve) => {
          send = (p) => opts.onProgress?.(p);
          finish = () => resolve(result(q));
        }),
      feedback: async () => {
        throw new Error('unused');
      },
    });
    const done = store.ask('How many days?');
    send({ phase: 'answer', answerer: 'tiny/causal-lm' });
    expect(store.getState().ask).toMatchObject({ phase: 'asking', step: 'answer', answerer: 'tiny/causal-lm' });
    send({ phase: 'answer', answerer: 'tiny/causal-lm', partial: 'Three' });
    send({ phase: 'answer', answerer: 'tiny/causal-lm', partial: 'Three days [S1]' });
    expect(store.getState().ask).toMatchObject({ partial: 'Three days [S1]' });
    // A late, shorter event (reordered delivery) keeps the longer text.
    send({ phase: 'answer', answerer: 'tiny/causal-lm', partial: 'Three' });
    send({ phase: 'validate' });
    expect(store.getState().ask).toMatchObject({
      step: 'validate',
      answerer: 'tiny/causal-lm',
      partial: 'Three days [S1]',
    });
    finish();
    await done;
    expect(store.getState().ask.phase).toBe('done');
  });
});
