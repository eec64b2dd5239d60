import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CACHE_OCR_MESSAGE,
  CACHE_RUNTIME_MESSAGE,
  FILE_HASH_HEADER,
  MODEL_CACHE,
  cacheName,
  fileHash,
  hashCheckable,
  isCurrentEntry,
  isPrecached,
  isRuntimeCached,
  isStorable,
  manifestLookup,
  ocrFilesToCache,
  routeRequest,
  runtimeFilesToCache,
  staleCaches,
  staleRuntimeEntries,
  tesseractCore,
  withFileHash,
  withAppHeaders,
  type Route,
} from './precache';
import { CSP_DIRECTIVES, serializeCsp } from '../security/csp';

describe('isPrecached', () => {
  it('keeps what the Embedded profile needs: shell, bundles, the embedded model, TF.js WASM, pdf.js assets', () => {
    for (const path of [
      'index.html',
      'assets/index-abc.js',
      'assets/index-abc.css',
      'assets/worker-abc.js',
      'assets/pdf.worker-abc.js',
      'models/use-lite/model.json',
      'models/use-lite/group1-shard1of7',
      'models/use-lite/manifest.json',
      'vendor/tfjs/tfjs-backend-wasm-simd.wasm',
      'vendor/pdfjs/cmaps/Adobe-Japan1-UCS2.bcmap',
      'vendor/pdfjs/standard_fonts/FoxitSans.pfb',
    ])
      expect(isPrecached(path), path).toBe(true);
  });

  it('leaves out onnxruntime-web, other models, Vite copies of WASM files, maps, dotfiles, host files and the service worker', () => {
    for (const path of [
      'vendor/tesseract/worker.min.js',
      'vendor/tesseract/tesseract-core-simd-lstm.wasm.js',
      'vendor/tesseract/lang/eng.traineddata.gz',
      'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
      'vendor/ort/ort-wasm-simd-threaded.asyncify.mjs',
      'sw.js',
      '_headers',
      '_redirects',
      'models/tiny/encoder/onnx/model.onnx',
      'models/Xenova/bge-small-en-v1.5/onnx/model_quantized.onnx',
      'models/use-lite-copy/model.json',
      'assets/ort-wasm-simd-threaded.asyncify-abc.wasm',
      'assets/index-abc.js.map',
      '.DS_Store',
      'vendor/.cache/x',
    ])
      expect(isPrecached(path), path).toBe(false);
  });
});

describe('isRuntimeCached', () => {
  it('caches onnxruntime-web and the models other than the embedded one on first use', () => {
    for (const path of [
      'vendor/tesseract/worker.min.js',
      'vendor/tesseract/tesseract-core-simd-lstm.wasm.js',
      'vendor/tesseract/lang/eng.traineddata.gz',
      'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
      'vendor/ort/ort-wasm-simd-threaded.asyncify.mjs',
      'models/tiny/encoder/onnx/model.onnx',
      'models/Xenova/bge-small-en-v1.5/onnx/model_quantized.onnx',
      'models/manifest.json',
    ])
      expect(isRuntimeCached(path), path).toBe(true);
  });

  it('not what is precached, nor files neither cache serves', () => {
    for (const path of [
      'index.html',
      'assets/index-abc.js',
      'models/use-lite/model.json',
      'vendor/tfjs/tfjs-backend-wasm-simd.wasm',
      'assets/ort-wasm-simd-threaded.asyncify-abc.wasm',
      'vendor/ort/ort.mjs.map',
      'models/.cache/x',
      'sw.js',
    ])
      expect(isRuntimeCached(path), path).toBe(false);
  });

  it('shares the cache Transformers.js reads first (its env.cacheKey)', async () => {
    const { env } = await import('@huggingface/transformers');
    expect(MODEL_CACHE).toBe(env.cacheKey);
  });
});

