/**
 * `ModelHost` in Node on the real manifest and the tiny models (onnxruntime-node, device cpu):
 * profile loading role by role, profile-wide progress, the embedded profile's model-free roles,
 * a missing Hub model without consent, release, and every ONNX session of the old profile
 * released when another loads; the RPC part (`modelsApi`) handing the library's dense side to
 * the profile's embedder and back; and `ProfileRuntime.restore`, the next start loading the
 * remembered profile again (IndexedDB through fake-indexeddb) and reusing its stored vectors.
 */
import 'fake-indexeddb/auto';
import * as ort from 'onnxruntime-node';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MODELS_DIR, setupTiny } from '../../test/tiny-models';
import { Library } from '../storage/library';
import { EmbedderSwitch } from './embedder-switch';
import { Engine } from './engine';
import { ModelHost, ProfileRuntime, modelDevices, modelsApi, type RunCall } from './models';
import type { AddDocumentInput, EmbedderInfo } from './api';
import type { ProfileLoadProgress } from './models-api';
import { asResult } from './result';
import { SettingsHost } from './settings';
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

  it('loading another profile releases every ONNX session of the old one', async () => {
    const create = vi.spyOn(ort.InferenceSession, 'create');
    const sessionClass = ort.InferenceSession as unknown as { prototype: ort.InferenceSession };
    const release = vi.spyOn(sessionClass.prototype, 'release');
    try {
      const h = newHost();
      await h.loadProfile('tiny', { allowRemote: false, devices: ['cpu'] });
      const first = await Promise.all(create.mock.results.map((r) => r.value as Promise<ort.InferenceSession>));
      // At least one session per role, none released while in use.
      expect(first.length).toBeGreaterThanOrEqual(4);
      expect(release).not.toHaveBeenCalled();
      const old = h.backends;

      await h.loadProfile('tiny', { allowRemote: false, devices: ['cpu'], roles: ['embedder', 'nli'] });
      const all = await Promise.all(create.mock.results.map((r) => r.value as Promise<ort.InferenceSession>));
      const second = all.slice(first.length);
      expect(second.length).toBeGreaterThanOrEqual(2);
      const released = (): unknown[] => release.mock.contexts;
      await expect.poll(() => first.every((session) => released().includes(session))).toBe(true);
      expect(second.some((session) => released().includes(session))).toBe(false);

      // The old wrappers refuse work; the new profile's models run.
      const refused = (fn: () => Promise<unknown>) => expect(Promise.resolve().then(fn)).rejects.toThrow(/released/);
      await refused(() => old.embedder!.embed(['x']));
      await refused(() => old.crossEncoder!.score('q', ['p']));
      await refused(() => old.nli!.classify([{ premise: 'a', hypothesis: 'b' }]));
      await refused(() => old.generator!.generate([{ role: 'user', content: 'hi' }], { maxTokens: 2 }));
      expect(await h.backends.nli!.classify([{ premise: 'a', hypothesis: 'b' }])).toHaveLength(1);
      expect(h.backends.crossEncoder).toBeNull();
    } finally {
      create.mockRestore();
      release.mockRestore();
    }
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
    const api = modelsApi(run, new ProfileRuntime(newHost(), embedders));

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
    const api = modelsApi(run, new ProfileRuntime(newHost(), embedders));
    const result = await api.loadProfile('enhanced', { allowRemote: false, devices: ['cpu'] });
    expect(result).toMatchObject({ ok: false, error: { code: 'model_not_found' } });
    expect(engine.embedder).toBe(base);
  });
});

describe('modelDevices (the evidence trail)', () => {
  it("lists each loaded role's device and fallback reason, and USE lite's backend while it gives the dense side", async () => {
    const h = newHost();
    const loaded = await h.loadProfile('tiny', {
      allowRemote: false,
      devices: ['webgpu', 'cpu'],
      roles: ['cross-encoder', 'generator'],
    });
    const use = {
      id: 'use-lite-512@1/max128',
      backend: { name: 'wasm', reason: 'webgpu unavailable (backend not installed); using WASM, 1 thread.' },
    } as EmbedderInfo;
    const devices = modelDevices(loaded, use.id, use);
    expect(devices).toEqual([
      { role: 'embedder', id: use.id, device: 'wasm', fallbackReason: use.backend.reason },
      {
        role: 'cross-encoder',
        id: 'tiny/cross-encoder',
        device: 'cpu',
        fallbackReason: expect.stringMatching(/^webgpu: WebGPU is not used in Node/),
      },
      {
        role: 'generator',
        id: 'tiny/causal-lm',
        device: 'cpu',
        fallbackReason: expect.stringMatching(/^webgpu: /),
      },
    ]);
    // USE lite on its first backend has no fallback; not the dense side, it is not listed.
    const first = { ...use, backend: { ...use.backend, reason: 'Using WASM, 1 thread.' } } as EmbedderInfo;
    expect(modelDevices(null, use.id, first)).toEqual([
      { role: 'embedder', id: use.id, device: 'wasm', fallbackReason: null },
    ]);
    expect(modelDevices(null, 'tiny/encoder@main/fp32/mean-norm/max62', use)).toEqual([]);
  });
});

// ── restore: the next start loads the remembered profile again ──────────────────────────────────

let dbCount = 0;
const libraries: Library[] = [];
afterEach(() => {
  for (const l of libraries.splice(0)) l.close();
});

const DOCS: AddDocumentInput[] = [
  { docId: 'a', title: 'Remote work', format: 'text', text: 'Staff may work from home up to three days per week.' },
  { docId: 'b', title: 'Leave', format: 'text', text: 'Sick leave is paid from the first day of absence.' },
];

