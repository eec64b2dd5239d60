/**
 * The app part of the worker RPC surface (`EvidentWorkerApi` extends it): asking a question,
 * feedback on cited passages, adding files through the parsers, reading a document's passages,
 * and the user's settings. Types only, runtime-neutral, so the UI (DOM) and the worker
 * (WebWorker) tsconfigs both compile it. Implemented by `ask.ts`, `ingest-files.ts` and
 * `settings.ts`; conventions (Result values, call ids, progress) as in `api.ts`.
 *
 * Everything here is plain data (structured-clone safe): no Maps, no typed arrays, no functions.
 */
import type { EvidentErrorValue } from '../core/errors';
import type { DocumentFormat } from '../core/library-format';
import type { DocStatus, ScoreBreakdown, SourceType, TraceEntry } from '../core/types';
import type { InquiryTrace } from '../core/inquiry';
import type { Computed } from '../core/answer/compute';
import type { ProfileSummary } from '../models/manifest';
import type { CallOptions, EmbedderInfo, ProgressCallback, Result } from './api';

// ---- Ask ----

export const ASK_OUTCOMES = ['supported', 'partial', 'abstain', 'conflict'] as const;
export type AskOutcome = (typeof ASK_OUTCOMES)[number];

export interface AskProgress {
  readonly phase: 'retrieve' | 'select' | 'answer' | 'validate' | 'done';
  /** Phase 'answer' with a generator: its id, and the text written so far (streamed). */
  readonly answerer?: string;
  readonly partial?: string;
}

/** A packed passage: what a citation [S1] points to. */
export interface AskSource {
  readonly citationId: string;
  readonly docId: string;
  readonly chunkId: string;
  readonly title: string;
  readonly headings: readonly string[];
  readonly page: number | null;
  /** Character span of the passage in its document's text. */
  readonly start: number;
  readonly end: number;
  /** The passage (the chunk's text, with any text addressed to an AI removed by the verifier). */
  readonly text: string;
  readonly tokens: number;
  readonly score: number;
  readonly sourceType: SourceType;
  readonly status: DocStatus;
  readonly effectiveDate: string | null;
  /** Rationales (R1, …) this passage covers. */
  readonly rationaleIds: readonly string[];
}

export interface AskSentence {
  readonly text: string;
  readonly citationIds: readonly string[];
  /** False when validation found the cited passages do not support it. */
  readonly supported: boolean;
  /** Why it is not supported, when it is not. */
  readonly problem: string | null;
}

export interface AskAnswer {
  readonly kind: 'answer' | 'conflict' | 'insufficient';
  /** The answer's text with [S#] citations, as the answerer wrote it. */
  readonly text: string;
  /** Its claims in order, each with its citations and its validation. */
  readonly sentences: readonly AskSentence[];
  readonly short: { readonly text: string; readonly kind: string; readonly citationId: string } | null;
  /** 'extractive', or a generator's id. */
  readonly answerer: string;
  /** The computation shown (formula, each operand's cell with its citation, result), when computed. */
  readonly computed?: Computed;
}

export interface AskRationale {
  readonly id: string;
  readonly text: string;
  readonly kind: string;
  readonly covered: boolean;
  /** Citation ids of packed passages covering it. */
  readonly supportingIds: readonly string[];
  /** Best covering candidates of the whole pool, kept or not. */
  readonly candidateIds: readonly string[];
}

export interface AskConflict {
  readonly id: string;
  readonly kind: string;
  readonly onQuestion: boolean;
  readonly status: 'resolved' | 'unresolved';
  readonly winner: string | null;
  readonly resolvedBy: string | null;
  readonly reason: string;
  readonly sides: readonly {
    readonly key: string;
    readonly display: string;
    readonly support: number;
    readonly candidateIds: readonly string[];
    readonly citationIds: readonly string[];
  }[];
}

export interface AskFlag {
  readonly kind: string;
  readonly candidateId: string;
  readonly citationId: string | null;
  readonly docId: string;
  readonly excerpt: string;
}

