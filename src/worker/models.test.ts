/**
 * `ModelHost` in Node on the real manifest and the tiny models (onnxruntime-node, device cpu):
 * profile loading role by role, profile-wide progress, the embedded profile's model-free roles,
 * a missing Hub model without consent, and release; and the RPC part (`modelsApi`) handing the
 * library's dense side to the profile's embedder and back.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR, setupTiny } from '../../test/tiny-models';
import { EmbedderSwitch } from './embedder-switch';
import { Engine } from './engine';
import { ModelHost, modelsApi, type RunCall } from './models';
import type { ProfileLoadProgress } from './models-api';
import { asResult } from './result';
import { WordHashEmbedder } from './testing';

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

/** `worker.ts`'s `run` without the abort registry: errors become values. */
const run: RunCall = (_options, onProgress, fn) =>
  asResult(() => fn(new AbortController().signal, (p) => onProgress?.(p as never)));

describe('modelsApi', () => {
  it('a loaded profile takes the dense side (re-embedding in the background); released, the default is back', async () => {
    const engine = new Engine();
    const embedders = new EmbedderSwitch(engine);
    const base = new WordHashEmbedder({ id: 'default-model' });
    await embedders.setDefault(base);
    await engine.addDocument({ docId: 'd', title: 'Remote work', format: 'text', text: 'Up to three days per week.' });
    const api = modelsApi(run, newHost(), embedders);

    const status0 = await api.modelStatus();
    expect(status0).toMatchObject({ ok: true, value: { loaded: null, activeEmbedder: 'default-model' } });
    if (!status0.ok) throw new Error('unreachable');
    expect(status0.value.devices).toMatchObject({
      webgpuUnavailable: expect.stringMatching(/^navigator\.gpu is missing/),
    });

    const loaded = await api.loadProfile('tiny', { allowRemote: false, devices: ['cpu'] });
    expect(loaded).toMatchObject({ ok: true, value: { profile: 'tiny' } });
    expect(engine.embedder?.id).toMatch(/^tiny\/encoder@/);
    expect((await embedders.settled()).state).toBe('done');
    const status1 = await api.modelStatus();
    expect(status1).toMatchObject({
      ok: true,
      value: { loaded: { profile: 'tiny' }, denseOnHold: false, reembed: { state: 'done', done: engine.chunkCount } },
    });
    const tinyEmbedder = engine.embedder!;

    expect(await api.disposeProfile()).toEqual({ ok: true, value: null });
    expect(engine.embedder).toBe(base);
    await expect(tinyEmbedder.embed(['x'])).rejects.toThrow(/already released/);
    await embedders.settled();
    expect((await engine.search('three days')).dense).toBe(true);
  });

  it('a failed load leaves the default embedder in charge', async () => {
    const engine = new Engine();
    const embedders = new EmbedderSwitch(engine);
    const base = new WordHashEmbedder({ id: 'default-model' });
    await embedders.setDefault(base);
    const api = modelsApi(run, newHost(), embedders);
    const result = await api.loadProfile('enhanced', { allowRemote: false, devices: ['cpu'] });
    expect(result).toMatchObject({ ok: false, error: { code: 'model_not_found' } });
    expect(engine.embedder).toBe(base);
  });
});
