/**
 * Entry of an embedding helper process (forked by parallel-embedder.ts with tsx's loader): loads
 * USE lite with the parent's options, refuses to serve when its backend differs from the parent's,
 * then embeds each request it is sent and answers with the vectors. Exits with its parent.
 */
import { EvidentError } from '../core/errors';
import type { Embedder } from '../models/embedder';
import type { FromHelper, HelperInit, ToHelper } from './parallel-embedder';
import { loadUseEmbedderNode, type NodeUseOptions } from './use-node';

const send = (m: FromHelper): void => {
  process.send?.(m);
};

async function load(init: HelperInit): Promise<Embedder> {
  const { embedder, backend } = await loadUseEmbedderNode({ ...(init.load as NodeUseOptions), processes: 1 });
  if (backend.backend !== init.backend) {
    throw new EvidentError(
      'model_load_failed',
      `the helper runs TF.js ${backend.backend}, the parent ${init.backend} (vectors would differ)`,
    );
  }
  return embedder;
}

let embedder: Promise<Embedder> | null = null;

process.on('message', (m: ToHelper) => {
  if (m.type === 'init') {
    embedder = load(m.init);
    embedder.then(
      (e) => send({ type: 'ready', id: e.id, dim: e.dim }),
      (err: Error) => send({ type: 'error', seq: null, message: err.message }),
    );
    return;
  }
  const { seq, texts, batchSize } = m;
  void (async () => {
    try {
      const e = await (embedder ?? Promise.reject(new Error('embed before init')));
      const vectors = await e.embed(texts, {
        ...(batchSize ? { batchSize } : {}),
        onProgress: (done) => send({ type: 'progress', seq, done }),
      });
      send({ type: 'result', seq, vectors });
    } catch (err) {
      send({ type: 'error', seq, message: (err as Error).message });
    }
  })();
});

process.on('disconnect', () => process.exit(0));
