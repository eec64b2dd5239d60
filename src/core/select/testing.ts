/**
 * Small builders for selection fixtures: tests, the CLI and benchmarks use them to turn plain
 * text into the `Chunk`, `DocumentMeta` and `Candidate` values selection reads. Not used by the app.
 */
import type { Candidate, Chunk, DocStatus, DocumentMeta, SourceType } from '../types';
import { fnv1a32 } from './common';

/** Content hash in `Chunk.hash` format (16 hex digits). Two seeded 32-bit FNV-1a halves; fine for fixtures. */
export function fixtureHash(text: string): string {
  return fnv1a32(text).toString(16).padStart(8, '0') + fnv1a32(text, 0x01234567).toString(16).padStart(8, '0');
}

export interface FixtureDoc {
  readonly id: string;
  readonly title?: string;
  readonly sourceType?: SourceType;
  readonly status?: DocStatus;
  readonly effectiveDate?: string;
  /** Chunks in reading order: plain text, or text with its heading trail. */
  readonly chunks: readonly (
    string | { readonly text: string; readonly headings?: readonly string[]; readonly page?: number }
  )[];
}

export interface FixtureCorpus {
  readonly chunks: Map<string, Chunk>;
  readonly documents: Map<string, DocumentMeta>;
}

/** Builds chunks (ids `${docId}#${ordinal}`, linked prev/next, consecutive spans) and metadata. */
export function buildCorpus(docs: readonly FixtureDoc[]): FixtureCorpus {
  const chunks = new Map<string, Chunk>();
  const documents = new Map<string, DocumentMeta>();
  for (const d of docs) {
    documents.set(d.id, {
      id: d.id,
      title: d.title ?? d.id,
      sourceType: d.sourceType ?? 'unknown',
      status: d.status ?? 'current',
      ...(d.effectiveDate ? { effectiveDate: d.effectiveDate } : {}),
    });
    let offset = 0;
    d.chunks.forEach((spec, i) => {
      const s = typeof spec === 'string' ? { text: spec } : spec;
      const id = `${d.id}#${i}`;
      chunks.set(id, {
        id,
        docId: d.id,
        ordinal: i,
        text: s.text,
        headings: s.headings ?? [],
        start: offset,
        end: offset + s.text.length,
        prevId: i > 0 ? `${d.id}#${i - 1}` : null,
        nextId: i + 1 < d.chunks.length ? `${d.id}#${i + 1}` : null,
        hash: fixtureHash(s.text),
        tokens: Math.ceil(s.text.length / 4),
        ...(s.page !== undefined ? { page: s.page } : {}),
      });
      offset += s.text.length + 1;
    });
  }
  return { chunks, documents };
}

/** A retrieval candidate with a fused score and an empty trace. */
export function candidate(id: string, score: number, docId = id.split('#')[0] ?? id): Candidate {
  return { id, docId, score, scores: { fused: score }, ranks: {}, trace: [] };
}

/** Deep-freezes a value so a test fails if a stage mutates its input. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !ArrayBuffer.isView(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
