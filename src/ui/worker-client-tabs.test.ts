/**
 * Two tabs' clients on one origin (Node has BroadcastChannel): a write call in one tab is
 * announced to the other, whatever its outcome; reads are not; a `db-closed` of this schema
 * version means this tab must reload, one of another version does not. The clients are real;
 * their workers are faked (`test/fake-worker.ts`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectFakeWorker, ok, waitFor } from '../../test/fake-worker';
import { DB_VERSION } from '../storage/schema';
import { LIBRARY_CHANNEL } from '../storage/tabs';
import { WorkerClient, type ClientEvent } from './worker-client';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

function tab() {
  const events: ClientEvent[] = [];
  const client = new WorkerClient({
    createWorker: () => {
      const { worker, close } = connectFakeWorker({
        ping: (n) => n,
        abort: () => false,
        deleteDocument: async (docId) =>
          docId === 'fails' ? { ok: false, error: { code: 'internal', message: 'no' } } : ok(true),
        listDocuments: async () => ok([]),
      });
      cleanup.push(close);
      return worker;
    },
    heartbeatMs: 1_000,
  });
  client.subscribe((e) => events.push(e));
  cleanup.push(() => client.dispose());
  return { client, events };
}

const changes = (events: ClientEvent[]): number => events.filter((e) => e.type === 'library-changed').length;

describe('WorkerClient across tabs', () => {
  it('announces a write to the other tab (also a failed one), never to itself, and not a read', async () => {
    const a = tab();
    const b = tab();
    await a.client.deleteDocument('doc');
    await waitFor(() => changes(b.events) === 1);
    await a.client.deleteDocument('fails').catch(() => undefined);
    await waitFor(() => changes(b.events) === 2);
    await a.client.listDocuments();
    await new Promise((r) => setTimeout(r, 50));
    expect(changes(b.events)).toBe(2);
    expect(changes(a.events)).toBe(0);
  });

  it('a worker of this schema closed for an upgrade means reload; another version’s does not', async () => {
    const a = tab();
    const worker = new BroadcastChannel(LIBRARY_CHANNEL);
    cleanup.push(() => worker.close());
    worker.postMessage({ type: 'db-closed', version: DB_VERSION + 1 });
    worker.postMessage({ type: 'nonsense' });
    worker.postMessage({ type: 'db-closed', version: DB_VERSION });
    await waitFor(() => a.events.some((e) => e.type === 'library-closed'));
    expect(a.events.filter((e) => e.type === 'library-closed')).toHaveLength(1);
    expect(changes(a.events)).toBe(0);
  });
});