/** One candidate selection saw: its scores, and what happened to it (kept as S#, or dropped by a stage and why). */
export interface AskCandidate {
  readonly id: string;
  readonly docId: string;
  readonly title: string;
  readonly headings: readonly string[];
  readonly page: number | null;
  /** The start of its text (the full text is one `readDocument` away). */
  readonly excerpt: string;
  readonly sourceType: SourceType;
  readonly status: DocStatus;
  /** 1-based rank in the fused retrieval list; null for a chunk that expansion added. */
  readonly retrievalRank: number | null;
  readonly scores: ScoreBreakdown;
  readonly ranks: { readonly bm25?: number; readonly dense?: number };
  /** Packed into the evidence. */
  readonly kept: boolean;
  readonly citationId: string | null;
  /** The stage that dropped it ('outcome' when kept). */
  readonly stage: string;
  readonly reason: string;
  readonly flags: readonly string[];
  readonly trace: readonly TraceEntry[];
}

/** Where a model of this answer ran (the evidence trail shows it per role). */
export interface AskModelDevice {
  readonly role: 'embedder' | 'cross-encoder' | 'nli' | 'generator';
  readonly id: string;
  /** `webgpu`, `wasm` or `cpu` (Transformers.js), or USE lite's TF.js backend. */
  readonly device: string;
  /** Why earlier devices were not used (e.g. "webgpu: navigator.gpu is missing …"); null if none. */
  readonly fallbackReason: string | null;
}

export interface AskResult {
  readonly question: string;
  readonly outcome: AskOutcome;
  /** Why it abstained or could not assert (plain language); null when supported. */
  readonly reason: string | null;
  /** What the user could do next; null when supported. */
  readonly suggestion: string | null;
  readonly answer: AskAnswer;
  readonly sources: readonly AskSource[];
  /**
   * What the first evidence gave, when premise-directed inquiry settled the question instead
   * (`answer` is then the released chain, answerer 'inquiry'); null or absent otherwise.
   */
  readonly firstPass?: {
    readonly outcome: AskOutcome;
    readonly reason: string | null;
    readonly answer: AskAnswer;
  } | null;
  readonly rationales: readonly AskRationale[];
  readonly conflicts: readonly AskConflict[];
  readonly flags: readonly AskFlag[];
  /** Every candidate: packed ones first in citation order, then the rest in pool order. */
  readonly candidates: readonly AskCandidate[];
  readonly cutoff: {
    /** Sorted scores (descending) the elbow rule cut. */
    readonly curve: readonly number[];
    /** Candidates kept by the cutoff (the cut falls after this many). */
    readonly position: number;
    readonly elbow: number;
    readonly rule: string;
    /** Why the cut keeps more than its elbow: a floor's reason (several documents answer, or long documents); null when none applied. */
    readonly floor: string | null;
  };
  readonly budget: { readonly used: number; readonly limit: number };
  readonly abstention: {
    readonly abstain: boolean;
    readonly reason: string;
    readonly pCorrect: number | null;
    readonly signals: Readonly<Record<string, number | boolean | string | null | readonly string[]>>;
  };
  readonly validation: {
    readonly outcome: 'supported' | 'partial' | 'unsupported';
    readonly unknownCitations: readonly string[];
  };
  readonly retrieval: {
    readonly pool: number;
    readonly dense: boolean;
    readonly fusion: string;
    /** Why retrieval was by keywords only (no model, or re-embedding for a new one); null when dense ran. */
    readonly keywordsOnly: string | null;
  };
  /** Which model did what (null: the stage's model-free method). */
  readonly models: {
    /** Embedded the question and the passages for the dense side; null when retrieval was by keywords only. */
    readonly embedder: string | null;
    /** Scored (question, passage) pairs in the rerank stage. */
    readonly reranker: string | null;
    /** Checked contradictions (verify) and the answer's claims (validation). */
    readonly nli: string | null;
    /** Wrote the answer: 'extractive', or the generator's id. */
    readonly answerer: string;
    /** Tokenizer the evidence budget was counted with: the generator's id, or 'estimate' (⌈chars / 3.5⌉). */
    readonly budgetTokens: string;
    /** Why a loaded generator did not write the answer (the extractive answer stands in); null otherwise. */
    readonly generatorFallback: string | null;
    /** Where each model that took part ran, and why not on an earlier device (WebGPU → WASM). */
    readonly devices: readonly AskModelDevice[];
  };
  readonly mmr: { readonly applied: boolean; readonly singleFact: boolean };
  readonly asksEarlier: boolean;
  readonly independentSources: number | null;
  /** Milliseconds: retrieval, selection stages, answer, validation, total. */
  readonly timings: Readonly<Record<string, number>>;
  /**
   * Premise-directed inquiry (src/core/inquiry): whether it ran and why, each round (premise,
   * query, what came back) and the release guard's decision. Absent until ask runs the stage.
   */
  readonly inquiry?: AskInquiry | null;
}

