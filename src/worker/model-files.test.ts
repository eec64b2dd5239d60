import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import type { AssetManifest } from './asset-manifest';
import { concatShards, fetchModelFiles } from './model-files';

const BASE = new URL('http://app.test/models/x/');

function sha(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A same-origin "server": path → bytes, streamed in small chunks so progress has steps. */
function fakeFetch(files: Record<string, Uint8Array | string>, log: string[] = []): typeof fetch {
  return (async (input: URL | RequestInfo, init?: RequestInit) => {
    const url = new URL(String(input));
    log.push(url.pathname);
    const body = files[url.pathname.slice(BASE.pathname.length)];
    if (body === undefined) return new Response('not found', { status: 404 });
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 4) controller.enqueue(bytes.slice(i, i + 4));
        controller.close();
      },
    });
    init?.signal?.throwIfAborted();
    return new Response(stream, { status: 200 });
  }) as typeof fetch;
}

function manifestFor(files: Record<string, Uint8Array>): AssetManifest {
  return {
    version: 1,
    model: 'x',
    files: Object.entries(files).map(([path, data]) => ({ path, bytes: data.byteLength, sha256: sha(data) })),
  };
}

describe('fetchModelFiles', () => {
  const a = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const b = new Uint8Array([11, 12, 13]);

  it('downloads every file with monotonic byte progress that ends at the total', async () => {
    const files = { a, b };
    const progress: [number, number][] = [];
    const got = await fetchModelFiles(BASE, {
      fetch: fakeFetch({ 'manifest.json': JSON.stringify(manifestFor(files)), ...files }),
      onBytes: (l, t) => progress.push([l, t]),
    });
    expect(got.totalBytes).toBe(13);
    expect(Array.from(got.files.get('a')!)).toEqual(Array.from(a));
    expect(Array.from(got.files.get('b')!)).toEqual(Array.from(b));
    expect(progress[0]).toEqual([0, 13]);
    expect(progress.at(-1)).toEqual([13, 13]);
    for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThanOrEqual(progress[i - 1]![0]);
    expect(progress.length).toBeGreaterThan(3);
  });

  it('rejects a file that does not match its checksum (cache_corrupted)', async () => {
    const manifest = manifestFor({ a, b });
    const tampered = new Uint8Array(a);
    tampered[3] = 99;
    const err = await fetchModelFiles(BASE, {
      fetch: fakeFetch({ 'manifest.json': JSON.stringify(manifest), a: tampered, b }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvidentError);
    expect((err as EvidentError).code).toBe('cache_corrupted');
  });

  it('rejects truncated and oversized files', async () => {
    const manifest = manifestFor({ a });
    await expect(
      fetchModelFiles(BASE, {
        fetch: fakeFetch({ 'manifest.json': JSON.stringify(manifest), a: a.slice(0, 7) }),
        verify: false,
      }),
    ).rejects.toMatchObject({ code: 'cache_corrupted', message: expect.stringMatching(/truncated/) });
    await expect(
      fetchModelFiles(BASE, {
        fetch: fakeFetch({ 'manifest.json': JSON.stringify(manifest), a: new Uint8Array(12) }),
        verify: false,
      }),
    ).rejects.toMatchObject({ code: 'cache_corrupted', message: expect.stringMatching(/larger/) });
  });

  it('reports a missing manifest or file as model_not_found, and an unknown manifest version', async () => {
    await expect(fetchModelFiles(BASE, { fetch: fakeFetch({}) })).rejects.toMatchObject({ code: 'model_not_found' });
    await expect(
      fetchModelFiles(BASE, { fetch: fakeFetch({ 'manifest.json': JSON.stringify(manifestFor({ a })) }) }),
    ).rejects.toMatchObject({ code: 'model_not_found' });
    await expect(
      fetchModelFiles(BASE, { fetch: fakeFetch({ 'manifest.json': JSON.stringify({ version: 2, files: [] }) }) }),
    ).rejects.toMatchObject({ code: 'model_load_failed' });
  });

  it('only fetches from under the base URL', async () => {
    const log: string[] = [];
    const files = { a, b };
    await fetchModelFiles(BASE, {
      fetch: fakeFetch({ 'manifest.json': JSON.stringify(manifestFor(files)), ...files }, log),
    });
    expect(log.sort()).toEqual(['/models/x/a', '/models/x/b', '/models/x/manifest.json']);
  });

  it('stops with "aborted" when the signal fires', async () => {
    const files = { a, b };
    const controller = new AbortController();
    controller.abort(new EvidentError('aborted', 'Cancelled.'));
    await expect(
      fetchModelFiles(BASE, {
        fetch: fakeFetch({ 'manifest.json': JSON.stringify(manifestFor(files)), ...files }),
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('concatShards', () => {
  it('joins shards in order', () => {
    const out = new Uint8Array(concatShards([new Uint8Array([1, 2]), new Uint8Array([]), new Uint8Array([3])]));
    expect(Array.from(out)).toEqual([1, 2, 3]);
  });
});
