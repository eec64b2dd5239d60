/**
 * Embedding throughput benchmark (timings only: benchmarks are not tests).
 *
 *   npx tsx src/cli/bench-embed.ts                # throughput at batch 1, 8, 32 on ~120-token chunks
 *   npx tsx src/cli/bench-embed.ts --warm-scifact # also embed the SciFact corpus into the embedding cache
 *
 * `benchEmbedding` is what `npm run bench` calls with its own embedder and texts.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Embedder } from '../models/embedder';
import { embedWithCache } from '../node/embedding-cache';
import { sharedPath } from '../node/shared-data';
import { loadUseEmbedderNode, readUseArtifacts } from '../node/use-node';
import { Tokenizer as ReferenceTokenizer } from '@tensorflow-models/universal-sentence-encoder/dist/tokenizer/index.js';

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

interface CorpusDoc {
  readonly _id: string;
  readonly title: string;
  readonly text: string;
}

/** SciFact documents as the team embeds them: title, one space, abstract. */
export function scifactDocTexts(): { ids: string[]; texts: string[] } {
  const lines = readFileSync(sharedPath('datasets', 'scifact', 'corpus.jsonl'), 'utf8').split('\n');
  const docs = lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as CorpusDoc);
  return { ids: docs.map((d) => d._id), texts: docs.map((d) => `${d.title} ${d.text}`) };
}

async function main(): Promise<void> {
  const warm = process.argv.includes('--warm-scifact');
  let t = performance.now();
  const { embedder, backend } = await loadUseEmbedderNode();
  console.log(
    `embedder ${embedder.id} on ${backend.backend} (threads ${backend.threads}), loaded in ${(performance.now() - t).toFixed(0)} ms`,
  );
  let corpus: string[];
  try {
    corpus = scifactDocTexts().texts;
  } catch {
    console.log('(../shared missing: synthetic text)');
    corpus = [Array.from({ length: 4000 }, (_, i) => `word${i % 97} of the study`).join(' ')];
  }
  const sample = corpus.slice(0, 300);
  const vocab = (await readUseArtifacts()).vocabulary as [string, number][];
  const reference = new ReferenceTokenizer(vocab);
  for (const r of benchTokenCount(
    {
      'UseTokenizer.count': (x) => embedder.countTokens(x),
      'reference encode().length': (x) => reference.encode(x).length,
    },
    sample,
  )) {
    console.log(`token count, ${r.name}: ${(r.charsPerSec / 1e6).toFixed(2)} M chars/s (${sample.length} docs)`);
  }
  const chunks = chunkByTokens(embedder, corpus);
  const meanTokens = chunks.reduce((s, c) => s + embedder.countTokens(c), 0) / chunks.length;
  console.log(`${chunks.length} chunks, mean ${meanTokens.toFixed(1)} tokens`);
  for (const r of await benchEmbedding(embedder, chunks)) {
    console.log(`~120-token batch ${String(r.batch).padStart(2)}: ${r.inputsPerSec.toFixed(1)} inputs/s`);
  }

  const titles = corpus.map((c) => c.split(/\s+/).slice(0, 12).join(' '));
  const meanShort = titles.reduce((s, c) => s + embedder.countTokens(c), 0) / titles.length;
  for (const r of await benchEmbedding(embedder, titles, { batches: [1, 16, 32] })) {
    console.log(
      `short (${meanShort.toFixed(1)} tokens) batch ${String(r.batch).padStart(2)}: ${r.inputsPerSec.toFixed(1)} inputs/s`,
    );
  }

  if (warm) {
    const { texts } = scifactDocTexts();
    t = performance.now();
    let last = 0;
    await embedWithCache(embedder, texts, {
      onProgress: (done, total) => {
        if (done - last >= 500 || done === total) {
          last = done;
          console.log(`  scifact ${done}/${total} (${((performance.now() - t) / 1000).toFixed(0)} s)`);
        }
      },
    });
    console.log(
      `SciFact corpus (${texts.length} docs) embedded via cache in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    t = performance.now();
    await embedWithCache(embedder, texts);
    console.log(`SciFact corpus from a warm cache in ${(performance.now() - t).toFixed(0)} ms`);
  }
  embedder.dispose();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
