/**
 * The full query of issue 8 at library scale, runtime-neutral (Node and the Chromium bench
 * worker run this same code): lexical BM25 top 100 + dense exact scan top 100 + weighted fusion
 * + evidence selection (verify on, Embedded profile: no cross-encoder, no NLI model), excluding
 * the query embedding (its vectors are seeded random unit vectors, like the library's: scan
 * time does not depend on the values). Each stage is timed with `performance.now()`; selection
 * reports its own per-stage timings in the packet.
 *
 * Then the inquiry stage as the ask path calls it (`inquire`, src/core/inquiry) on the packed
 * passages, with a first outcome of `supported` and no uncovered rationale: the only trigger left
 * to check is the premise finder (does the evidence refer to a record it does not hold). When it
 * does not trigger, that check and the release guard over the packet are all the stage costs; it
 * is timed per query and reported beside the full query without it (the baseline, same run).
 */
import { sourceBody } from '../core/answer/extractive';
import { FlatIndex, type Quantization } from '../core/dense/flat-index';
import { inquire, type InquiryRecord } from '../core/inquiry';
import { SimdKernel } from '../core/dense/simd-kernel';
import { Bm25Index } from '../core/lexical/bm25';
import { fuse } from '../core/retrieval/fusion';
import { selectEvidence } from '../core/select/select';
import type { Chunk, DocumentMeta, Hit } from '../core/types';
import { fnv1a64 } from '../core/util/hash';
import { latencyOf, syntheticChunks, type Latency } from './bench-systems';
import { randomUnitVectors } from '../core/util/prng';

export interface SyntheticLibrary {
  readonly chunks: readonly Chunk[];
  readonly byId: ReadonlyMap<string, Chunk>;
  readonly documents: ReadonlyMap<string, DocumentMeta>;
  /** Chunk ids per document, in reading order. */
  readonly chunksOf: ReadonlyMap<string, readonly string[]>;
}

/** `n` chunks (the `--peers` synthetic corpus, same seed) in documents of `perDoc` chunks. */
export function syntheticLibrary(sentences: readonly string[], n: number, perDoc = 100): SyntheticLibrary {
  const texts = syntheticChunks(sentences, n);
  const chunks: Chunk[] = [];
  const documents = new Map<string, DocumentMeta>();
  const chunksOf = new Map<string, string[]>();
  for (let i = 0; i < n; i++) {
    const d = Math.floor(i / perDoc);
    const ordinal = i % perDoc;
    const docId = `doc${d}`;
    const last = Math.min(n, (d + 1) * perDoc) - 1;
    const text = (texts[i] as { text: string }).text;
    if (!documents.has(docId)) {
      documents.set(docId, { id: docId, title: `Document ${d}`, sourceType: 'peer_reviewed', status: 'current' });
      chunksOf.set(docId, []);
    }
    const id = `${docId}#${ordinal}`;
    chunksOf.get(docId)?.push(id);
    chunks.push({
      id,
      docId,
      ordinal,
      text,
      headings: [`Document ${d}`, `Section ${Math.floor(ordinal / 10)}`],
      start: 0,
      end: text.length,
      prevId: ordinal > 0 ? `${docId}#${ordinal - 1}` : null,
      nextId: i < last ? `${docId}#${ordinal + 1}` : null,
      hash: fnv1a64(text),
      tokens: 120,
    });
  }
  return { chunks, byId: new Map(chunks.map((c) => [c.id, c])), documents, chunksOf };
}

export interface BuiltLibrary {
  readonly lib: SyntheticLibrary;
  readonly bm25: Bm25Index;
  readonly dense: FlatIndex;
  readonly dim: number;
  readonly bm25BuildMs: number;
  readonly denseBuildMs: number;
  /** Bytes of the BM25 postings arrays (doc ids, per-field tfs, offsets, field lengths). */
  readonly postingsBytes: number;
  /** n × dim × 4: the float32 vectors as given. */
  readonly rawVectorBytes: number;
}

