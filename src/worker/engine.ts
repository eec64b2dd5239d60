/**
 * The worker's in-memory library: documents → chunks → a BM25 index and a dense matrix, and
 * hybrid search over both with a per-signal trace. Runtime-neutral (no worker globals), so it is
 * tested in Node with any `Embedder`; `worker.ts` wires it to the RPC surface.
 *
 * The BM25 index is rebuilt lazily on the first search after a change (`Bm25Index` is immutable,
 * and a personal library changes rarely compared with how often it is searched); the dense
 * `FlatIndex` is updated in place.
 */
import { EvidentError } from '../core/errors';
import { FlatIndex } from '../core/dense/flat-index';
import { chunkDocument } from '../core/ingest/chunk';
import { Bm25Index, type Bm25Hit } from '../core/lexical/bm25';
import { fuse, type FusionMode } from '../core/retrieval/fusion';
import type { Candidate, Chunk, DocumentMeta, Hit, IndexableDoc, TraceEntry } from '../core/types';
import type { Embedder } from '../models/embedder';
import { throwIfAborted } from './abort-registry';
import type {
  AddDocumentInput,
  AddDocumentResult,
  IngestProgress,
  LibraryDocument,
  SearchHit,
  SearchResponse,
  TermExplanation,
} from './api';

export interface EngineOptions {
  /** Candidates each retriever contributes to fusion (the cheap first stage of the cascade). Default 100. */
  readonly poolSize: number;
  /** Fusion mode; RRF (k = 60) needs no score calibration between BM25 and cosine. Default 'rrf'. */
  readonly fusion: FusionMode;
  /** Hard cap on `k` in `search`. Default 100. */
  readonly maxK: number;
}

export const DEFAULT_ENGINE_OPTIONS: Readonly<EngineOptions> = Object.freeze({
  poolSize: 100,
  fusion: 'rrf',
  maxK: 100,
});

interface StoredDoc {
  readonly meta: DocumentMeta;
  readonly chunks: readonly Chunk[];
  /** Row-major chunks × dim. */
  readonly vectors: Float32Array;
  /** `Embedder.id` that produced `vectors`. */
  readonly embedderId: string;
}

interface ChunkRef {
  readonly chunk: Chunk;
  readonly meta: DocumentMeta;
}

export interface IngestCallbacks {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: IngestProgress) => void;
}

export class Engine {
  private readonly options: Readonly<EngineOptions>;
  private embedderValue: Embedder | null = null;
  private readonly docs = new Map<string, StoredDoc>();
  private readonly chunks = new Map<string, ChunkRef>();
  private bm25: Bm25Index | null = null;
  private dense: FlatIndex | null = null;
  private dirty = true;