/** The inquiry's trace as the trail shows it: plain data, as `inquire` returns it. */
export type AskInquiry = InquiryTrace;

// ---- Feedback ----

export interface FeedbackInput {
  readonly docId: string;
  readonly verdict: 'helpful' | 'misleading';
  readonly chunkId?: string;
  /** The question the passage was cited for. */
  readonly question?: string;
}

export interface FeedbackResult {
  readonly docId: string;
  readonly sourceType: SourceType;
  /** The document's λ before and after this judgement. */
  readonly before: number;
  readonly after: number;
  /** False when the priors live in memory only (no IndexedDB): lost when the tab closes. */
  readonly persistent: boolean;
}

// ---- Files ----

export interface FileInput {
  /** The caller's id for this file (progress and results name it). */
  readonly fileId: string;
  readonly name: string;
  readonly mimeType: string;
  /** The file's bytes, transferred (the caller's copy is detached). */
  readonly bytes: ArrayBuffer;
  /** For an encrypted PDF. */
  readonly password?: string;
}

/** `ocr`: pages without a text layer being read by OCR (`done` of `total` such pages). */
export const FILE_PHASES = ['parse', 'ocr', 'chunk', 'index', 'embed', 'done'] as const;
export type FilePhase = (typeof FILE_PHASES)[number];

export interface FileProgress {
  readonly fileId: string;
  readonly index: number;
  readonly count: number;
  /** parse (pages read) → chunk → index (stored, searchable by its words) → embed (chunks with vectors) → done. */
  readonly phase: FilePhase;
  readonly done: number;
  readonly total: number;
  /** The document it becomes, from the chunk phase on (the library lists it from `index`). */
  readonly docId?: string;
}

export type FileOutcome =
  | {
      readonly fileId: string;
      readonly ok: true;
      readonly docId: string;
      readonly title: string;
      readonly format: DocumentFormat;
      readonly chunks: number;
      readonly pages: number | null;
      readonly replaced: boolean;
      /** Parser warnings a user should know about (scanned pages, hidden HTML dropped, …). */
      readonly warnings: readonly string[];
      /** Removed from the library (or replaced by a later version) before its vectors were computed. */
      readonly removed?: true;
    }
  | { readonly fileId: string; readonly ok: false; readonly error: EvidentErrorValue };

export interface AddFilesResult {
  readonly files: readonly FileOutcome[];
}

// ---- Reading a document ----

export interface ReadDocumentOptions {
  /** First chunk ordinal (default 0). */
  readonly from?: number;
  /** Chunks to return (default 50, at most 500). */
  readonly count?: number;
}

export interface DocumentPassage {
  readonly id: string;
  readonly ordinal: number;
  readonly text: string;
  readonly headings: readonly string[];
  readonly page: number | null;
  readonly start: number;
  readonly end: number;
  /** A table chunk's title and column header when its text does not hold them (shown above its rows). */
  readonly context?: string;
}

