import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { injectManifest, precacheManifest } from '../scripts/service-worker-plugin';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function build(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-sw-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const BUILD = {
  'index.html': '<!doctype html>',
  'sw.js': 'const m = "__EVIDENT_PRECACHE__";',
  'assets/index-abc.js': 'console.log(1)',
  'assets/ort-abc.wasm': 'unused copy',
  'models/use-lite/model.json': '{}',
  'models/tiny/encoder/config.json': '{}',
  'vendor/tfjs/tfjs-backend-wasm.wasm': 'wasm',
  'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm': 'ort wasm',
  'vendor/ort/ort-wasm-simd-threaded.asyncify.mjs': 'ort glue',
};

const sha16 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

describe('precache manifest', () => {
  it('lists the precached files of a build, sorted, without the service worker, onnxruntime-web or other models', async () => {
    const manifest = await precacheManifest(await build(BUILD));
    expect(manifest.files).toEqual([
      'assets/index-abc.js',
      'index.html',
      'models/use-lite/model.json',
      'vendor/tfjs/tfjs-backend-wasm.wasm',
    ]);
    expect(manifest.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('lists onnxruntime-web and the other models as cached on first use, each with the hash of its content', async () => {
    const manifest = await precacheManifest(await build(BUILD));
    expect(manifest.runtime).toEqual({
      'models/tiny/encoder/config.json': sha16('{}'),
      'vendor/ort/ort-wasm-simd-threaded.asyncify.mjs': sha16('ort glue'),
      'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm': sha16('ort wasm'),
    });
  });

  it('has a new version when a precached file changes; a runtime file changes only its own hash', async () => {
    const base = await precacheManifest(await build(BUILD));
    const runtime = await precacheManifest(await build({ ...BUILD, 'models/tiny/encoder/config.json': '{"x":1}' }));
    const ort = await precacheManifest(
      await build({ ...BUILD, 'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm': 'ort wasm 2' }),
    );
    const changed = await precacheManifest(await build({ ...BUILD, 'models/use-lite/model.json': '{"v":2}' }));
    const excluded = await precacheManifest(await build({ ...BUILD, 'assets/ort-abc.wasm': 'another copy' }));
    expect(runtime.version).toBe(base.version);
    expect(runtime.runtime['models/tiny/encoder/config.json']).toBe(sha16('{"x":1}'));
    expect(ort.version).toBe(base.version);
    expect(ort.runtime).toEqual({
      ...base.runtime,
      'vendor/ort/ort-wasm-simd-threaded.asyncify.wasm': sha16('ort wasm 2'),
    });
    expect(changed.version).not.toBe(base.version);
    expect(changed.runtime).toEqual(base.runtime);
    expect(excluded).toEqual(base);
  });

  it('is written into the service worker in place of its one placeholder', () => {
    const manifest = { version: 'abc', files: ['index.html'], runtime: { 'vendor/ort/a.wasm': '00' } };
    const code = injectManifest('const m = "__EVIDENT_PRECACHE__";', manifest);
    expect(code).toBe(`const m = ${JSON.stringify(manifest)};`);
    expect(() => injectManifest('const m = 1;', manifest)).toThrow(/found 0/);
    expect(() => injectManifest('"__EVIDENT_PRECACHE__" + `__EVIDENT_PRECACHE__`', manifest)).toThrow(/found 2/);
  });
});
