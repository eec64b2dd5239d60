/**
 * Loading policy on real files and real sockets (no mocked Transformers.js): consent for Hub
 * downloads, 404 and offline errors, byte progress, device fallback, and a damaged cached copy
 * evicted and retried (`cache_corrupted` when the source is damaged too).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR, MemoryCache, setupTiny } from '../../../test/tiny-models';
import type { ModelRole, ModelSpec } from '../manifest';
import { loadTransformersEmbedder } from './embedder';
import { configureRuntime } from './env';
import { cacheKeyCandidates, classify, type ModelLoadProgress } from './loader';

let tiny: Record<ModelRole, ModelSpec>;

/** A Hub-sourced spec for a model that is not self-hosted here. */
function hubSpec(id: string): ModelSpec {
  return {
    ...tiny.embedder,
    id,
    path: undefined,
    source: 'hub',
    bytes: null,
    files: [{ path: 'config.json', bytes: null }],
  } as ModelSpec;
}

beforeAll(async () => {
  tiny = await setupTiny();
});

describe('loading from the self-hosted folder', () => {
  it('reports byte progress that only grows and ends at the manifest total', async () => {
    const events: ModelLoadProgress[] = [];
    const { embedder, report } = await loadTransformersEmbedder(tiny.embedder, { onProgress: (p) => events.push(p) });
    embedder.dispose();
    const total = tiny.embedder.bytes as number;
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.totalBytes === total || e.phase === 'ready')).toBe(true);
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.loadedBytes).toBeGreaterThanOrEqual(events[i - 1]!.loadedBytes);
    }
    expect(events.at(-1)).toMatchObject({ phase: 'ready', loadedBytes: total, totalBytes: total });
    expect(events.some((e) => e.phase === 'download' && e.file === 'onnx/model.onnx')).toBe(true);
    expect(report.bytes).toBe(total);
    expect(report.cachedFiles).toBe(0);
  });

  it('falls back along the device list and says why', async () => {
    const { embedder, report } = await loadTransformersEmbedder(tiny.embedder, { devices: ['webgpu', 'wasm', 'cpu'] });
    embedder.dispose();
    expect(report.device).toBe('cpu');
    expect(report.fallbackReason).toMatch(/^webgpu: .*; wasm: .*browser runtime/);
    expect(report.attempts.map((a) => [a.device, a.ok])).toEqual([
      ['webgpu', false],
      ['wasm', false],
      ['cpu', true],
    ]);
    await expect(loadTransformersEmbedder(tiny.embedder, { devices: ['gpu'] })).rejects.toThrow(
      /Unknown device "gpu"\. Allowed: webgpu, wasm, cpu/,
    );
    await expect(loadTransformersEmbedder(tiny.embedder, { devices: ['wasm'] })).rejects.toMatchObject({
      code: 'model_load_failed',
    });
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(loadTransformersEmbedder(tiny.embedder, { signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });

  it('says how to get a self-hosted model that is missing', async () => {
    const missing = { ...tiny.embedder, id: 'tiny/absent', path: 'tiny/absent' };
    await expect(loadTransformersEmbedder(missing)).rejects.toMatchObject({
      code: 'model_not_found',
      message: expect.stringMatching(/models\/tiny\/absent\/.*npm run models:tiny/),
    });
  });
});

describe('Hub models', () => {
  let server: Server;
  let host: string;
  const hits: string[] = [];
  const defaultHost = env.remoteHost;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.statusCode = 404;
      res.end('Entry not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    host = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
  });

  afterAll(async () => {
    env.remoteHost = defaultHost;
    await new Promise((r) => server.close(r));
  });

  it('without consent: model_not_found saying what to do, and no request', async () => {
    env.remoteHost = host;
    hits.length = 0;
    const err = await loadTransformersEmbedder(hubSpec('Example/not-self-hosted'), { allowRemote: false }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'model_not_found' });
    expect((err as Error).message).toMatch(/not self-hosted \(models\/Example\/not-self-hosted\/ is missing/);
    expect((err as Error).message).toMatch(/Allow model downloads in Settings/);
    expect((err as Error).message).toMatch(/npm run models:fetch -- --profile enhanced/);
    expect(hits).toEqual([]);
  });

  it('with consent: a 404 from the Hub is model_not_found naming the host', async () => {
    env.remoteHost = host;
    hits.length = 0;
    await expect(loadTransformersEmbedder(hubSpec('Example/missing'), { allowRemote: true })).rejects.toMatchObject({
      code: 'model_not_found',
      message: expect.stringContaining('was not found on 127.0.0.1'),
    });
    expect(hits.some((u) => u.startsWith('/Example/missing/resolve/main/'))).toBe(true);
  });

  it('with consent but no network: offline', async () => {
    // Port 9 (discard) on loopback is closed here: connection refused, as when offline.
    env.remoteHost = 'http://127.0.0.1:9/';
    await expect(loadTransformersEmbedder(hubSpec('Example/unreachable'), { allowRemote: true })).rejects.toMatchObject(
      {
        code: 'offline',
        message: expect.stringMatching(/network is unreachable/),
      },
    );
  });
});

