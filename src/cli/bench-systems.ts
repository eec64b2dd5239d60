/**
 * The lexical systems `npm run bench -- --peers` compares, and the corpora it feeds them:
 * runtime-neutral (no Node or DOM imports), so the same code runs in Node (`bench-peers.ts`) and
 * bundled into a Chromium worker (`test/bench-page/`).
 *
 * Every system indexes the same documents (title + text) and answers the same query text with
 * at most `k` ids, best first. Peer settings are each library's best we found on the SciFact
 * TRAIN claims (never test; `npm run bench -- --tune-peers` reprints the grid):
 *
 * - MiniSearch 7: BM25 with the same Porter stemmer (`stemmer` package) and Lucene stop set as
 *   Evident, title and text as separate fields, BM25 k 1.2, b 0.75, d 0: train nDCG@10 0.6735,
 *   vs 0.6708 for its defaults (1.2 / 0.7 / 0.5), 0.6679 for Anserini's 0.9 / 0.4 / 0, and
 *   0.6593–0.6654 with title + text as one field (Evident's BM25 on train: 0.6994).
 * - Orama 3, default: `create` with a string schema and nothing else; search with `limit`
 *   (train 0.2232). Stemmed: its English tokenizer with `stemming: true` (train 0.2356).
 * - FlexSearch 0.8: `tokenize: 'strict'`, Evident's analyzer (Porter + stop set) as its `encode`
 *   function, `resolution: 9`, `suggest: true` at query time (without it a query must match
 *   every term, and a 30-word claim matches almost nothing): train 0.5631, vs 0.5140 / 0.5175
 *   with its LatinAdvanced / Default encoders, 0.4782 with `context`, 0.5607–0.5623 at
 *   resolution 3, 20 or 50.
 */
import { bm25TermStats, searchWithTermWeights } from '../core/retrieval/term-weights';
import MiniSearch from 'minisearch';
import { create, insertMultiple, search as oramaSearch, type AnyOrama } from '@orama/orama';
import { Index as FlexIndex, Charset } from 'flexsearch';
import { Bm25Index } from '../core/lexical/bm25';
import { createAnalyzer, LUCENE_ENGLISH_STOPWORDS } from '../core/text/analyze';
import { stemmer } from 'stemmer';
import { mulberry32 } from '../core/util/prng';

