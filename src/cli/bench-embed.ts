/**
 * Embedding throughput benchmark (timings only: benchmarks are not tests).
 *
 *   npx tsx src/cli/bench-embed.ts                # throughput at batch 1, 8, 32 on ~120-token chunks
 *   npx tsx src/cli/bench-embed.ts --warm-scifact # also embed the SciFact corpus into the embedding cache
 *
 * `benchEmbedding` (runtime-neutral, `bench-embed-core.ts`) is what `npm run bench` calls with its
 * own embedder and texts, and what the Chromium benchmark (`bench-embed-browser.ts`) runs in the
 * worker.
 */
import { readFileSync } from 'node:fs';
import { embedWithCache } from '../node/embedding-cache';
import { sharedPath } from '../node/shared-data';
import { loadUseEmbedderNode, readUseArtifacts } from '../node/use-node';
import { Tokenizer as ReferenceTokenizer } from '@tensorflow-models/universal-sentence-encoder/dist/tokenizer/index.js';
import { benchEmbedding, benchTokenCount, chunkByTokens } from './bench-embed-core';
import { runIfMain } from './common';

export {
  benchEmbedding,
  benchTokenCount,
  chunkByTokens,
  type BenchEmbeddingOptions,
  type EmbeddingThroughput,
  type TokenCountThroughput,
} from './bench-embed-core';

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

runIfMain(import.meta.url, main);
