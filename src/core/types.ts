/**
 * Shared, runtime-neutral data types. Every stage of the pipeline speaks these.
 * Stages never mutate a value they receive: they return new objects with a trace entry added.
 */

/** Source-type taxonomy of the source-aware reranking paper (λ table: src/core/select/README.md). */
export const SOURCE_TYPES = [
  'peer_reviewed',
  'government',
  'official_filing',
  'internal_policy',
  'established_news',
  'blog',
  'user_generated',
  'ai_generated',
  'unknown',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const DOC_STATUSES = ['current', 'superseded', 'draft'] as const;
export type DocStatus = (typeof DOC_STATUSES)[number];

/** Per-document metadata used by selection (priors, canonical copy, recency). */
export interface DocumentMeta {
  readonly id: string;
  readonly title: string;
  readonly sourceType: SourceType;
  readonly status: DocStatus;
  /** ISO date (YYYY-MM-DD) the document takes effect, when known. */
  readonly effectiveDate?: string;
  readonly language?: string;
}

/** One retrievable unit of a document. Offsets are UTF-16 code-unit offsets into the source text. */
export interface Chunk {
  readonly id: string;
  readonly docId: string;
  readonly ordinal: number;
  readonly text: string;
  /** Heading trail from the outermost section to the innermost, e.g. ["Policy", "Leave", "Sick leave"]. */
  readonly headings: readonly string[];
  /**
   * Text that belongs with the chunk but lies elsewhere in the source: for a chunk of table rows,
   * the table's title line and its column header row(s) when the chunk does not hold them itself
   * (src/core/ingest/table.ts). Not part of `text` (the exact source slice); the embedder and the
   * lexical index read it (`contextualText`), and `countTokens(context + "\n" + text) <= maxTokens`.
   */
  readonly context?: string;
  readonly start: number;
  readonly end: number;
  readonly prevId: string | null;
  readonly nextId: string | null;
  /** Hex content hash (FNV-1a 64) of `contextualText`: `text`, preceded by `context` and a newline when it has one. */
  readonly hash: string;
  /** Length in tokens of the embedder's tokenizer. */
  readonly tokens: number;
  /** 1-based page number where the format has pages. */
  readonly page?: number;
  /**
   * Parts of `text` a reader of the document cannot see (white-on-white, zero-size, off-page or
   * invisible PDF text, hidden HTML, vanished DOCX runs), as offsets into `text`. Absent: all of it
   * is visible (every chunk stored before this field existed reads so). The verifier never takes
   * these spans as evidence (src/core/verify/injection.ts).
   */
  readonly hidden?: readonly HiddenSpan[];
}

/** How text was hidden from a reader. */
export const HIDDEN_TEXT_KINDS = [
  /** HTML `hidden`, `display:none`, `visibility:hidden`, `opacity:0`. */
  'hidden_markup',
  /** Zero or near-zero font size (PDF under 1 pt; HTML `font-size:0`/`1px`). */
  'tiny_text',
  /** Drawn outside the page's crop box (PDF) or positioned off-screen (HTML inline style). */
  'off_page',
  /** PDF text render mode 3 or 7 (neither filled nor stroked) on a page that is not a scan's OCR layer. */
  'invisible_text',
  /** White text on no backdrop (PDF), or a white run (DOCX). */
  'white_text',
  /** DOCX hidden-text formatting (`w:vanish`, `w:specVanish`). */
  'vanish',
] as const;
export type HiddenTextKind = (typeof HIDDEN_TEXT_KINDS)[number];

/** A span of a chunk's `text` that is hidden from readers; offsets into that chunk's `text`. */
export interface HiddenSpan {
  readonly start: number;
  readonly end: number;
  readonly kind: HiddenTextKind;
}

/** A document as the lexical index sees it: fields with their own weights. */
export interface IndexableDoc {
  readonly id: string;
  readonly title: string;
  readonly headings: string;
  readonly text: string;
}

/** Named scores a candidate can carry; absent means the stage did not produce it. */
export interface ScoreBreakdown {
  readonly bm25?: number;
  readonly dense?: number;
  readonly fused?: number;
  readonly rerank?: number;
  readonly prior?: number;
  readonly final?: number;
}

/** One stage's entry in a candidate's trace. */
export interface TraceEntry {
  readonly stage: string;
  /** The score this stage assigned (or passed through). */
  readonly score?: number;
  /** False when this stage dropped the candidate. */
  readonly kept: boolean;
  /** Human-readable reason, shown in the evidence trail. */
  readonly reason?: string;
  /** Stage-specific numbers and flags (ranks, λ, cut position, …). */
  readonly detail?: Readonly<Record<string, number | string | boolean | null>>;
  /** Milliseconds the stage took for the whole batch (set on the first candidate only). */
  readonly ms?: number;
}

/** A retrieval result or selection candidate. Immutable: stages return copies with trace appended. */
export interface Candidate {
  /** Id of the retrieved unit (a chunk id, or a document id in document-level evaluation). */
  readonly id: string;
  readonly docId: string;
  /** The score the next stage orders by. */
  readonly score: number;
  readonly scores: ScoreBreakdown;
  readonly ranks: { readonly bm25?: number; readonly dense?: number };
  readonly trace: readonly TraceEntry[];
}

/** A scored id from one retriever, before fusion. */
export interface Hit {
  readonly id: string;
  readonly score: number;
}
