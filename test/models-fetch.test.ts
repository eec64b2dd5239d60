/**
 * `npm run models:fetch` against a local stand-in for the Hub (real sockets, real files): files land
 * in `models/<id>/`, pinned sizes and hashes are verified, present files are skipped, and an
 * unreachable host exits 2 with one line saying what to do.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchModels, HubUnreachableError } from '../scripts/models-fetch.ts';
import { parseManifest } from '../src/models/manifest';
import { ROOT, loadManifest } from './tiny-models';

const FILES: Record<string, string> = {
  '/Org/model/resolve/main/config.json': '{"model_type":"bert"}',
  '/Org/model/resolve/main/onnx/model_quantized.onnx': 'x'.repeat(5000),
};
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

let server: Server;
let host: string;
const hits: string[] = [];
let dir: string;

/** The committed manifest with the enhanced profile reduced to one small Hub model. */
async function writeManifest(files: { path: string; bytes: number | null; sha256?: string }[]): Promise<string> {
  const m = JSON.parse(JSON.stringify(await loadManifest())) as {
    profiles: { enhanced: { roles: Record<string, unknown> } };
  };
  const known = files.every((f) => f.bytes !== null);
  m.profiles.enhanced.roles = {
    embedder: {
      id: 'Org/model',
      runtime: 'transformers',
      task: 'feature-extraction',
      dtype: 'q8',
      license: 'MIT',
      source: 'hub',
      bytes: known ? files.reduce((a, f) => a + (f.bytes as number), 0) : null,
      pooling: 'cls',
      normalize: true,
      files,
    },
    'cross-encoder': null,
    nli: null,
    generator: null,
  };
  const path = join(dir, 'manifest.json');
  await writeFile(path, JSON.stringify(m, null, 2));
  return path;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = FILES[req.url ?? ''];
    res.statusCode = body === undefined ? 404 : 200;
    res.end(body ?? 'Entry not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  host = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-fetch-'));
  hits.length = 0;
  return () => rm(dir, { recursive: true, force: true });
});

describe('models:fetch', () => {
  it('downloads into models/<id>/, verifies pinned hashes, skips present files, records sizes', async () => {
    const onnx = FILES['/Org/model/resolve/main/onnx/model_quantized.onnx']!;
    const manifestPath = await writeManifest([
      { path: 'config.json', bytes: null },
      { path: 'onnx/model_quantized.onnx', bytes: onnx.length, sha256: sha(onnx) },
    ]);
    const first = await fetchModels({ profile: 'enhanced', host, outDir: dir, manifestPath, writeManifest: true });
    expect(first.map((f) => [f.path, f.skipped])).toEqual([
      ['config.json', false],
      ['onnx/model_quantized.onnx', false],
    ]);
    expect(await readFile(join(dir, 'Org/model/onnx/model_quantized.onnx'), 'utf8')).toBe(onnx);
    // --write-manifest pinned the unknown size and hash, and the result still validates.
    const updated = parseManifest(JSON.parse(await readFile(manifestPath, 'utf8')));
    const spec = updated.profiles.enhanced.roles.embedder!;
    expect(spec.files[0]).toEqual({
      path: 'config.json',
      bytes: 21,
      sha256: sha(FILES['/Org/model/resolve/main/config.json']!),
    });
    expect(spec.bytes).toBe(21 + onnx.length);

    hits.length = 0;
    const second = await fetchModels({ profile: 'enhanced', host, outDir: dir, manifestPath });
    expect(second.every((f) => f.skipped)).toBe(true);
    expect(hits).toEqual([]);
  });

  it('rejects a file whose hash differs from the manifest and leaves nothing behind', async () => {
    const manifestPath = await writeManifest([{ path: 'config.json', bytes: 21, sha256: sha('something else') }]);
    await expect(fetchModels({ profile: 'enhanced', host, outDir: dir, manifestPath })).rejects.toThrow(
      /config\.json: SHA-256 .* does not match/,
    );
    await expect(stat(join(dir, 'Org/model/config.json'))).rejects.toThrow();
  });

  it('reports a 404 naming the file', async () => {
    const manifestPath = await writeManifest([{ path: 'missing.json', bytes: null }]);
    await expect(fetchModels({ profile: 'enhanced', host, outDir: dir, manifestPath })).rejects.toThrow(
      /Org\/model\/missing\.json: HTTP 404/,
    );
  });

  it('exits 2 with one line when the Hub is unreachable', async () => {
    const manifestPath = await writeManifest([{ path: 'config.json', bytes: null }]);
    await expect(
      fetchModels({ profile: 'enhanced', host: 'http://127.0.0.1:9', outDir: dir, manifestPath }),
    ).rejects.toBeInstanceOf(HubUnreachableError);

    const run = promisify(execFile);
    const err = (await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/models-fetch.ts',
        '--profile',
        'enhanced',
        '--host',
        'http://127.0.0.1:9',
        '--out',
        dir,
      ],
      { cwd: ROOT },
    ).catch((e: unknown) => e)) as { code: number; stderr: string };
    // The manifest under --out is the one written above.
    expect(err.code).toBe(2);
    const lines = err.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('models:fetch'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^models:fetch: cannot reach 127\.0\.0\.1:9: .*copy the files .* into models\/<id>\/ by hand\.$/,
    );
  });
});
