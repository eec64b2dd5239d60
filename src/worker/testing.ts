/**
 * Test collaborators for the worker's units (not shipped: only tests import this file).
 */
import { EvidentError } from '../core/errors';
import type { EmbedOptions, Embedder } from '../models/embedder';

export interface WordHashOptions {
  /** Embedder id (vectors are keyed by it: two ids are two models). Default `word-hash-64`. */
  readonly id?: string;
  readonly dim?: number;
  /** Yield a macrotask before every n-th text (a batch boundary where an abort lands). Default 0: never. */
  readonly yieldEvery?: number;
}

/**
 * A deterministic stand-in embedder: hashed bag of words (FNV-1a of each lower-cased run of
 * letters and digits), L2-normalised, one token per word. Words in common ⇒ positive cosine.
 * The engine and the ingest path are what tests exercise; the model is a collaborator.
 */
export class WordHashEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  readonly maxTokens = 512;
  /** `embed` calls so far. */
  calls = 0;
  private readonly yieldEvery: number;
  private disposed = false;

  constructor(options: WordHashOptions = {}) {
    this.id = options.id ?? 'word-hash-64';
    this.dim = options.dim ?? 64;
    this.yieldEvery = options.yieldEvery ?? 0;
  }

  countTokens(text: string): number {
    return text.split(/\s+/).filter(Boolean).length;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> {
    if (this.disposed) throw new EvidentError('internal', 'The embedding model was already released.');
    this.calls++;
    const out = new Float32Array(texts.length * this.dim);
    for (let i = 0; i < texts.length; i++) {
      if (this.yieldEvery > 0 && i % this.yieldEvery === 0) await new Promise((r) => setTimeout(r, 0));
      if (options.signal?.aborted) throw new EvidentError('aborted', 'Cancelled.');
      for (const w of texts[i]!.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        let h = 2166136261;
        for (let j = 0; j < w.length; j++) h = Math.imul(h ^ w.charCodeAt(j), 16777619) >>> 0;
        const at = i * this.dim + (h % this.dim);
        out[at] = (out[at] as number) + 1;
      }
      let norm = 0;
      for (let j = 0; j < this.dim; j++) norm += out[i * this.dim + j]! ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let j = 0; j < this.dim; j++) out[i * this.dim + j]! /= norm;
      options.onProgress?.(i + 1, texts.length);
    }
    return out;
  }

  dispose(): void {
    this.disposed = true;
  }
}

/** A file's bytes as a fresh ArrayBuffer (what the UI transfers). */
export function bytesOf(data: string | Uint8Array): ArrayBuffer {
  const u8 = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return u8.slice().buffer as ArrayBuffer;
}
