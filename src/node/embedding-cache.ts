/**
 * Disk cache of embeddings for Node (eval and bench reruns over whole corpora).
 *
 * Layout: `<cacheDir>/<embedder id>/seg-*.bin`, one folder per embedder id (so a model or
 * preprocessing change never reuses stale vectors), keyed inside by the SHA-1 of each text.
 * Each segment is written to a temporary name and renamed, so a crash or a concurrent process
 * never leaves a half-written file visible; concurrent writers create separate segments. Many
 * small segments are merged once they pass `MAX_SEGMENTS`.
 *
 * Segment format v1 (little-endian): magic "EVEC", u32 version, u32 dim, u32 count,
 * count × 20-byte SHA-1 keys, count × dim float32 rows.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { EvidentError, assertKnownOptions } from '../core/errors';
import type { EmbedOptions, Embedder } from '../models/embedder';

const MAGIC = 0x43455645; // "EVEC" read as little-endian u32
const VERSION = 1;
const HEADER_BYTES = 16;
const KEY_BYTES = 20;
/** Beyond this many segment files, they are merged into one (keeps load to a few reads). */
const MAX_SEGMENTS = 32;

export interface EmbedCacheOptions {
  /** Root folder; one sub-folder per embedder id. */
  readonly cacheDir?: string;
  /** Progress over all texts, cached ones counted as done at once. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly signal?: AbortSignal;
  /** Passed to `embedder.embed`. */
  readonly batchSize?: number;
  /** Texts embedded between two segment writes: an interrupted run keeps what it computed. */
  readonly flushEvery?: number;
}

const DEFAULTS: Required<Omit<EmbedCacheOptions, 'onProgress' | 'signal' | 'batchSize'>> &
  Pick<EmbedCacheOptions, 'onProgress' | 'signal' | 'batchSize'> = Object.freeze({
  cacheDir: defaultCacheDir(),
  onProgress: undefined,
  signal: undefined,
  batchSize: undefined,
  flushEvery: 512,
});

/**
 * The cache lives outside the checkout (`$EVIDENT_CACHE_DIR`, else `$XDG_CACHE_HOME/evident/embeddings`,
 * else `~/.cache/evident/embeddings`) so a fresh clone on the same machine — CI's — reuses vectors
 * computed before. It is only a cache: a cold one is refilled, at the embedder's speed.
 */
export function defaultCacheDir(): string {
  if (process.env.EVIDENT_CACHE_DIR) return process.env.EVIDENT_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'evident', 'embeddings');
}

/** Where one embedder's segments live: readable, and unique per id even after sanitising. */
export function embedderCacheDir(cacheDir: string, embedderId: string): string {
  const safe = embedderId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  const tag = createHash('sha1').update(embedderId).digest('hex').slice(0, 8);
  return path.resolve(cacheDir, `${safe}-${tag}`);
}

/** Cache key of a text (SHA-1 of its UTF-8 bytes), as a binary string for Map lookups. */
function textKey(text: string): Buffer {
  return createHash('sha1').update(text, 'utf8').digest();
}

/**
 * Embeds `texts` with `embedder`, reading vectors computed earlier from the disk cache and storing
 * new ones. Returns the same row-major `n × dim` matrix `embedder.embed` would.
 */
export async function embedWithCache(
  embedder: Embedder,
  texts: readonly string[],
  options: EmbedCacheOptions = {},
): Promise<Float32Array> {
  assertKnownOptions(options, DEFAULTS, 'embedWithCache');
  const opts = { ...DEFAULTS, ...options };
  if (!Number.isInteger(opts.flushEvery) || opts.flushEvery < 1) {
    throw new EvidentError('invalid_option', `embedWithCache: flushEvery must be a positive integer.`);
  }
  const { dim } = embedder;
  const dir = embedderCacheDir(opts.cacheDir, embedder.id);
  const cache = await loadSegments(dir, dim);

  const out = new Float32Array(texts.length * dim);
  // Texts not in the cache, grouped by key so a repeated text is embedded once.
  const missing = new Map<string, { text: string; key: Buffer; rows: number[] }>();
  let done = 0;
  texts.forEach((text, i) => {
    const key = textKey(text);
    const id = key.toString('latin1');
    const hit = cache.get(id);
    if (hit) {
      out.set(hit, i * dim);
      done++;
      return;
    }
    const group = missing.get(id);
    if (group) group.rows.push(i);
    else missing.set(id, { text, key, rows: [i] });
  });
  opts.onProgress?.(done, texts.length);

  const pending = [...missing.values()];
  for (let start = 0; start < pending.length; start += opts.flushEvery) {
    const chunk = pending.slice(start, start + opts.flushEvery);
    const before = done;
    const vectors = await embedder.embed(
      chunk.map((g) => g.text),
      {
        signal: opts.signal,
        batchSize: opts.batchSize,
        onProgress: (d) => {
          // Progress in texts: a group of repeated texts finishes together.
          let n = 0;
          for (let g = 0; g < d; g++) n += (chunk[g] as { rows: number[] }).rows.length;
          opts.onProgress?.(before + n, texts.length);
        },
      } satisfies EmbedOptions,
    );
    chunk.forEach((g, r) => {
      const row = vectors.subarray(r * dim, (r + 1) * dim);
      for (const i of g.rows) out.set(row, i * dim);
      done += g.rows.length;
    });
    await writeSegment(
      dir,
      dim,
      chunk.map((g) => g.key),
      vectors,
    );
  }
  if (pending.length > 0) await compactIfNeeded(dir, dim);
  return out;
}