/** One worker start, as `worker.ts` does it: the stored library (text, then vectors), settings, the runtime. */
async function startWorker(name: string) {
  const library = await Library.open({ name });
  libraries.push(library);
  const engine = new Engine();
  const text = await library.loadText();
  engine.attachStore(library);
  engine.load(text.documents, text.chunks, await library.loadLexical());
  engine.loadVectors(await library.loadVectors());
  const embedders = new EmbedderSwitch(engine, (id, options) => library.useVectorModel(id, options));
  const settings = new SettingsHost(() => library);
  const runtime = new ProfileRuntime(newHost(), embedders, settings);
  return { library, engine, embedders, settings, runtime, api: modelsApi(run, runtime) };
}

describe('ProfileRuntime.restore', () => {
  it('loads the remembered tiny profile at the next start and reuses its stored vectors (nothing re-embedded)', async () => {
    const name = `evident-models-test-${dbCount++}`;
    // First visit: the default embedder, two documents, then the tiny profile loaded and remembered.
    const first = await startWorker(name);
    expect((await first.runtime.restore()).state).toBe('none');
    await first.embedders.setDefault(new WordHashEmbedder({ id: 'default-model' }));
    await first.engine.addDocuments(DOCS);
    expect(await first.api.loadProfile('tiny', { allowRemote: false, devices: ['cpu'] })).toMatchObject({ ok: true });
    expect((await first.embedders.settled()).state).toBe('done');
    await first.settings.update({ values: { profile: 'tiny' } });
    const stored = await first.library.loadVectors();
    expect(stored.map((v) => v.embedderId)).toEqual([first.engine.embedder!.id, first.engine.embedder!.id]);
    first.runtime.host.disposeProfile();

    // Next visit: a new worker on the same storage. USE lite arrives while the profile loads.
    const next = await startWorker(name);
    const fallback = new WordHashEmbedder({ id: 'default-model' });
    const restoring = next.runtime.restore();
    await next.embedders.setDefault(fallback);
    // The default does not take over meanwhile: the stored vectors stay loaded for the profile.
    expect(next.engine.embedder).toBeNull();
    expect(next.engine.vectorCount).toBe(next.engine.chunkCount);
    const restored = await restoring;
    expect(restored).toMatchObject({ state: 'ready', profile: 'tiny', allowRemote: false, error: null });
    expect(restored.progress).toMatchObject({ role: 'generator', phase: 'ready' });
    expect(next.engine.embedder?.id).toBe(stored[0]!.embedderId);
    const status = await next.api.modelStatus();
    expect(status).toMatchObject({
      ok: true,
      value: {
        loaded: { profile: 'tiny' },
        restore: { state: 'ready' },
        denseOnHold: false,
        // Every passage already had a vector of this model: none was embedded again.
        reembed: { state: 'done', total: 0 },
      },
    });
    expect(await next.library.loadVectors()).toEqual(stored);
    expect(fallback.calls).toBe(0);
    expect(next.engine.vectorCount).toBe(next.engine.chunkCount);
    expect((await next.engine.search('three days')).dense).toBe(true);

    // Released: Embedded again, and the default takes the dense side back.
    expect(await next.api.disposeProfile()).toEqual({ ok: true, value: null });
    expect(next.engine.embedder).toBe(fallback);
    const after = await next.api.modelStatus();
    expect(after.ok && after.value.restore.state).toBe('none');
    await next.embedders.settled();
  });

  it('a remembered Hub profile without stored consent fails with the reason; the default takes over', async () => {
    const engine = new Engine();
    const embedders = new EmbedderSwitch(engine);
    const base = new WordHashEmbedder({ id: 'default-model' });
    const runtime = new ProfileRuntime(newHost(), embedders, {
      values: async () => ({ profile: 'enhanced', hubConsent: false }),
    });
    const restoring = runtime.restore();
    await embedders.setDefault(base);
    await engine.addDocument(DOCS[0]!).catch(() => {});
    expect(await restoring).toMatchObject({
      state: 'failed',
      profile: 'enhanced',
      allowRemote: false,
      error: {
        code: 'model_not_found',
        message: expect.stringMatching(
          /^embedder: Xenova\/bge-small-en-v1\.5 is not self-hosted .*downloading from Hugging Face is off/,
        ),
      },
    });
    expect(runtime.host.loaded).toBeNull();
    expect(engine.embedder).toBe(base);
    await engine.addDocument(DOCS[1]!);
    await embedders.settled();
    expect((await engine.search('sick leave')).dense).toBe(true);
  });

  it('Embedded remembered: nothing is loaded, and the default takes the dense side as on any start', async () => {
    const engine = new Engine();
    const embedders = new EmbedderSwitch(engine);
    const base = new WordHashEmbedder({ id: 'default-model' });
    const runtime = new ProfileRuntime(newHost(), embedders, {
      values: async () => ({ profile: 'embedded', hubConsent: true }),
    });
    const restoring = runtime.restore();
    await embedders.setDefault(base);
    expect(await restoring).toEqual({ state: 'none', profile: null, allowRemote: false, progress: null, error: null });
    expect(engine.embedder).toBe(base);
  });

  it('a profile the user loads during the restore replaces it (the restore says cancelled)', async () => {
    const runtime = new ProfileRuntime(newHost(), null, {
      values: async () => ({ profile: 'tiny', hubConsent: false }),
    });
    const restoring = runtime.restore();
    const loaded = await runtime.load('tiny', { allowRemote: false, devices: ['cpu'], roles: ['nli'] });
    expect(await restoring).toMatchObject({ state: 'cancelled', error: null });
    expect(loaded.roles.nli?.device).toBe('cpu');
    expect(runtime.host.loaded?.roles.embedder).toBeNull();
  });
});