/** Builds BM25 over the chunks (title, headings, text as the engine does) and the dense index. */
export function buildLibrary(
  lib: SyntheticLibrary,
  dim: number,
  quantization: Quantization = 'none',
  rescore = 0,
): BuiltLibrary {
  let t = performance.now();
  const bm25 = Bm25Index.build(
    lib.chunks.map((c) => ({
      id: c.id,
      title: lib.documents.get(c.docId)?.title ?? '',
      headings: c.headings.join(' / '),
      text: c.text,
    })),
  );
  const bm25BuildMs = performance.now() - t;
  const vectors = randomUnitVectors(lib.chunks.length, dim, 11);
  t = performance.now();
  const dense = new FlatIndex({ dim, metric: 'cosine', initialCapacity: lib.chunks.length, quantization, rescore });
  dense.addMany(
    lib.chunks.map((c) => c.id),
    vectors,
  );
  const denseBuildMs = performance.now() - t;
  const s = bm25.serialize();
  const postingsBytes = s.docIds.byteLength + s.tfs.byteLength + s.offsets.byteLength + s.fieldLengths.byteLength;
  return {
    lib,
    bm25,
    dense,
    dim,
    bm25BuildMs,
    denseBuildMs,
    postingsBytes,
    rawVectorBytes: lib.chunks.length * dim * 4,
  };
}

export interface FullQueryReport {
  /** The full query without the inquiry stage (the baseline). */
  readonly latency: Latency;
  /**
   * The inquiry stage when it does not trigger: the stage alone, and the full query with it
   * (each query's full-query time plus its stage time), over the queries where it did not trigger.
   */
  readonly inquiry: {
    readonly stage: Latency;
    readonly withStage: Latency;
    /** The baseline over the same queries. */
    readonly without: Latency;
    readonly notTriggered: number;
    /** Queries whose packed passages refer to a record they do not hold (the loop ran: not timed here). */
    readonly triggered: number;
  };
  /** Mean ms per stage: lexical, dense, fuse, select, and selection's own stages (`select.pool`, …). */
  readonly stages: Readonly<Record<string, number>>;
  readonly packedMean: number;
}

/** Runs every query through the full pipeline (after a short warm-up) and times it. */
export async function runFullQueries(built: BuiltLibrary, queries: readonly string[]): Promise<FullQueryReport> {
  const { bm25, dense, lib, dim } = built;
  const qvecs = randomUnitVectors(queries.length, dim, 13);
  const record = (id: string): InquiryRecord => {
    const c = lib.byId.get(id) as Chunk;
    return { id, docId: c.docId, title: lib.documents.get(c.docId)?.title ?? c.docId, text: c.text };
  };
  // The loop's search, should the trigger hold: the lexical index, as the engine's search would.
  const search = (query: string, k: number): Promise<InquiryRecord[]> =>
    Promise.resolve(bm25.search(query, { k }).map((h) => record(h.id)));
  const one = async (
    i: number,
  ): Promise<{
    total: number;
    stages: Record<string, number>;
    packed: number;
    inquiryMs: number;
    triggered: boolean;
  }> => {
    const q = queries[i] as string;
    const t0 = performance.now();
    const lexical = bm25.search(q, { k: 100 });
    const t1 = performance.now();
    const denseHits: Hit[] = dense.search(qvecs.subarray(i * dim, (i + 1) * dim), 100);
    const t2 = performance.now();
    const candidates = fuse(
      { bm25: lexical, dense: denseHits },
      { mode: 'weighted', limit: 100, docIdOf: (id) => lib.byId.get(id)?.docId ?? id },
    );
    const t3 = performance.now();
    // What the worker hands selection: every chunk and the metadata of the candidates' documents.
    const chunks = new Map<string, Chunk>();
    const documents = new Map<string, DocumentMeta>();
    for (const docId of new Set(candidates.map((c) => c.docId))) {
      const meta = lib.documents.get(docId);
      if (meta) documents.set(docId, meta);
      for (const id of lib.chunksOf.get(docId) ?? []) chunks.set(id, lib.byId.get(id) as Chunk);
    }
    const packet = await selectEvidence(
      { question: q, candidates, chunks, documents, vectorOf: (id) => dense.get(id), now: 1_700_000_000_000 },
      {},
    );
    const t4 = performance.now();
    const inquiry = await inquire({
      question: q,
      outcome: 'supported',
      uncovered: [],
      evidence: packet.sources.map((s) => ({ id: s.chunkId, docId: s.docId, title: s.title, text: sourceBody(s) })),
      search,
      vectorOf: (id) => dense.get(id),
    });
    const t5 = performance.now();
    const stages: Record<string, number> = { lexical: t1 - t0, dense: t2 - t1, fuse: t3 - t2, select: t4 - t3 };
    for (const [stage, ms] of Object.entries(packet.timings)) stages[`select.${stage}`] = ms ?? 0;
    return {
      total: t4 - t0,
      stages,
      packed: packet.sources.length,
      inquiryMs: t5 - t4,
      triggered: inquiry.trace.triggered,
    };
  };
  for (let i = 0; i < Math.min(5, queries.length); i++) await one(i);
  const totals: number[] = [];
  const quiet: { total: number; stage: number }[] = [];
  const sums: Record<string, number> = {};
  let packed = 0;
  for (let i = 0; i < queries.length; i++) {
    const r = await one(i);
    totals.push(r.total);
    if (!r.triggered) quiet.push({ total: r.total, stage: r.inquiryMs });
    packed += r.packed;
    for (const [k, v] of Object.entries(r.stages)) sums[k] = (sums[k] ?? 0) + v;
  }
  const stages = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / queries.length]));
  return {
    latency: latencyOf(totals),
    inquiry: {
      stage: latencyOf(quiet.map((x) => x.stage)),
      withStage: latencyOf(quiet.map((x) => x.total + x.stage)),
      without: latencyOf(quiet.map((x) => x.total)),
      notTriggered: quiet.length,
      triggered: queries.length - quiet.length,
    },
    stages,
    packedMean: packed / Math.max(1, queries.length),
  };
}

