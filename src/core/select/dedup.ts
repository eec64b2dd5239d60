/**
 * Stage 7 — deduplication (RAG guide): exact hash, normalised-text hash, near-duplicates, and a cap
 * on chunks from one section ("never several overlapping windows of one section").
 *
 * Duplicates, strongest evidence first:
 *   1. exact: the same chunk content hash (`Chunk.hash`, FNV-1a 64);
 *   2. normalised: equal after NFKC, lowercase, punctuation stripped, whitespace collapsed;
 *   3. near: MinHash over word 3-shingles, 64 hash functions (Broder 1997), estimated Jaccard
 *      ≥ 0.8 — a common near-duplicate threshold; the value is to be tuned on data, which is why
 *      it is an option;
 *   4. embedding: cosine ≥ 0.97 when both chunks have vectors (paraphrase-level copies).
 *
 * Of each group of duplicates the canonical copy stays: current over draft over superseded (unless
 * the question asks about earlier versions — then the earliest effective version is canonical),
 * then higher λ, then newer effective date, then higher score. Duplicates are resolved greedily in
 * canonical order; since the duplicate relation is symmetric, no two survivors are duplicates, so
 * `dedup(dedup(x))` keeps the same set (idempotent). The section cap runs second, in score order.
 */
import type { Candidate, DocStatus, DocumentMeta } from '../types';
import { assertKnownOptions } from '../errors';
import type { EvidenceLookup } from './common';
import {
  byScoreDesc,
  checkInt,
  checkRange,
  cosine,
  fmix32,
  fnv1a32,
  metaOf,
  normalizeText,
  sectionKey,
  withEntry,
} from './common';
import { DEFAULT_SOURCE_LAMBDAS, asksForEarlierVersion } from './priors';

export interface DedupOptions {
  /** MinHash Jaccard estimate at or above which two chunks are near-duplicates (Broder 1997; tune on data). */
  readonly nearDuplicate: number;
  /** Number of MinHash functions; the estimate's standard error is √(J(1−J)/k) ≈ 0.05 at J = 0.8, k = 64. */
  readonly numHashes: number;
  /** Words per shingle (word 3-shingles). */
  readonly shingleSize: number;
  /** Cosine at or above which two chunk vectors are duplicates (RAG guide near-dup clustering). */
  readonly embeddingDuplicate: number;
  /** Most chunks kept from one section (same document and heading trail). RAG guide: never several overlapping windows. */
  readonly maxPerSection: number;
}

export const DEFAULT_DEDUP_OPTIONS: DedupOptions = Object.freeze({
  nearDuplicate: 0.8,
  numHashes: 64,
  shingleSize: 3,
  embeddingDuplicate: 0.97,
  maxPerSection: 2,
});

export interface DedupInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  /** Whether the question asks about earlier versions; computed from the question when absent. */
  readonly asksEarlier?: boolean;
}

export interface DedupResult {
  /** Survivors, best first. */
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
}

/** MinHash signature of a text's word shingles; texts shorter than one shingle use all their words as one shingle. */
export function minhashSignature(text: string, numHashes = 64, shingleSize = 3): Uint32Array {
  const ws = normalizeText(text)
    .split(' ')
    .filter((w) => w.length > 0);
  const shingles = new Set<number>();
  if (ws.length > 0 && ws.length < shingleSize) shingles.add(fnv1a32(ws.join(' ')));
  for (let i = 0; i + shingleSize <= ws.length; i++) shingles.add(fnv1a32(ws.slice(i, i + shingleSize).join(' ')));
  const sig = new Uint32Array(numHashes).fill(0xffffffff);
  for (let k = 0; k < numHashes; k++) {
    // Hash family h_k(x) = fmix32(x ⊕ seed_k): a bijection per k, seeds spread by the golden ratio constant.
    const seed = fmix32(Math.imul(k + 1, 0x9e3779b9));
    let min = 0xffffffff;
    for (const s of shingles) {
      const h = fmix32(s ^ seed);
      if (h < min) min = h;
    }
    sig[k] = min;
  }
  return shingles.size === 0 ? new Uint32Array(0) : sig;
}

/** Fraction of equal MinHash slots: an unbiased estimate of the shingle Jaccard similarity. */
export function minhashSimilarity(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let eq = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) eq++;
  return eq / a.length;
}

interface Prepared {
  readonly c: Candidate;
  readonly meta: DocumentMeta;
  readonly lambda: number;
  readonly exact: string | null;
  readonly normalized: string | null;
  readonly sig: Uint32Array;
  readonly vector: Float32Array | undefined;
  readonly section: string;
}

