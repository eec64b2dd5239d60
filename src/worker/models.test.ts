/**
 * `ModelHost` in Node on the real manifest and the tiny models (onnxruntime-node, device cpu):
 * profile loading role by role, profile-wide progress, the embedded profile's model-free roles,
 * a missing Hub model without consent, and release.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR, setupTiny } from '../../test/tiny-models';
import { ModelHost } from './models';
import type { ProfileLoadProgress } from './models-api';

let host: ModelHost;

beforeAll(async () => {
  await setupTiny();
});

afterEach(() => host?.disposeProfile());

function newHost(): ModelHost {
  host = new ModelHost({ modelsPath: `${MODELS_DIR}/`, wasmPaths: { mjs: '/unused.mjs', wasm: '/unused.wasm' } });
  return host;
}

describe('ModelHost', () => {
  it('loads every role of the tiny profile with profile-wide byte progress', async () => {
    const h = newHost();
    const events: ProfileLoadProgress[] = [];
    const result = await h.loadProfile('tiny', { allowRemote: false, devices: ['cpu'] }, (p) => events.push(p));
    for (const role of ['embedder', 'cross-encoder', 'nli', 'generator'] as const) {
      expect(result.roles[role]).toMatchObject({ runtime: 'transformers', device: 'cpu', fallbackReason: null });
    }
    const { embedder, crossEncoder, nli, generator } = h.backends;
    expect(embedder?.dim).toBe(32);
    expect(await crossEncoder?.score('q', ['a', 'b'])).toHaveLength(2);
    expect((await nli?.classify([{ premise: 'a', hypothesis: 'b' }]))?.[0]).toHaveProperty('entailment');
    expect(typeof (await generator?.generate([{ role: 'user', content: 'hi' }], { maxTokens: 2 }))).toBe('string');

    const total = Object.values(result.roles).reduce((a, r) => a + (r?.bytes ?? 0), 0);
    expect(events.every((e, i) => i === 0 || e.loadedBytes >= events[i - 1]!.loadedBytes)).toBe(true);
    expect(events.every((e) => e.totalBytes === total)).toBe(true);
    expect(events.at(-1)).toMatchObject({ role: 'generator', phase: 'ready', loadedBytes: total });
    expect(new Set(events.map((e) => e.role))).toEqual(new Set(['embedder', 'cross-encoder', 'nli', 'generator']));
  });

  it('loads only the roles asked for', async () => {
    const h = newHost();
    const result = await h.loadProfile('tiny', { allowRemote: false, devices: ['cpu'], roles: ['nli'] });
    expect(result.roles.nli?.device).toBe('cpu');
    expect(result.roles.embedder).toBeNull();
    expect(h.backends.embedder).toBeNull();
    expect(h.backends.nli).not.toBeNull();
    await expect(h.loadProfile('tiny', { allowRemote: false, roles: ['reranker' as never] })).rejects.toThrow(
      /Unknown role "reranker"\. Allowed: embedder, cross-encoder, nli, generator/,
    );
  });

  it('embedded: the bundled embedder is left to loadEmbedder and the other roles are model-free', async () => {
    const h = newHost();
    const result = await h.loadProfile('embedded', { allowRemote: false });
    expect(result.roles.embedder).toMatchObject({ id: 'use-lite', runtime: 'tfjs', device: null });
    expect([result.roles['cross-encoder'], result.roles.nli, result.roles.generator]).toEqual([null, null, null]);
    expect(h.backends).toEqual({ embedder: null, crossEncoder: null, nli: null, generator: null });
  });

  it('enhanced without consent: model_not_found naming the role; the previous profile is released', async () => {
    const h = newHost();
    await h.loadProfile('tiny', { allowRemote: false, devices: ['cpu'], roles: ['embedder'] });
    const old = h.backends.embedder!;
    await expect(h.loadProfile('enhanced', { allowRemote: false, devices: ['cpu'] })).rejects.toMatchObject({
      code: 'model_not_found',
      message: expect.stringMatching(/^embedder: Xenova\/bge-small-en-v1\.5 is not self-hosted/),
    });
    expect(h.loaded).toBeNull();
    expect(h.backends.embedder).toBeNull();
    await expect(old.embed(['x'])).rejects.toThrow(/already released/);
  });

  it('disposeProfile releases the models', async () => {
    const h = newHost();
    await h.loadProfile('tiny', { allowRemote: false, devices: ['cpu'], roles: ['embedder', 'generator'] });
    const { embedder } = h.backends;
    h.disposeProfile();
    expect(h.backends.generator).toBeNull();
    await expect(embedder!.embed(['x'])).rejects.toThrow(/already released/);
    h.disposeProfile();
  });
});