export interface ScanReport {
  /** Float32 scan through the index (SIMD where available), p50/p95 ms, top 100. */
  readonly float: Latency;
  /** Plain-JS float32 scan of the same vectors (the kernel's reference). */
  readonly floatJs: Latency;
  readonly int8: Latency;
  readonly int8Rescore: Latency;
  /** The least work over the same bytes (SIMD 16-byte loads), median ms: float32 and int8 bytes. */
  readonly boundFloatMs: number;
  readonly boundInt8Ms: number;
  readonly floatBytes: number;
  readonly int8Bytes: number;
  readonly simd: boolean;
}

/**
 * Dense scan latency vs the memory-bandwidth bound measured in the same run: the bound is a
 * SIMD pass that only loads and adds the same number of bytes (float32: n·dim·4; int8: n·dim).
 */
export function scanReport(n: number, dim: number, queries: number): ScanReport {
  const vectors = randomUnitVectors(n, dim, 11);
  const ids = Array.from({ length: n }, (_, i) => `c${i}`);
  const qs = randomUnitVectors(queries, dim, 17);
  const time = (index: FlatIndex, count = queries): Latency => {
    const ms: number[] = [];
    for (let i = 0; i < 3; i++) index.search(qs.subarray(0, dim), 100);
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      index.search(qs.subarray((i % queries) * dim, ((i % queries) + 1) * dim), 100);
      ms.push(performance.now() - t);
    }
    return latencyOf(ms);
  };
  const make = (opts: Partial<ConstructorParameters<typeof FlatIndex>[0]>): FlatIndex => {
    const index = new FlatIndex({ dim, metric: 'cosine', initialCapacity: n, ...opts });
    index.addMany(ids, vectors);
    return index;
  };
  let index = make({});
  const simd = index.simd;
  const float = time(index);
  index = make({ kernel: 'js' });
  const floatJs = time(index, Math.min(queries, 30));
  index = make({ quantization: 'int8' });
  const int8 = time(index);
  index = make({ quantization: 'int8', rescore: 4 });
  const int8Rescore = time(index);
  const floatBytes = n * dim * 4;
  const int8Bytes = n * dim;
  const bound = (bytes: number): number => {
    const kernel = SimdKernel.create(bytes);
    if (!kernel) return NaN;
    // Real bytes: untouched pages would all read the one zero page and never leave the cache.
    new Uint8Array(kernel.buffer, 0, bytes).set(new Uint8Array(vectors.buffer, 0, bytes));
    const ms: number[] = [];
    let sink = 0;
    for (let r = 0; r < 25; r++) {
      const t = performance.now();
      sink += kernel.read(bytes);
      ms.push(performance.now() - t);
    }
    if (sink === 0.5) ms.push(0);
    return latencyOf(ms).p50;
  };
  return {
    float,
    floatJs,
    int8,
    int8Rescore,
    boundFloatMs: bound(floatBytes),
    boundInt8Ms: bound(int8Bytes),
    floatBytes,
    int8Bytes,
    simd,
  };
}