export interface DocumentView {
  readonly docId: string;
  readonly title: string;
  readonly fileName: string;
  readonly format: DocumentFormat;
  readonly sourceType: SourceType;
  readonly status: DocStatus;
  readonly effectiveDate: string | null;
  readonly pageCount: number | null;
  /** Chunks in the document. */
  readonly total: number;
  readonly from: number;
  readonly passages: readonly DocumentPassage[];
}

// ---- Settings ----

export interface CutoffBounds {
  readonly min: number;
  readonly max: number;
}

/** What the user can change; persisted in IndexedDB's settings store when there is one. */
export interface AppSettingValues {
  /**
   * The model profile the user chose; the worker loads it again at startup (`tiny`: the test
   * profile, offered with `?test-models` only).
   */
  readonly profile: 'embedded' | 'enhanced' | 'tiny';
  /** The user agreed to download models that are not on this site from the Hugging Face Hub. */
  readonly hubConsent: boolean;
  /** Evidence token budget: packed passages never exceed it. */
  readonly budget: number;
  /** MMR λ: relevance (1) vs diversity (0). */
  readonly mmrLambda: number;
  /** Fewest and most passages the elbow cutoff keeps. */
  readonly cutoffBounds: CutoffBounds;
  /** Premise-directed inquiry: follow-up queries at most (0: off) and records read per query. */
  readonly inquiry: InquirySetting;
  /** OCR of PDF pages without a text layer (scanned pages); off: they stay unsearchable. */
  readonly ocr: boolean;
}

export interface InquirySetting {
  readonly budget: number;
  readonly topR: number;
}

/** Profiles and roles as the Settings page lists them (`summarizeProfiles` in `models/manifest.ts`). */
export type { ProfileRoleSummary, ProfileSummary } from '../models/manifest';

export interface AppSettings {
  readonly values: AppSettingValues;
  readonly defaults: AppSettingValues;
  /** λ per source type as edited (before feedback), and the defaults. */
  readonly priorTable: Readonly<Record<SourceType, number>>;
  readonly priorDefaults: Readonly<Record<SourceType, number>>;
  /** λ per source type now, after feedback. */
  readonly priorEffective: Readonly<Record<SourceType, number>>;
  /** Documents whose λ feedback has moved. */
  readonly documentAdjustments: number;
  /** False when settings and priors live in memory only (no IndexedDB). */
  readonly persistent: boolean;
  readonly profiles: readonly ProfileSummary[];
  readonly embedder: EmbedderInfo | null;
}

export interface SettingsPatch {
  readonly values?: Partial<AppSettingValues>;
  /** λ per source type; every value in [0, 1]. */
  readonly priorTable?: Partial<Record<SourceType, number>>;
}

export type AskOptions = CallOptions;

/** What `worker.ts` exposes for the app (spread from `appApi`). */
export interface AppApi {
  /** Retrieval → selection (with verify) → extractive answer → validation → abstention, with the whole trail. */
  ask(question: string, options: AskOptions, onProgress?: ProgressCallback<AskProgress>): Promise<Result<AskResult>>;
  /** A helpful / misleading judgement of a cited passage's document: moves its λ (priors.ts `applyFeedback`). */
  feedback(input: FeedbackInput): Promise<Result<FeedbackResult>>;
  /** Parses, chunks, stores, indexes and embeds files one by one; a file that fails is reported and the rest go on. */
  addFiles(
    files: readonly FileInput[],
    options: CallOptions,
    onProgress?: ProgressCallback<FileProgress>,
  ): Promise<Result<AddFilesResult>>;
  /** A window of a document's passages (previews, a citation's context). */
  readDocument(docId: string, options?: ReadDocumentOptions): Promise<Result<DocumentView>>;
  getSettings(): Promise<Result<AppSettings>>;
  updateSettings(patch: SettingsPatch): Promise<Result<AppSettings>>;
  /** Defaults for every setting and the λ table (feedback is kept). */
  resetSettings(): Promise<Result<AppSettings>>;
}