describe('routeRequest', () => {
  const scope = new URL('https://example.org/evident/');
  const files = manifestLookup({
    version: 'v',
    files: ['index.html', 'assets/index-abc.js', 'models/use-lite/group1-shard1of7'],
    runtime: { 'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm': '0123456789abcdef', 'models/tiny/a b.json': 'ff' },
  });
  const route = (url: string, extra: Partial<{ method: string; mode: string; range: boolean }> = {}): Route =>
    routeRequest({ url, method: 'GET', mode: 'cors', range: false, ...extra }, scope, files);

  it('answers navigations under the scope, and precached files by their path under the base', () => {
    expect(route('https://example.org/evident/', { mode: 'navigate' })).toEqual({ kind: 'navigate' });
    expect(route('https://example.org/evident/?q=1#ask', { mode: 'navigate' })).toEqual({ kind: 'navigate' });
    expect(route('https://example.org/evident/assets/index-abc.js')).toEqual({
      kind: 'precache',
      path: 'assets/index-abc.js',
    });
    expect(route('https://example.org/evident/models/use-lite/group1-shard1of7')).toEqual({
      kind: 'precache',
      path: 'models/use-lite/group1-shard1of7',
    });
  });

  it('answers the files cached on first use with their hash', () => {
    expect(route('https://example.org/evident/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm')).toEqual({
      kind: 'runtime',
      path: 'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
      hash: '0123456789abcdef',
    });
    expect(route('https://example.org/evident/models/tiny/a%20b.json')).toEqual({
      kind: 'runtime',
      path: 'models/tiny/a b.json',
      hash: 'ff',
    });
  });

  it('leaves everything else to the network', () => {
    // Another base path on the same origin, another origin, a file not in the manifest.
    expect(route('https://example.org/other/', { mode: 'navigate' })).toEqual({ kind: 'network' });
    expect(route('https://example.org/assets/index-abc.js')).toEqual({ kind: 'network' });
    expect(route('https://cdn.example.net/evident/assets/index-abc.js')).toEqual({ kind: 'network' });
    expect(route('https://cdn.example.net/evident/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm')).toEqual({
      kind: 'network',
    });
    expect(route('https://example.org/evident/models/tiny/encoder/onnx/model.onnx')).toEqual({ kind: 'network' });
    expect(route('https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/onnx/model.onnx')).toEqual({
      kind: 'network',
    });
    // Not GET, a Range request, a malformed escape.
    expect(route('https://example.org/evident/assets/index-abc.js', { method: 'POST' })).toEqual({ kind: 'network' });
    expect(route('https://example.org/evident/assets/index-abc.js', { range: true })).toEqual({ kind: 'network' });
    expect(
      route('https://example.org/evident/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm', { range: true }),
    ).toEqual({ kind: 'network' });
    expect(route('https://example.org/evident/%E0%A4%A')).toEqual({ kind: 'network' });
  });
});

describe('runtime cache entries', () => {
  const scope = new URL('https://example.org/evident/');
  const ort = 'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm';
  const model = 'models/Xenova/bge-small-en-v1.5/onnx/model_quantized.onnx';
  const runtime = new Map([
    [ort, 'aaaa'],
    [model, 'bbbb'],
  ]);

  it('an entry answers for the build file with the same hash; a model file stored without one too, onnxruntime-web not', () => {
    expect(isCurrentEntry(ort, 'aaaa', 'aaaa')).toBe(true);
    expect(isCurrentEntry(ort, 'old', 'aaaa')).toBe(false);
    expect(isCurrentEntry(ort, null, 'aaaa')).toBe(false);
    expect(isCurrentEntry(model, null, 'bbbb')).toBe(true);
    expect(isCurrentEntry(model, 'old', 'bbbb')).toBe(false);
  });

  it('a new build deletes changed runtime files and onnxruntime-web files it does not ship, and nothing else', () => {
    const at = (path: string): string => new URL(path, scope).href;
    const entries = [
      { url: at(ort), hash: 'old' }, // another onnxruntime-web build: stale
      { url: at('vendor/ort/ort-wasm-simd-threaded.jsep.wasm'), hash: 'cccc' }, // no longer shipped
      { url: at('vendor/ort/ort-wasm-simd-threaded.asyncify.mjs'), hash: null }, // cannot tell: stale
      { url: at(model), hash: 'bbbb' }, // current
      { url: at('models/tiny/encoder/config.json'), hash: 'dddd' }, // no longer listed: a valid copy, kept
      { url: at('models/Xenova/nli/config.json'), hash: null }, // stored by Transformers.js alone: kept
      { url: 'https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/onnx/model.onnx', hash: null },
      { url: 'https://example.org/other/vendor/ort/ort-wasm-simd-threaded.asyncify.wasm', hash: 'old' },
      { url: at('assets/index-abc.js'), hash: null },
    ];
    expect(staleRuntimeEntries(entries, scope, runtime)).toEqual([
      at(ort),
      at('vendor/ort/ort-wasm-simd-threaded.jsep.wasm'),
      at('vendor/ort/ort-wasm-simd-threaded.asyncify.mjs'),
    ]);
    expect(staleRuntimeEntries([{ url: at(ort), hash: 'aaaa' }], scope, runtime)).toEqual([]);
  });

  it('stores whole 200 responses that are not an HTML fallback, stamped with the file hash', async () => {
    expect(isStorable(new Response('wasm', { headers: { 'Content-Type': 'application/wasm' } }))).toBe(true);
    expect(isStorable(new Response('<!doctype html>', { headers: { 'Content-Type': 'text/html' } }))).toBe(false);
    expect(isStorable(new Response('', { status: 404 }))).toBe(false);
    expect(isStorable(new Response('part', { status: 206 }))).toBe(false);
    expect(isStorable(Response.error())).toBe(false);
    const stamped = withFileHash(
      new Response('bytes', { status: 200, headers: { 'Content-Type': 'application/wasm' } }),
      'aaaa',
    );
    expect(stamped.headers.get(FILE_HASH_HEADER)).toBe('aaaa');
    expect(stamped.headers.get('Content-Type')).toBe('application/wasm');
    expect(await stamped.text()).toBe('bytes');
  });
});

