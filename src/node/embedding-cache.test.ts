import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmbedOptions, Embedder } from '../models/embedder';
import { embedderCacheDir, embedWithCache } from './embedding-cache';

/**
 * A deterministic stand-in for a model (the cache is the unit under test, not the embedder):
 * each text maps to a vector derived from its SHA-256, and every embedded text is recorded.
 */
class HashEmbedder implements Embedder {
  readonly dim = 8;
  readonly maxTokens = 128;
  readonly seen: string[] = [];
  constructor(readonly id = 'hash-embedder@1') {}
  countTokens(text: string): number {
    return text.split(/\s+/).filter(Boolean).length;
  }
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> {
    const out = new Float32Array(texts.length * this.dim);
    texts.forEach((t, i) => {
      this.seen.push(t);
      const h = createHash('sha256').update(this.id).update(t).digest();
      for (let j = 0; j < this.dim; j++) out[i * this.dim + j] = (h[j] as number) / 255 - 0.5;
      options.onProgress?.(i + 1, texts.length);
    });
    return out;
  }
  dispose(): void {}
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'evident-embcache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('embedWithCache', () => {
  it('returns what the embedder returns, and embeds nothing on a rerun', async () => {
    const texts = ['alpha', 'beta', 'gamma', 'beta', 'héllo wörld 😀', ''];
    const first = new HashEmbedder();
    const direct = await new HashEmbedder().embed(texts);
    const a = await embedWithCache(first, texts, { cacheDir: dir, flushEvery: 2 });
    expect(a).toEqual(direct);
    // "beta" appears twice but is embedded once.
    expect(first.seen).toEqual(['alpha', 'beta', 'gamma', 'héllo wörld 😀', '']);

    const second = new HashEmbedder();
    const b = await embedWithCache(second, texts, { cacheDir: dir });
    expect(second.seen).toEqual([]);
    expect(b).toEqual(direct);
  });

  it('embeds only the texts it has not seen, in any order', async () => {
    const e1 = new HashEmbedder();
    await embedWithCache(e1, ['one', 'two'], { cacheDir: dir });
    const e2 = new HashEmbedder();
    const texts = ['three', 'two', 'one', 'four'];
    const got = await embedWithCache(e2, texts, { cacheDir: dir });
    expect(e2.seen).toEqual(['three', 'four']);
    expect(got).toEqual(await new HashEmbedder().embed(texts));
  });

  it('keeps embedders apart by id', async () => {
    await embedWithCache(new HashEmbedder('model-a'), ['same text'], { cacheDir: dir });
    const b = new HashEmbedder('model-b');
    const got = await embedWithCache(b, ['same text'], { cacheDir: dir });
    expect(b.seen).toEqual(['same text']);
    expect(got).toEqual(await new HashEmbedder('model-b').embed(['same text']));
    expect(embedderCacheDir(dir, 'model-a')).not.toBe(embedderCacheDir(dir, 'model-b'));
    expect(embedderCacheDir(dir, 'a/b')).not.toBe(embedderCacheDir(dir, 'a_b'));
  });

  it('reports progress over all texts, cached ones first', async () => {
    await embedWithCache(new HashEmbedder(), ['a', 'b'], { cacheDir: dir });
    const calls: number[] = [];
    await embedWithCache(new HashEmbedder(), ['a', 'b', 'c', 'c', 'd'], {
      cacheDir: dir,
      onProgress: (done, total) => {
        expect(total).toBe(5);
        calls.push(done);
      },
    });
    expect(calls[0]).toBe(2);
    expect(calls.at(-1)).toBe(5);
    expect([...calls].sort((x, y) => x - y)).toEqual(calls);
  });

  it('merges many small segments into one and still serves every vector', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `text ${i}`);
    await embedWithCache(new HashEmbedder(), texts, { cacheDir: dir, flushEvery: 1 });
    const files = await readdir(embedderCacheDir(dir, 'hash-embedder@1'));
    expect(files.filter((f) => f.startsWith('seg-'))).toHaveLength(1);
    const again = new HashEmbedder();
    expect(await embedWithCache(again, texts, { cacheDir: dir })).toEqual(await new HashEmbedder().embed(texts));
    expect(again.seen).toEqual([]);
  });

  it('refuses a damaged segment with an actionable error, and unknown options', async () => {
    const seg = embedderCacheDir(dir, 'hash-embedder@1');
    await embedWithCache(new HashEmbedder(), ['x'], { cacheDir: dir });
    await writeFile(path.join(seg, 'seg-zzzzzzzzz-1-bad.bin'), Buffer.from('not a segment at all'));
    await expect(embedWithCache(new HashEmbedder(), ['x'], { cacheDir: dir })).rejects.toMatchObject({
      code: 'cache_corrupted',
      message: expect.stringMatching(/delete it to rebuild/),
    });
    await expect(embedWithCache(new HashEmbedder(), ['x'], { cacheDir: dir, dir } as never)).rejects.toThrow(
      /unknown option "dir"/,
    );
  });
});