/** One document as every system sees it. */
export interface BenchDoc {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** A built index: ids of the best `k` documents for a query, best first. */
export interface LexicalSearcher {
  search(query: string, k: number): readonly string[] | Promise<readonly string[]>;
}

export interface LexicalSystem {
  /** `evident` for Evident's BM25; peers by library (and setting). */
  readonly name: string;
  readonly description: string;
  build(docs: readonly BenchDoc[]): LexicalSearcher | Promise<LexicalSearcher>;
}

const analyzer = createAnalyzer({ stem: true, stopwords: 'lucene' });

export const evidentSystem: LexicalSystem = {
  name: 'evident',
  description:
    'Evident BM25 as the app queries it (typed-array postings, heap top-k; k1 1.2, b 0.75, Porter, Lucene stop set, learned query-term weights fitted on SciFact train)',
  build(docs) {
    const index = Bm25Index.build(docs.map((d) => ({ id: d.id, title: d.title, headings: '', text: d.text })));
    const stats = bm25TermStats(index);
    return {
      search: (q, k) => searchWithTermWeights(index, index.analyze(q), { k }, { stats }).map((h) => h.id),
    };
  },
};

export interface MiniSearchSetting {
  readonly fields: 'split' | 'flat';
  readonly bm25: { readonly k: number; readonly b: number; readonly d: number };
}

/** Title and text as fields, BM25 k 1.2, b 0.75, d 0: MiniSearch's best on SciFact train. */
export const MINISEARCH_BEST: MiniSearchSetting = { fields: 'split', bm25: { k: 1.2, b: 0.75, d: 0 } };

export function miniSearchSystem(setting: MiniSearchSetting = MINISEARCH_BEST, name = 'minisearch'): LexicalSystem {
  return {
    name,
    description: `MiniSearch 7, BM25 k ${setting.bm25.k} b ${setting.bm25.b} d ${setting.bm25.d} + Porter + Lucene stop set, ${setting.fields === 'split' ? 'title and text fields' : 'one field'}`,
    build(docs) {
      const fields = setting.fields === 'split' ? ['title', 'text'] : ['all'];
      const mini = new MiniSearch<{ id: string; title: string; text: string; all: string }>({
        fields,
        storeFields: [],
        // MiniSearch lower-cases in its default processTerm; returning null drops the term.
        processTerm: (term) => {
          const t = term.toLowerCase();
          return LUCENE_ENGLISH_STOPWORDS.has(t) ? null : stemmer(t);
        },
        searchOptions: { bm25: setting.bm25 },
      });
      mini.addAll(docs.map((d) => ({ id: d.id, title: d.title, text: d.text, all: `${d.title} ${d.text}` })));
      return {
        search: (q, k) =>
          mini
            .search(q)
            .slice(0, k)
            .map((r) => String(r.id)),
      };
    },
  };
}

export function oramaSystem(stemming: boolean): LexicalSystem {
  return {
    name: stemming ? 'orama-stemmed' : 'orama',
    description: stemming ? 'Orama 3, English tokenizer with stemming' : 'Orama 3, defaults',
    async build(docs) {
      const db: AnyOrama = create({
        schema: { title: 'string', text: 'string' } as const,
        ...(stemming ? { components: { tokenizer: { language: 'english', stemming: true } } } : {}),
      });
      await insertMultiple(
        db,
        docs.map((d) => ({ id: d.id, title: d.title, text: d.text })),
        1000,
      );
      return {
        async search(q, k) {
          const res = await oramaSearch(db, { term: q, limit: k });
          return res.hits.map((h) => String(h.id));
        },
      };
    },
  };
}

export type FlexEncoder = 'evident' | 'LatinAdvanced' | 'Default';

export interface FlexSetting {
  readonly encoder: FlexEncoder;
  readonly resolution: number;
  readonly context: boolean;
}

export const FLEX_BEST: FlexSetting = { encoder: 'evident', resolution: 9, context: false };

export function flexSearchSystem(setting: FlexSetting = FLEX_BEST, name = 'flexsearch'): LexicalSystem {
  return {
    name,
    description: `FlexSearch 0.8, strict tokenizer, ${setting.encoder === 'evident' ? "Evident's analyzer (Porter + stop set)" : `${setting.encoder} encoder`}, resolution ${setting.resolution}${setting.context ? ', context' : ''}, suggest`,
    build(docs) {
      const index = new FlexIndex({
        tokenize: 'strict',
        resolution: setting.resolution,
        ...(setting.context ? { context: { resolution: 3, depth: 1, bidirectional: true } } : {}),
        ...(setting.encoder === 'evident'
          ? { encode: (text: string) => analyzer.analyze(text) }
          : { encoder: Charset[setting.encoder] }),
      });
      const ids: string[] = [];
      docs.forEach((d, i) => {
        ids.push(d.id);
        index.add(i, `${d.title} ${d.text}`);
      });
      return {
        search: (q, k) => (index.search(q, { limit: k, suggest: true }) as number[]).map((i) => ids[i] as string),
      };
    },
  };
}

/** The systems of one `--peers` run, Evident first. */
export function benchSystems(): LexicalSystem[] {
  return [evidentSystem, miniSearchSystem(), oramaSystem(false), oramaSystem(true), flexSearchSystem()];
}

/**
 * Synthetic chunks of ~120 USE tokens (≈ 90 words; USE's subwords run ~1.3 per word on SciFact):
 * sentences resampled with the seeded PRNG, so every run and runtime sees the same corpus.
 */
export function syntheticChunks(sentences: readonly string[], n: number, seed = 7): BenchDoc[] {
  const rand = mulberry32(seed);
  const docs: BenchDoc[] = [];
  for (let i = 0; i < n; i++) {
    const parts: string[] = [];
    let words = 0;
    while (words < 90) {
      const s = sentences[Math.floor(rand() * sentences.length)] as string;
      parts.push(s);
      words += s.split(' ').length;
    }
    docs.push({ id: `c${i}`, title: '', text: parts.join(' ') });
  }
  return docs;
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

export interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly mean: number;
}

export function latencyOf(ms: readonly number[]): Latency {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length),
  };
}

/**
 * Times every query with `performance.now()` after a warm-up over the first few (JIT), in
 * `passes` passes over the whole list. `latency` is the first pass as measured; `best` takes
 * each query's fastest pass, which removes most of the scheduler preemption a shared machine
 * adds (a query of 1 ms that loses its core for a 10 ms time slice) while keeping the query's
 * own cost. Returns the first pass's ranked ids per query.
 */
export async function timeSearches(
  searcher: LexicalSearcher,
  queries: readonly string[],
  k: number,
  passes = 3,
  warmup = 10,
): Promise<{ results: (readonly string[])[]; latency: Latency; best: Latency }> {
  for (const q of queries.slice(0, warmup)) await searcher.search(q, k);
  const first: number[] = [];
  const best: number[] = [];
  const results: (readonly string[])[] = [];
  for (let pass = 0; pass < Math.max(1, passes); pass++) {
    for (const [i, q] of queries.entries()) {
      const t = performance.now();
      const r = searcher.search(q, k);
      const ids = r instanceof Promise ? await r : r;
      const ms = performance.now() - t;
      if (pass === 0) {
        first.push(ms);
        best.push(ms);
        results.push(ids);
      } else best[i] = Math.min(best[i] as number, ms);
    }
  }
  return { results, latency: latencyOf(first), best: latencyOf(best) };
}
