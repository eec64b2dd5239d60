/// <reference lib="webworker" />
/**
 * One worker of the embedding pool (`embed-pool.ts`): loads the embedded model (USE lite) from
 * the app's origin exactly as the main worker does (`loadUseLite`: checksummed files, TF.js
 * WASM), single-threaded, and embeds the texts it is sent. Started by `worker.ts`.
 */
import * as Comlink from 'comlink';
import type { Embedder } from '../models/embedder';
import { loadUseLite } from './load-use';

let embedder: Embedder | null = null;

const api = {
  /** Loads the model; resolves with its identity, which must match the main worker's. */
  async load(modelUrl: string, wasmUrl: string): Promise<{ id: string; dim: number }> {
    const loaded = await loadUseLite({
      modelUrl: new URL(modelUrl),
      wasmUrl: new URL(wasmUrl),
      backends: ['wasm'],
      threads: 1,
    });
    embedder = loaded.embedder;
    return { id: embedder.id, dim: embedder.dim };
  },

  async embed(texts: string[]): Promise<Float32Array> {
    if (!embedder) throw new Error('The embedding worker has no model yet.');
    const vectors = await embedder.embed(texts);
    // Transferred, not copied: a plain buffer the array owns whole.
    const owned =
      vectors.byteOffset === 0 && vectors.byteLength === vectors.buffer.byteLength ? vectors : vectors.slice();
    return Comlink.transfer(owned, [owned.buffer as ArrayBuffer]);
  },
};

export type EmbedWorkerApi = typeof api;

Comlink.expose(api);
