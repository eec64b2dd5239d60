/**
 * Worker of the model test page: drives the app's own `ModelHost` (src/worker/models.ts) on the
 * tiny profile and runs every role once, returning plain numbers for the test to compare.
 */
import * as Comlink from 'comlink';
import { ModelHost } from '../../../src/worker/models';
import type { ProfileLoadProgress, ProfileLoadResult } from '../../../src/worker/models-api';
import { EMBED_TEXTS, MESSAGES, PAIRS, PASSAGES, QUERY } from './fixtures';

let host: ModelHost | null = null;

/** One host per page: ORT reads the thread count once, when its WASM runtime starts. */
function hostFor(threads: number): ModelHost {
  host ??= new ModelHost({
    modelsPath: '/models/',
    wasmPaths: {
      mjs: '/vendor/ort/ort-wasm-simd-threaded.asyncify.mjs',
      wasm: '/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
    },
    numThreads: threads,
  });
  return host;
}

export interface RoleRun {
  readonly loaded: ProfileLoadResult;
  readonly loadMs: number;
  readonly progress: {
    readonly events: number;
    readonly monotonic: boolean;
    readonly last: ProfileLoadProgress | null;
  };
  readonly embeddings: number[][];
  readonly scores: number[];
  readonly nli: { entailment: number; neutral: number; contradiction: number }[];
  readonly reply: string;
  readonly pieces: string[];
  readonly runMs: Record<string, number>;
}

const api = {
  async runAll(devices: ('webgpu' | 'wasm')[], maxTokens: number, threads = 1): Promise<RoleRun> {
    const host = hostFor(threads);
    const events: ProfileLoadProgress[] = [];
    const t0 = performance.now();
    const loaded = await host.loadProfile('tiny', { allowRemote: false, devices }, (p) => events.push(p));
    const loadMs = performance.now() - t0;
    const { embedder, crossEncoder, nli, generator } = host.backends;
    if (!embedder || !crossEncoder || !nli || !generator) throw new Error('a tiny role did not load');
    const runMs: Record<string, number> = {};
    const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      const out = await fn();
      runMs[name] = performance.now() - t;
      return out;
    };
    const vectors = await time('embed', () => embedder.embed(EMBED_TEXTS));
    const embeddings = EMBED_TEXTS.map((_, i) =>
      Array.from(vectors.subarray(i * embedder.dim, (i + 1) * embedder.dim)),
    );
    const scores = await time('rerank', () => crossEncoder.score(QUERY, PASSAGES));
    const entail = await time('nli', () => nli.classify(PAIRS));
    const pieces: string[] = [];
    const reply = await time('generate', () =>
      generator.generate(MESSAGES, { maxTokens, onToken: (t) => pieces.push(t) }),
    );
    const monotonic = events.every(
      (e, i) => i === 0 || e.loadedBytes >= (events[i - 1] as ProfileLoadProgress).loadedBytes,
    );
    return {
      loaded,
      loadMs,
      progress: { events: events.length, monotonic, last: events.at(-1) ?? null },
      embeddings,
      scores,
      nli: entail,
      reply,
      pieces,
      runMs,
    };
  },

  /** Loads a profile that is not self-hosted without consent: the error value the UI would show. */
  async loadWithoutConsent(): Promise<{ code: string; message: string } | null> {
    try {
      await hostFor(1).loadProfile('enhanced', { allowRemote: false, roles: ['embedder'] });
      return null;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return { code: e.code ?? 'unknown', message: e.message ?? String(err) };
    }
  },

  /** Replaces a cached file with garbage (a damaged cache entry); returns its cached size before. */
  async damageCachedFile(url: string): Promise<number> {
    const cache = await caches.open('transformers-cache');
    const before = await cache.match(url);
    if (!before) throw new Error(`${url} is not cached`);
    const size = (await before.arrayBuffer()).byteLength;
    await cache.put(url, new Response('this is not an ONNX model'));
    return size;
  },

  /** Size of a cached file, or null when it is not cached. */
  async cachedSize(url: string): Promise<number | null> {
    const r = await (await caches.open('transformers-cache')).match(url);
    return r ? (await r.arrayBuffer()).byteLength : null;
  },

  /** URLs held in Transformers.js's Cache Storage. */
  async cachedUrls(): Promise<string[]> {
    const cache = await caches.open('transformers-cache');
    return (await cache.keys()).map((r) => r.url);
  },

  dispose(): void {
    host?.disposeProfile();
  },
};

export type ModelsPageApi = typeof api;
Comlink.expose(api);