/** Why `b` duplicates `a`, or null. Symmetric in a and b. */
function duplicateReason(
  a: Prepared,
  b: Prepared,
  o: DedupOptions,
): { reason: string; how: string; similarity: number } | null {
  if (a.c.id === b.c.id) return { reason: 'same chunk', how: 'id', similarity: 1 };
  if (a.exact !== null && a.exact === b.exact)
    return { reason: 'identical text (content hash)', how: 'exact', similarity: 1 };
  if (a.normalized !== null && a.normalized === b.normalized) {
    return { reason: 'identical after normalisation (case, spacing, punctuation)', how: 'normalized', similarity: 1 };
  }
  const j = minhashSimilarity(a.sig, b.sig);
  if (j >= o.nearDuplicate)
    return { reason: `near-duplicate text (MinHash Jaccard ≈ ${j.toFixed(2)})`, how: 'minhash', similarity: j };
  if (a.vector && b.vector) {
    const cos = cosine(a.vector, b.vector);
    if (cos >= o.embeddingDuplicate)
      return { reason: `near-duplicate meaning (cosine ${cos.toFixed(3)})`, how: 'embedding', similarity: cos };
  }
  return null;
}

/** Drops duplicates (keeping the canonical copy) and caps chunks per section. */
export function dedupCandidates(
  candidates: readonly Candidate[],
  input: DedupInput,
  options: Partial<DedupOptions> = {},
): DedupResult {
  assertKnownOptions(options, DEFAULT_DEDUP_OPTIONS, 'dedup');
  const o: DedupOptions = { ...DEFAULT_DEDUP_OPTIONS, ...options };
  checkRange('dedup', 'nearDuplicate', o.nearDuplicate, 0, 1);
  checkInt('dedup', 'numHashes', o.numHashes, 1, 1024);
  checkInt('dedup', 'shingleSize', o.shingleSize, 1, 20);
  checkRange('dedup', 'embeddingDuplicate', o.embeddingDuplicate, -1, 1);
  checkInt('dedup', 'maxPerSection', o.maxPerSection, 1, 1000);

  const { lookup } = input;
  const asksEarlier =
    input.asksEarlier ??
    asksForEarlierVersion(
      input.question,
      [...new Set(candidates.map((c) => c.docId))].map((d) => metaOf(lookup, d)),
    );

  const prepared: Prepared[] = candidates.map((c) => {
    const chunk = lookup.chunks.get(c.id);
    const meta = metaOf(lookup, c.docId);
    const text = chunk?.text ?? '';
    const norm = text.length > 0 ? normalizeText(text) : '';
    return {
      c,
      meta,
      lambda: c.scores.prior ?? DEFAULT_SOURCE_LAMBDAS[meta.sourceType],
      exact: chunk && text.length > 0 ? chunk.hash || text : null,
      normalized: norm.length > 0 ? norm : null,
      sig: norm.length > 0 ? minhashSignature(text, o.numHashes, o.shingleSize) : new Uint32Array(0),
      vector: lookup.vectorOf?.(c.id),
      // Text-less candidates (document-level runs) are their own section: the cap does not apply.
      section: chunk ? sectionKey(chunk.docId, chunk.headings) : `\u0002${c.id}`,
    };
  });

  const statusRank: Record<DocStatus, number> = asksEarlier
    ? { superseded: 0, current: 1, draft: 2 }
    : { current: 0, draft: 1, superseded: 2 };
  const dateSign = asksEarlier ? 1 : -1; // earlier first when asked, else newer first
  const canonical = [...prepared].sort((a, b) => {
    const s = statusRank[a.meta.status] - statusRank[b.meta.status];
    if (s !== 0) return s;
    if (a.lambda !== b.lambda) return b.lambda - a.lambda;
    const da = a.meta.effectiveDate ?? '';
    const db = b.meta.effectiveDate ?? '';
    if (da !== db && da !== '' && db !== '') return da < db ? -dateSign : dateSign;
    return byScoreDesc(a.c, b.c);
  });

  const survivors: Prepared[] = [];
  const dropped: Candidate[] = [];
  for (const p of canonical) {
    let dup: { of: Prepared; why: { reason: string; how: string; similarity: number } } | null = null;
    for (const k of survivors) {
      const why = duplicateReason(k, p, o);
      if (why) {
        dup = { of: k, why };
        break;
      }
    }
    if (dup) {
      dropped.push(
        withEntry(p.c, {
          stage: 'dedup',
          score: p.c.score,
          kept: false,
          reason: `${dup.why.reason}: duplicate of ${dup.of.c.id} (${dup.of.meta.status}, λ=${dup.of.lambda.toFixed(2)})`,
          detail: { duplicateOf: dup.of.c.id, how: dup.why.how, similarity: dup.why.similarity },
        }),
      );
    } else survivors.push(p);
  }

  const perSection = new Map<string, number>();
  const kept: Candidate[] = [];
  for (const p of [...survivors].sort((a, b) => byScoreDesc(a.c, b.c))) {
    const n = perSection.get(p.section) ?? 0;
    if (n >= o.maxPerSection) {
      dropped.push(
        withEntry(p.c, {
          stage: 'dedup',
          score: p.c.score,
          kept: false,
          reason: `section cap: ${o.maxPerSection} better chunks of the same section already kept`,
          detail: { how: 'section-cap', maxPerSection: o.maxPerSection },
        }),
      );
      continue;
    }
    perSection.set(p.section, n + 1);
    kept.push(withEntry(p.c, { stage: 'dedup', score: p.c.score, kept: true, detail: { sectionRank: n + 1 } }));
  }
  return { kept, dropped };
}