/** Reads every segment of one embedder: key (latin1 string) → vector view. */
async function loadSegments(dir: string, dim: number): Promise<Map<string, Float32Array>> {
  const map = new Map<string, Float32Array>();
  for (const file of await listSegments(dir)) {
    const seg = await readSegment(path.join(dir, file), dim);
    if (!seg) continue;
    seg.keys.forEach((key, r) => map.set(key, seg.vectors.subarray(r * dim, (r + 1) * dim)));
  }
  return map;
}

async function listSegments(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.startsWith('seg-') && f.endsWith('.bin')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** One segment, or null when it vanished (merged away by a concurrent compaction). */
async function readSegment(file: string, dim: number): Promise<{ keys: string[]; vectors: Float32Array } | null> {
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const damaged = (why: string): EvidentError =>
    new EvidentError('cache_corrupted', `Embedding cache file ${file} is unusable (${why}); delete it to rebuild.`);
  if (buf.length < HEADER_BYTES || buf.readUInt32LE(0) !== MAGIC) throw damaged('not a segment');
  const version = buf.readUInt32LE(4);
  if (version !== VERSION) throw damaged(`format version ${version}, this build reads ${VERSION}`);
  if (buf.readUInt32LE(8) !== dim) throw damaged(`dimension ${buf.readUInt32LE(8)}, expected ${dim}`);
  const count = buf.readUInt32LE(12);
  const vectorsAt = HEADER_BYTES + count * KEY_BYTES;
  if (buf.length !== vectorsAt + count * dim * 4) throw damaged('truncated');
  const keys: string[] = new Array(count);
  for (let r = 0; r < count; r++) {
    keys[r] = buf.toString('latin1', HEADER_BYTES + r * KEY_BYTES, HEADER_BYTES + (r + 1) * KEY_BYTES);
  }
  // A view when aligned (readFile gives a fresh buffer at offset 0), else one copy.
  const offset = buf.byteOffset + vectorsAt;
  const vectors =
    offset % 4 === 0
      ? new Float32Array(buf.buffer, offset, count * dim)
      : new Float32Array(buf.buffer.slice(offset, offset + count * dim * 4));
  return { keys, vectors };
}

async function writeSegment(dir: string, dim: number, keys: readonly Buffer[], vectors: Float32Array): Promise<void> {
  if (keys.length === 0) return;
  await mkdir(dir, { recursive: true });
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(VERSION, 4);
  header.writeUInt32LE(dim, 8);
  header.writeUInt32LE(keys.length, 12);
  const body = Buffer.from(vectors.buffer, vectors.byteOffset, keys.length * dim * 4);
  // Time-ordered names keep later segments later, so a re-embedded key's newest vector wins.
  const name = `seg-${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${randomBytes(4).toString('hex')}.bin`;
  const tmp = path.join(dir, `.${name}.tmp`);
  await writeFile(tmp, Buffer.concat([header, ...keys, body]));
  await rename(tmp, path.join(dir, name));
}

/** Merges all segments into one when there are too many. Safe against concurrent readers and writers. */
async function compactIfNeeded(dir: string, dim: number): Promise<void> {
  const files = await listSegments(dir);
  if (files.length <= MAX_SEGMENTS) return;
  const merged = new Map<string, Float32Array>();
  for (const file of files) {
    const seg = await readSegment(path.join(dir, file), dim);
    seg?.keys.forEach((key, r) => merged.set(key, seg.vectors.subarray(r * dim, (r + 1) * dim)));
  }
  const keys = [...merged.keys()].map((k) => Buffer.from(k, 'latin1'));
  const vectors = new Float32Array(keys.length * dim);
  [...merged.values()].forEach((v, r) => vectors.set(v, r * dim));
  await writeSegment(dir, dim, keys, vectors);
  // Only the files that were merged: a segment written meanwhile by another process stays.
  await Promise.all(files.map((f) => rm(path.join(dir, f), { force: true })));
}
