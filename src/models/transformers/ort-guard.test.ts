/**
 * The session-chain guard on onnxruntime-node's real `InferenceSession` class, driven the way
 * Transformers.js's web build drives onnxruntime-web: every creation and run appended to one
 * module-level promise chain.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR, int64, setupTiny } from '../../../test/tiny-models';
import { guardSessionChains, poisoned, type OrtModuleLike } from './ort-guard';

let good: Uint8Array;
const bad = new TextEncoder().encode('not an onnx model');

/** Transformers.js's web `createInferenceSession`, reduced to its chain. */
function chained() {
  let chain: Promise<unknown> = Promise.resolve();
  return async (bytes: Uint8Array): Promise<ort.InferenceSession> => {
    const session = (await (chain = chain.then(() => ort.InferenceSession.create(bytes)))) as ort.InferenceSession & {
      config?: unknown;
    };
    session.config = {};
    return session;
  };
}

function feeds(): Record<string, ort.Tensor> {
  return { input_ids: int64([[2, 3]]), attention_mask: int64([[1, 1]]), token_type_ids: int64([[0, 0]]) };
}

beforeAll(async () => {
  await setupTiny();
  good = new Uint8Array(await readFile(join(MODELS_DIR, 'tiny/encoder/onnx/model.onnx')));
});

describe('guardSessionChains', () => {
  it('without the guard, one failed creation poisons every later one (the upstream bug)', async () => {
    const create = chained();
    await expect(create(bad)).rejects.toThrow(/protobuf parsing failed/);
    await expect(create(good)).rejects.toThrow(/protobuf parsing failed/);
  });

  it('with the guard, the caller still gets the real error and the next creation and runs work', async () => {
    guardSessionChains(ort as unknown as OrtModuleLike);
    guardSessionChains(ort as unknown as OrtModuleLike); // idempotent
    const create = chained();
    await expect(create(bad)).rejects.toThrow(/protobuf parsing failed/);
    const session = await create(good);
    expect(session.inputNames).toContain('input_ids');

    // A failed run (missing input) does not poison later runs on the same chain.
    let runs: Promise<unknown> = Promise.resolve();
    const run = async (f: Record<string, ort.Tensor>) => {
      const out = (await (runs = runs.then(() => session.run(f)))) as Record<string, unknown>;
      return Object.keys(out);
    };
    await expect(run({ input_ids: int64([[2, 3]]) })).rejects.toThrow(/input/i);
    expect(await run(feeds())).toEqual(['last_hidden_state']);
  });

  it('poisoned values are not thenables and rethrow on use', async () => {
    const err = new Error('boom');
    const p = poisoned(err) as Record<string, unknown>;
    expect(await Promise.resolve(p)).toBe(p);
    expect(() => p.x).toThrow('boom');
    expect(() => {
      p.config = 1;
    }).toThrow('boom');
    expect(() => Object.keys(p)).toThrow('boom');
  });
});