  constructor(options: Partial<EngineOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_ENGINE_OPTIONS, ...options });
  }

  get embedder(): Embedder | null {
    return this.embedderValue;
  }

  /**
   * Sets the embedder. Vectors from another model are not comparable, so the dense index keeps
   * only documents embedded by this one; the others are found by BM25 until re-ingested.
   */
  setEmbedder(embedder: Embedder): void {
    this.embedderValue = embedder;
    this.dense = new FlatIndex({ dim: embedder.dim, metric: 'cosine' });
    for (const doc of this.docs.values()) {
      if (doc.embedderId === embedder.id)
        this.dense.addMany(
          doc.chunks.map((c) => c.id),
          doc.vectors,
        );
    }
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  documents(): LibraryDocument[] {
    return [...this.docs.values()].map(({ meta, chunks }) => ({
      docId: meta.id,
      title: meta.title,
      chunks: chunks.length,
      sourceType: meta.sourceType,
      status: meta.status,
    }));
  }

  /** Chunks the text with the embedder's tokenizer, embeds the chunks, and marks indexes for rebuild. */
  async addDocument(input: AddDocumentInput, cb: IngestCallbacks = {}): Promise<AddDocumentResult> {
    validateInput(input);
    const embedder = this.embedderValue;
    if (!embedder) throw new EvidentError('model_not_found', 'Load the embedding model before adding documents.');
    const { signal, onProgress } = cb;
    const meta: DocumentMeta = {
      id: input.docId,
      title: input.title,
      sourceType: input.sourceType ?? 'unknown',
      status: input.status ?? 'current',
      ...(input.effectiveDate ? { effectiveDate: input.effectiveDate } : {}),
    };

    const t0 = performance.now();
    onProgress?.({ docId: meta.id, phase: 'chunk', done: 0, total: 0 });
    const chunks = chunkDocument(
      { docId: meta.id, text: input.text, format: input.format },
      // Chunks must fit what the model reads, or their tails would be silently ignored.
      { countTokens: (t) => embedder.countTokens(t), maxTokens: Math.min(128, embedder.maxTokens) },
    );
    if (chunks.length === 0) throw new EvidentError('empty_file', `"${input.title}" has no text to index.`);
    const chunkMs = performance.now() - t0;
    throwIfAborted(signal);

    const t1 = performance.now();
    onProgress?.({ docId: meta.id, phase: 'embed', done: 0, total: chunks.length });
    const vectors = await embedder.embed(
      chunks.map((c) => embeddingText(c)),
      {
        signal,
        onProgress: (done, total) => onProgress?.({ docId: meta.id, phase: 'embed', done, total }),
      },
    );
    const embedMs = performance.now() - t1;
    throwIfAborted(signal);

    // Commit only now, after every await: a cancelled or failed ingest leaves the library as it was.
    const t2 = performance.now();
    const replaced = this.removeDocument(meta.id);
    this.docs.set(meta.id, { meta, chunks, vectors, embedderId: embedder.id });
    for (const chunk of chunks) this.chunks.set(chunk.id, { chunk, meta });
    this.dense?.addMany(
      chunks.map((c) => c.id),
      vectors,
    );
    this.dirty = true;
    this.rebuild();
    const indexMs = performance.now() - t2;
    onProgress?.({ docId: meta.id, phase: 'done', done: chunks.length, total: chunks.length });
    return {
      docId: meta.id,
      chunks: chunks.length,
      tokens: chunks.reduce((s, c) => s + c.tokens, 0),
      chunkMs,
      embedMs,
      indexMs,
      replaced,
    };
  }

  /** Removes a document; false when it was not in the library. */
  removeDocument(docId: string): boolean {
    const doc = this.docs.get(docId);
    if (!doc) return false;
    for (const c of doc.chunks) {
      this.chunks.delete(c.id);
      this.dense?.delete(c.id);
    }
    this.docs.delete(docId);
    this.dirty = true;
    return true;
  }

  /** Hybrid search with per-signal trace. BM25-only (and `dense: false`) without an embedder. */
  async search(query: string, opts: { k?: number; signal?: AbortSignal } = {}): Promise<SearchResponse> {
    if (typeof query !== 'string') throw new EvidentError('invalid_input', 'The query must be text.');
    const k = opts.k ?? 10;
    if (!Number.isInteger(k) || k < 1 || k > this.options.maxK) {
      throw new EvidentError('invalid_option', `search: k must be an integer in 1…${this.options.maxK}, got ${k}.`);
    }
    this.rebuild();
    const bm25 = this.bm25;
    const empty: SearchResponse = {
      query,
      hits: [],
      queryTerms: bm25?.analyze(query) ?? [],
      dense: false,
      fusion: this.options.fusion,
      timings: { lexicalMs: 0, embedMs: 0, denseMs: 0, fuseMs: 0 },
    };
    if (!bm25 || query.trim() === '') return empty;

    const t0 = performance.now();
    const queryTerms = bm25.analyze(query);
    const lexical = bm25.searchTerms(queryTerms, { k: this.options.poolSize });
    const lexicalMs = performance.now() - t0;

    let denseHits: Hit[] = [];
    let embedMs = 0;
    let denseMs = 0;
    const embedder = this.embedderValue;
    const dense = embedder && this.dense && this.dense.size > 0 ? this.dense : null;
    if (embedder && dense) {
      const t1 = performance.now();
      const q = await embedder.embed([query], { signal: opts.signal });
      embedMs = performance.now() - t1;
      throwIfAborted(opts.signal);
      const t2 = performance.now();
      denseHits = dense.search(q, this.options.poolSize);
      denseMs = performance.now() - t2;
    }

    const t3 = performance.now();
    const fused = fuse(
      { bm25: lexical, dense: denseHits },
      {
        mode: this.options.fusion,
        limit: k,
        docIdOf: (id) => this.chunks.get(id)?.meta.id ?? id,
      },
    );
    const fuseMs = performance.now() - t3;
    const byId = new Map(lexical.map((h) => [h.id, h]));
    const hits = fused.map((c, i) => this.toHit(c, i + 1, byId.get(c.id)));
    return {
      query,
      hits,
      queryTerms,
      dense: dense !== null,
      fusion: this.options.fusion,
      timings: { lexicalMs, embedMs, denseMs, fuseMs },
    };
  }

  private toHit(c: Candidate, rank: number, lexical: Bm25Hit | undefined): SearchHit {
    const ref = this.chunks.get(c.id);
    if (!ref) throw new EvidentError('internal', `search: chunk ${c.id} is not in the library.`);
    const terms: TermExplanation[] = (lexical?.terms ?? []).map((t) => ({
      term: t.term,
      score: t.contribution,
      detail: { tf: t.tf, idf: t.idf, queryTf: t.queryTf },
    }));
    // Retrieval entries precede fusion's own, so the trace reads in pipeline order.
    const retrieval: TraceEntry[] = [];
    if (c.scores.bm25 !== undefined) {
      retrieval.push({ stage: 'bm25', score: c.scores.bm25, kept: true, detail: { rank: c.ranks.bm25 ?? null } });
    }
    if (c.scores.dense !== undefined) {
      retrieval.push({ stage: 'dense', score: c.scores.dense, kept: true, detail: { rank: c.ranks.dense ?? null } });
    }
    return {
      rank,
      chunkId: c.id,
      docId: ref.meta.id,
      title: ref.meta.title,
      headings: ref.chunk.headings,
      text: ref.chunk.text,
      sourceType: ref.meta.sourceType,
      status: ref.meta.status,
      score: c.score,
      scores: c.scores,
      ranks: c.ranks,
      terms,
      trace: [...retrieval, ...c.trace],
    };
  }

  private rebuild(): void {
    if (!this.dirty) return;
    const docs: IndexableDoc[] = [];
    for (const { meta, chunks } of this.docs.values()) {
      for (const chunk of chunks) {
        docs.push({ id: chunk.id, title: meta.title, headings: chunk.headings.join(' / '), text: chunk.text });
      }
    }
    this.bm25 = docs.length > 0 ? Bm25Index.build(docs) : null;
    this.dirty = false;
  }
}

/**
 * What the embedder sees for a chunk: its heading trail, then its text. The trail names the
 * section ("Remote Work Policy › Eligibility and limits") that a short chunk's text leaves implicit.
 */
export function embeddingText(chunk: Chunk): string {
  return chunk.headings.length > 0 ? `${chunk.headings.join(' › ')}\n${chunk.text}` : chunk.text;
}

function validateInput(input: AddDocumentInput): void {
  if (typeof input !== 'object' || input === null)
    throw new EvidentError('invalid_input', 'addDocument: expected a document.');
  if (typeof input.docId !== 'string' || input.docId === '') {
    throw new EvidentError('invalid_input', 'addDocument: docId must be a non-empty string.');
  }
  if (typeof input.text !== 'string') throw new EvidentError('invalid_input', 'addDocument: text must be a string.');
  if (input.format !== 'markdown' && input.format !== 'text') {
    throw new EvidentError(
      'invalid_input',
      `addDocument: format must be one of markdown, text, got "${String(input.format)}".`,
    );
  }
}