describe('damaged cached files', () => {
  // Transformers.js keys a self-hosted file by its local path and a Hub download by its URL.
  it.each([
    ['local path', 0],
    ['Hub URL', 1],
  ])('evicts a damaged cached copy (keyed by its %s) and loads again from the source', async (_, which) => {
    const cache = new MemoryCache();
    configureRuntime({ localModelPath: `${MODELS_DIR}/`, allowRemote: false, cache });
    const key = cacheKeyCandidates(tiny.embedder, 'onnx/model.onnx')[which];
    const good = await readFile(join(MODELS_DIR, 'tiny/encoder/onnx/model.onnx'));
    cache.entries.set(key as string, good.subarray(0, good.length / 2));

    const { embedder, report } = await loadTransformersEmbedder(tiny.embedder);
    try {
      expect(report.cachedFiles).toBe(1);
      expect(report.cacheEvicted).toBe(true);
      expect(cache.entries.has(key as string)).toBe(false);
      const v = await embedder.embed(['remote work']);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    } finally {
      embedder.dispose();
      configureRuntime({ localModelPath: `${MODELS_DIR}/`, allowRemote: false, cache: 'none' });
    }
  });

  it('is cache_corrupted when the source is damaged too, and model_load_failed without a cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evident-models-'));
    try {
      await cp(join(MODELS_DIR, 'tiny/encoder'), join(dir, 'tiny/encoder'), { recursive: true });
      await writeFile(join(dir, 'tiny/encoder/onnx/model.onnx'), 'not an onnx file');

      configureRuntime({ localModelPath: `${dir}/`, allowRemote: false, cache: 'none' });
      await expect(loadTransformersEmbedder(tiny.embedder)).rejects.toMatchObject({
        code: 'model_load_failed',
        message: expect.stringMatching(/damaged \(.*protobuf parsing failed/i),
      });

      const cache = new MemoryCache();
      configureRuntime({ localModelPath: `${dir}/`, allowRemote: false, cache });
      const [key] = cacheKeyCandidates(tiny.embedder, 'onnx/model.onnx');
      cache.entries.set(key as string, new TextEncoder().encode('also damaged'));
      await expect(loadTransformersEmbedder(tiny.embedder)).rejects.toMatchObject({
        code: 'cache_corrupted',
        message: expect.stringMatching(/was damaged; it was removed/),
      });
      expect(cache.entries.has(key as string)).toBe(false);
    } finally {
      configureRuntime({ localModelPath: `${MODELS_DIR}/`, allowRemote: false, cache: 'none' });
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('classify', () => {
  it('sorts runtime messages by what the user can do', () => {
    const e = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(classify(e('ModelFileNotFoundError', 'x'))).toBe('not_found');
    expect(classify(e('TypeError', 'Failed to fetch'))).toBe('offline');
    expect(classify(e('TypeError', 'fetch failed'))).toBe('offline');
    expect(classify(e('Error', 'getaddrinfo ENOTFOUND huggingface.co'))).toBe('offline');
    expect(classify(e('RangeError', 'Array buffer allocation failed'))).toBe('out_of_memory');
    expect(classify(e('Error', "Can't create a session. failed to allocate a buffer of size 1073741824"))).toBe(
      'out_of_memory',
    );
    expect(classify(e('RuntimeError', 'Aborted(OOM)'))).toBe('out_of_memory');
    expect(classify(e('SyntaxError', 'Unexpected token < in JSON at position 0'))).toBe('damaged');
    expect(
      classify(
        e(
          'Error',
          "Can't create a session. ERROR_CODE: 7, ERROR_MESSAGE: Failed to load model because protobuf parsing failed.",
        ),
      ),
    ).toBe('damaged');
    expect(classify(e('AbortError', 'The operation was aborted'))).toBe('aborted');
    expect(classify(e('Error', 'Could not find an implementation for GatherBlockQuantized'))).toBe('device');
  });
});
