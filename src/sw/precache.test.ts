import { describe, expect, it } from 'vitest';
import { cacheName, isPrecached, routeRequest, staleCaches, withIsolationHeaders, type Route } from './precache';

describe('isPrecached', () => {
  it('keeps the shell, bundles, the embedded model, the WASM runtimes and pdf.js assets', () => {
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
      'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm',
      'vendor/ort/ort-wasm-simd-threaded.asyncify.mjs',
      'vendor/pdfjs/cmaps/Adobe-Japan1-UCS2.bcmap',
      'vendor/pdfjs/standard_fonts/FoxitSans.pfb',
    ])
      expect(isPrecached(path), path).toBe(true);
  });

  it('leaves out other models, Vite copies of WASM files, maps, dotfiles, host files and the service worker', () => {
    for (const path of [
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

describe('routeRequest', () => {
  const scope = new URL('https://example.org/evident/');
  const precached = new Set(['index.html', 'assets/index-abc.js', 'models/use-lite/group1-shard1of7']);
  const route = (url: string, extra: Partial<{ method: string; mode: string; range: boolean }> = {}): Route =>
    routeRequest({ url, method: 'GET', mode: 'cors', range: false, ...extra }, scope, precached);

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

  it('leaves everything else to the network', () => {
    // Another base path on the same origin, another origin, a file not in the manifest.
    expect(route('https://example.org/other/', { mode: 'navigate' })).toEqual({ kind: 'network' });
    expect(route('https://example.org/assets/index-abc.js')).toEqual({ kind: 'network' });
    expect(route('https://cdn.example.net/evident/assets/index-abc.js')).toEqual({ kind: 'network' });
    expect(route('https://example.org/evident/models/tiny/encoder/onnx/model.onnx')).toEqual({ kind: 'network' });
    // Not GET, a Range request, a malformed escape.
    expect(route('https://example.org/evident/assets/index-abc.js', { method: 'POST' })).toEqual({ kind: 'network' });
    expect(route('https://example.org/evident/assets/index-abc.js', { range: true })).toEqual({ kind: 'network' });
    expect(route('https://example.org/evident/%E0%A4%A')).toEqual({ kind: 'network' });
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

describe('withIsolationHeaders', () => {
  it('adds COOP and COEP when missing, keeping status, other headers and the body', async () => {
    const res = withIsolationHeaders(
      new Response('hello', { status: 200, statusText: 'OK', headers: { 'Content-Type': 'text/html' } }),
    );
    expect(res.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
    expect(res.headers.get('Cross-Origin-Embedder-Policy')).toBe('require-corp');
    expect(res.headers.get('Content-Type')).toBe('text/html');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
  });

  it('returns a response that already has both headers unchanged, and keeps the host values', () => {
    const original = new Response('x', {
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'credentialless' },
    });
    expect(withIsolationHeaders(original)).toBe(original);
  });
});
