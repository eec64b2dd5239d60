/**
 * Embedding benchmarks that run anywhere an `Embedder` does: Node (`bench-embed.ts`, `bench.ts`)
 * and the browser worker of `bench-embed-browser.ts`. Timings only (benchmarks are not tests).
 */
import type { Embedder } from '../models/embedder';

export interface BenchEmbeddingOptions {
  /** Batch sizes to measure. */
  readonly batches?: readonly number[];
  /** Minimum inputs and seconds per batch size (whichever takes longer). */
  readonly minInputs?: number;
  readonly minSeconds?: number;
  /** Interleaved rounds over the batch sizes. */
  readonly rounds?: number;
}

export interface EmbeddingThroughput {
  readonly batch: number;
  readonly inputsPerSec: number;
}

/**
 * Inputs per second of `embedder.embed` at each batch size, cycling through `texts`. Batch sizes
 * are measured in interleaved rounds so that load from other processes hits them alike.
 */
export async function benchEmbedding(
  embedder: Embedder,
  texts: readonly string[],
  options: BenchEmbeddingOptions = {},
): Promise<EmbeddingThroughput[]> {
  const { batches = [1, 8, 32], minInputs = 64, minSeconds = 3, rounds = 3 } = options;
  if (texts.length === 0) throw new RangeError('benchEmbedding: no texts');
  let cursor = 0;
  const take = (n: number): string[] => Array.from({ length: n }, () => texts[cursor++ % texts.length] as string);
  const inputs = batches.map(() => 0);
  const ms = batches.map(() => 0);
  for (const batch of batches) await embedder.embed(take(batch), { batchSize: batch }); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [b, batch] of batches.entries()) {
      const start = performance.now();
      let n = 0;
      while (n < minInputs / rounds || performance.now() - start < (minSeconds * 1000) / rounds) {
        await embedder.embed(take(batch), { batchSize: batch });
        n += batch;
      }
      inputs[b] = (inputs[b] as number) + n;
      ms[b] = (ms[b] as number) + performance.now() - start;
    }
  }
  return batches.map((batch, b) => ({ batch, inputsPerSec: (inputs[b] as number) / ((ms[b] as number) / 1000) }));
}

export interface TokenCountThroughput {
  readonly name: string;
  readonly charsPerSec: number;
}

/**
 * Characters per second of token counting, ours beside a baseline (e.g. the reference tokenizer's
 * `encode(t).length`) on the same texts in the same run.
 */
export function benchTokenCount(
  counters: Readonly<Record<string, (text: string) => number>>,
  texts: readonly string[],
): TokenCountThroughput[] {
  const chars = texts.reduce((s, t) => s + t.length, 0);
  return Object.entries(counters).map(([name, count]) => {
    const start = performance.now();
    for (const t of texts) count(t);
    return { name, charsPerSec: chars / ((performance.now() - start) / 1000) };
  });
}

/** Cuts texts into word-aligned chunks of about `tokens` tokens (the chunker's job, roughly). */
export function chunkByTokens(embedder: Embedder, texts: readonly string[], tokens = 120, limit = 256): string[] {
  const chunks: string[] = [];
  for (const text of texts) {
    let words: string[] = [];
    for (const word of text.split(/\s+/)) {
      words.push(word);
      if (embedder.countTokens(words.join(' ')) >= tokens) {
        chunks.push(words.join(' '));
        words = [];
        if (chunks.length >= limit) return chunks;
      }
    }
  }
  return chunks;
}
