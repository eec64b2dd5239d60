/**
 * Page of the batch ingest benchmark (`src/cli/bench-ingest-browser.ts`): one worker runs the
 * app's ingest path; files arrive base64-encoded from Node and go to the worker as ArrayBuffers.
 */
import * as Comlink from 'comlink';
import type { IngestBenchApi, IngestBenchRun } from './ingest-bench.worker';

const worker = Comlink.wrap<IngestBenchApi>(
  new Worker(new URL('./ingest-bench.worker.ts', import.meta.url), { type: 'module' }),
);

function bytesOf(base64: string): ArrayBuffer {
  const bin = atob(base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

const ingestBench = {
  load: () => worker.load(),
  run(files: readonly { name: string; base64: string }[], overlap: boolean, probe?: string): Promise<IngestBenchRun> {
    const inputs = files.map((f, i) => ({ fileId: `f${i}`, name: f.name, mimeType: '', bytes: bytesOf(f.base64) }));
    return worker.run(
      Comlink.transfer(
        inputs,
        inputs.map((f) => f.bytes),
      ),
      overlap,
      probe,
    );
  },
};

export type IngestBenchPage = typeof ingestBench;
(window as unknown as { ingestBench: IngestBenchPage }).ingestBench = ingestBench;
const status = document.getElementById('status');
if (status) {
  status.dataset.state = 'ready';
  status.textContent = 'ready';
}
