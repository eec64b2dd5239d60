/**
 * Test helpers for the Transformers.js backends: the tiny generated models (made on demand), the
 * manifest's `tiny` profile, Node runtime configuration, and direct onnxruntime-node sessions for
 * computing expected outputs independently of Transformers.js.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { ensureTinyModels } from '../scripts/make-tiny-models.ts';
import { parseManifest, type Manifest, type ModelRole, type ModelSpec } from '../src/models/manifest';
import { configureRuntime, type ModelCache } from '../src/models/transformers/env';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const MODELS_DIR = join(ROOT, 'models');

export async function loadManifest(): Promise<Manifest> {
  return parseManifest(JSON.parse(await readFile(join(MODELS_DIR, 'manifest.json'), 'utf8')));
}

/** Generates the tiny models if needed, configures Transformers.js for Node, returns the specs. */
export async function setupTiny(
  options: { cache?: ModelCache; localModelPath?: string } = {},
): Promise<Record<ModelRole, ModelSpec>> {
  await ensureTinyModels(MODELS_DIR);
  configureRuntime({
    localModelPath: options.localModelPath ?? `${MODELS_DIR}/`,
    allowRemote: false,
    cache: options.cache ?? 'none',
  });
  const manifest = await loadManifest();
  const roles = manifest.profiles.tiny.roles;
  const out = {} as Record<ModelRole, ModelSpec>;
  for (const [role, spec] of Object.entries(roles)) {
    if (!spec) throw new Error(`tiny profile has no ${role}`);
    out[role as ModelRole] = spec;
  }
  return out;
}

/** An onnxruntime-node session on a tiny model's ONNX file (the independent reference). */
export function ortSession(name: string): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(join(MODELS_DIR, 'tiny', name, 'onnx/model.onnx'));
}

export function int64(rows: readonly (readonly (number | bigint)[])[]): ort.Tensor {
  const width = rows[0]?.length ?? 0;
  return new ort.Tensor('int64', BigInt64Array.from(rows.flat().map((v) => BigInt(v))), [rows.length, width]);
}

export function emptyCache(): ort.Tensor {
  return new ort.Tensor('float32', new Float32Array(0), [1, 1, 0, 32]);
}

/** An in-memory `ModelCache` (the Cache API's shape), to test cache hits and eviction in Node. */
export class MemoryCache implements ModelCache {
  readonly entries = new Map<string, Uint8Array>();

  async match(key: string): Promise<Response | undefined> {
    const data = this.entries.get(key);
    return data ? new Response(data.slice(), { headers: { 'content-length': String(data.byteLength) } }) : undefined;
  }

  async put(key: string, response: Response): Promise<void> {
    this.entries.set(key, new Uint8Array(await response.arrayBuffer()));
  }

  async delete(key: string): Promise<boolean> {
    return this.entries.delete(key);
  }

  async keys(): Promise<string[]> {
    return [...this.entries.keys()];
  }
}