describe('caches', () => {
  it('a new build deletes the earlier builds of its own base path only', () => {
    const names = [
      cacheName('/evident/', 'old1'),
      cacheName('/evident/', 'new'),
      cacheName('/other/', 'old1'),
      'transformers-cache',
    ];
    expect(staleCaches(names, '/evident/', 'new')).toEqual([cacheName('/evident/', 'old1')]);
    expect(cacheName('/evident/', 'a')).not.toBe(cacheName('/evident/', 'b'));
  });
});

describe('withAppHeaders', () => {
  it('adds COOP and COEP when missing, keeping status, other headers and the body', async () => {
    const res = withAppHeaders(
      new Response('hello', { status: 200, statusText: 'OK', headers: { 'Content-Type': 'text/html' } }),
    );
    expect(res.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
    expect(res.headers.get('Cross-Origin-Embedder-Policy')).toBe('require-corp');
    expect(res.headers.get('Content-Type')).toBe('text/html');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
  });

  it('adds the Content Security Policy of src/security/csp.ts where the host sent none', () => {
    const res = withAppHeaders(new Response('<!doctype html>', { headers: { 'Content-Type': 'text/html' } }));
    expect(res.headers.get('Content-Security-Policy')).toBe(serializeCsp(CSP_DIRECTIVES));
    expect(res.headers.get('Content-Security-Policy')).toMatch(/frame-ancestors 'none'/);
  });

  it('returns a response that already has every header unchanged, and keeps the host values', () => {
    const hosted = {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'credentialless',
      'Content-Security-Policy': "default-src 'self'",
    };
    const original = new Response('x', { headers: hosted });
    expect(withAppHeaders(original)).toBe(original);
    const partial = withAppHeaders(
      new Response('x', { headers: { 'Cross-Origin-Embedder-Policy': 'credentialless' } }),
    );
    expect(partial.headers.get('Cross-Origin-Embedder-Policy')).toBe('credentialless');
    expect(partial.headers.get('Content-Security-Policy')).toBe(serializeCsp(CSP_DIRECTIVES));
  });
});

describe('runtimeFilesToCache', () => {
  it('answers the message the page sends', async () => {
    const page = await import('../ui/service-worker');
    expect(page.CACHE_RUNTIME_MESSAGE).toBe(CACHE_RUNTIME_MESSAGE);
  });

  const runtime = new Map([
    ['vendor/ort/ort-wasm-simd-threaded.asyncify.mjs', 'aaaaaaaaaaaaaaaa'],
    ['vendor/ort/ort-wasm-simd-threaded.asyncify.wasm', 'bbbbbbbbbbbbbbbb'],
    ['models/tiny/encoder/onnx/model.onnx', 'cccccccccccccccc'],
  ]);
  it('lists the onnxruntime-web files not held with the build hash, never a model file', () => {
    expect(runtimeFilesToCache(runtime, new Map())).toEqual([
      'vendor/ort/ort-wasm-simd-threaded.asyncify.mjs',
      'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
    ]);
    const stored = new Map<string, string | null>([
      ['vendor/ort/ort-wasm-simd-threaded.asyncify.mjs', 'aaaaaaaaaaaaaaaa'],
      // Stored by Transformers.js without the stamp, or by another build: fetched again.
      ['vendor/ort/ort-wasm-simd-threaded.asyncify.wasm', null],
    ]);
    expect(runtimeFilesToCache(runtime, stored)).toEqual(['vendor/ort/ort-wasm-simd-threaded.asyncify.wasm']);
    stored.set('vendor/ort/ort-wasm-simd-threaded.asyncify.wasm', 'bbbbbbbbbbbbbbbb');
    expect(runtimeFilesToCache(runtime, stored)).toEqual([]);
  });
});

describe('ocrFilesToCache', () => {
  it('answers the message the page sends', async () => {
    const page = await import('../ui/service-worker');
    expect(page.CACHE_OCR_MESSAGE).toBe(CACHE_OCR_MESSAGE);
    expect(CACHE_OCR_MESSAGE).not.toBe(CACHE_RUNTIME_MESSAGE);
  });

  it('names the core tesseract.js picks: relaxed SIMD, else SIMD, else the plain build', () => {
    expect(tesseractCore({ simd: true, relaxedSimd: true })).toBe(
      'vendor/tesseract/tesseract-core-relaxedsimd-lstm.wasm.js',
    );
    expect(tesseractCore({ simd: true, relaxedSimd: false })).toBe('vendor/tesseract/tesseract-core-simd-lstm.wasm.js');
    expect(tesseractCore({ simd: false, relaxedSimd: false })).toBe('vendor/tesseract/tesseract-core-lstm.wasm.js');
  });

  it("follows tesseract.js's own choice (its getCore.js, LSTM-only branch, in that order)", () => {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve('tesseract.js/package.json'));
    const source = readFileSync(join(root, 'src/worker-script/browser/getCore.js'), 'utf8');
    const at = (name: string): number => source.indexOf(`/${name}\``);
    const order = ['relaxedsimd-lstm', 'simd-lstm', 'lstm'].map((v) => at(`tesseract-core-${v}.wasm.js`));
    for (const i of order) expect(i).toBeGreaterThan(-1);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(source).toMatch(/if \(relaxedSimdSupport\)[\s\S]*else if \(simdSupport\)/);
  });

  const runtime = new Map([
    ['vendor/tesseract/worker.min.js', '1111111111111111'],
    ['vendor/tesseract/tesseract-core-lstm.wasm.js', '2222222222222222'],
    ['vendor/tesseract/tesseract-core-simd-lstm.wasm.js', '3333333333333333'],
    ['vendor/tesseract/tesseract-core-relaxedsimd-lstm.wasm.js', '4444444444444444'],
    ['vendor/tesseract/lang/eng.traineddata.gz', '5555555555555555'],
    ['vendor/ort/ort-wasm-simd-threaded.asyncify.wasm', 'bbbbbbbbbbbbbbbb'],
    ['models/tiny/encoder/onnx/model.onnx', 'cccccccccccccccc'],
  ]);
  const simdOnly = { simd: true, relaxedSimd: false };

  it('lists the worker script, the language data and the one core this browser loads; nothing of ORT or models', () => {
    expect(ocrFilesToCache(runtime, new Map(), simdOnly)).toEqual([
      'vendor/tesseract/worker.min.js',
      'vendor/tesseract/tesseract-core-simd-lstm.wasm.js',
      'vendor/tesseract/lang/eng.traineddata.gz',
    ]);
    expect(ocrFilesToCache(runtime, new Map(), { simd: false, relaxedSimd: false })).toContain(
      'vendor/tesseract/tesseract-core-lstm.wasm.js',
    );
    expect(ocrFilesToCache(runtime, new Map(), { simd: true, relaxedSimd: true })).not.toContain(
      'vendor/tesseract/tesseract-core-simd-lstm.wasm.js',
    );
  });

  it('leaves out what the cache holds with the build hash; an unstamped or older copy is fetched again', () => {
    const stored = new Map<string, string | null>([
      ['vendor/tesseract/worker.min.js', '1111111111111111'],
      ['vendor/tesseract/lang/eng.traineddata.gz', null],
      ['vendor/tesseract/tesseract-core-simd-lstm.wasm.js', '9999999999999999'],
    ]);
    expect(ocrFilesToCache(runtime, stored, simdOnly)).toEqual([
      'vendor/tesseract/tesseract-core-simd-lstm.wasm.js',
      'vendor/tesseract/lang/eng.traineddata.gz',
    ]);
    stored.set('vendor/tesseract/lang/eng.traineddata.gz', '5555555555555555');
    stored.set('vendor/tesseract/tesseract-core-simd-lstm.wasm.js', '3333333333333333');
    expect(ocrFilesToCache(runtime, stored, simdOnly)).toEqual([]);
  });
});

describe('hashCheckable', () => {
  it('checks a body sent as it is, not one the browser decoded (a `.gz` file sent as Content-Encoding: gzip)', () => {
    expect(hashCheckable(new Headers({ 'Content-Type': 'text/javascript' }))).toBe(true);
    expect(hashCheckable(new Headers({ 'Content-Encoding': 'identity' }))).toBe(true);
    expect(hashCheckable(new Headers({ 'Content-Encoding': 'gzip' }))).toBe(false);
    expect(hashCheckable(new Headers({ 'Content-Encoding': ' BR ' }))).toBe(false);
  });
});

describe('fileHash', () => {
  it("is the build's hash of a file: the first 16 hex digits of its SHA-256", async () => {
    for (const text of ['', 'tesseract', 'x'.repeat(100_000)]) {
      const bytes = new TextEncoder().encode(text);
      expect(await fileHash(bytes.buffer)).toBe(createHash('sha256').update(bytes).digest('hex').slice(0, 16));
    }
  });
});
