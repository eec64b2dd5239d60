/**
 * Dense document retrieval for the eval CLI: USE lite vectors (disk-cached), exact scan.
 *
 * USE lite reads only the first 128 of its tokens; a SciFact abstract has ~430. Two document
 * representations (see `DenseStrategy` in configs.ts):
 * - `lead`: one text per document, title + text, of which the encoder sees the title and the
 *   opening sentences;
 * - `maxchunk`: the title followed by consecutive sentences packed up to the encoder's window,
 *   one vector per chunk, and a document scores its best chunk (MaxP, Dai & Callan 2019,
 *   "Deeper Text Understanding for IR with Contextual Neural Language Modeling");
 * - `maxsent`: the title and each sentence as separate units, best unit wins.
 */
import { FlatIndex, type Quantization } from '../core/dense/flat-index';
import type { Run } from '../core/eval/metrics';
import { bestChunkPerDoc, packChunks, sentencesOf } from '../core/retrieval/max-chunk';
import type { Hit } from '../core/types';
import type { Embedder } from '../models/embedder';
import type { BeirDataset } from '../node/beir';
import { embedWithCache } from '../node/embedding-cache';
import { loadUseEmbedderNode } from '../node/use-node';
import type { DenseStrategy } from './configs';

let embedderPromise: Promise<Embedder> | null = null;

/** One embedder per process (loading TF.js and the graph takes seconds). */
function getEmbedder(log: (msg: string) => void): Promise<Embedder> {
  embedderPromise ??= loadUseEmbedderNode().then(({ embedder, backend }) => {
    log(`embedder ${embedder.id} on ${JSON.stringify(backend)}`);
    return embedder;
  });
  return embedderPromise;
}

export { packChunks };

function progress(log: (msg: string) => void, what: string): (done: number, total: number) => void {
  const t0 = performance.now();
  let last = -1;
  return (done, total) => {
    const decile = Math.floor((10 * done) / Math.max(1, total));
    if (decile === last) return;
    last = decile;
    const s = (performance.now() - t0) / 1000;
    log(`${what}: ${done}/${total} (${s.toFixed(0)} s)`);
  };
}

/** Dense run over the dataset's queries: top `depth` documents per query. */
export async function denseRun(
  dataset: BeirDataset,
  strategy: DenseStrategy,
  depth: number,
  log: (msg: string) => void,
  quantization: Quantization = 'none',
): Promise<Run> {
  const embedder = await getEmbedder(log);
  const texts: string[] = [];
  const owner: string[] = [];
  for (const doc of dataset.corpus) {
    const docTexts =
      strategy === 'lead'
        ? [[doc.title, doc.text].filter((s) => s !== '').join(' ')]
        : strategy === 'maxsent'
          ? [doc.title, ...sentencesOf(doc)].filter((s) => s.trim() !== '')
          : packChunks(doc, (t) => embedder.countTokens(t), embedder.maxTokens);
    if (docTexts.length === 0) docTexts.push('');
    for (const t of docTexts) {
      texts.push(t);
      owner.push(doc.id);
    }
  }
  log(`dense ${strategy}: ${texts.length} texts for ${dataset.corpus.length} documents`);
  const docVectors = await embedWithCache(embedder, texts, { onProgress: progress(log, `embed ${strategy}`) });
  const queryVectors = await embedWithCache(
    embedder,
    dataset.queries.map((q) => q.text),
    { onProgress: progress(log, 'embed queries') },
  );

  const index = new FlatIndex({
    dim: embedder.dim,
    metric: 'dot',
    initialCapacity: Math.max(1, texts.length),
    quantization,
  });
  index.addMany(
    texts.map((_, i) => String(i)),
    docVectors,
  );
  const run = new Map<string, Hit[]>();
  const dim = embedder.dim;
  dataset.queries.forEach((q, qi) => {
    const query = queryVectors.subarray(qi * dim, (qi + 1) * dim);
    if (strategy === 'lead') {
      // One vector per document: the top `depth` vectors are the top documents.
      run.set(
        q.id,
        index.search(query, depth).map((h) => ({ id: owner[Number(h.id)] as string, score: h.score })),
      );
      return;
    }
    // Every chunk is scored (exact scan); a document keeps its best chunk.
    run.set(q.id, bestChunkPerDoc(index.search(query, index.size), owner, depth));
  });
  return run;
}
