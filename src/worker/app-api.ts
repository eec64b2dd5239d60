/**
 * The `AppApi` methods (ask, feedback, files, reading documents, settings) for `worker.ts` to
 * spread into its API object, built from the worker's collaborators so that Node tests can build
 * the same object around a real `Engine`.
 */
import { EvidentError } from '../core/errors';
import type { FeedbackRecord } from '../core/library-format';
import { applyFeedback, documentLambda } from '../core/select/priors';
import type { Chunk } from '../core/types';
import { ask, type AskEngine, type AskModels } from './ask';
import type { CallOptions, EmbedderInfo, ProgressCallback, Result } from './api';
import type {
  AddFilesResult,
  AppApi,
  DocumentView,
  FeedbackInput,
  FeedbackResult,
  FileProgress,
  ReadDocumentOptions,
} from './ask-api';
import type { DocumentRecord } from '../core/library-format';
import {
  ingestFiles,
  serialQueue,
  type FileEngine,
  type FileQueue,
  type IngestFilesOptions,
  type Serial,
} from './ingest-files';
import { asResult } from './result';
import type { SettingsHost } from './settings';

/** `worker.ts`'s `run` (abort id, errors as values, callback release). */
export type RunCall = <T, P>(
  options: CallOptions | undefined,
  onProgress: ProgressCallback<P> | undefined,
  fn: (signal: AbortSignal, progress: (p: P) => void) => Promise<T>,
) => Promise<Result<T>>;

export interface AppEngine extends AskEngine, FileEngine {
  documentChunks(docId: string): { meta: DocumentRecord; chunks: readonly Chunk[] } | undefined;
}

export interface AppApiDeps {
  readonly run: RunCall;
  readonly engine: AppEngine;
  readonly settings: SettingsHost;
  /** Waits for the stored library to be loaded (every call does first). */
  readonly ready: () => Promise<unknown>;
  /** Runs a library write after the ones in flight (ingest, deletes). */
  readonly exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** One parse at a time, shared with resuming a batch (default: a queue of its own). */
  readonly parser?: Serial;
  readonly models?: () => AskModels;
  readonly embedder: () => EmbedderInfo | null;
  /** The feedback log in IndexedDB, when the library is stored there. */
  readonly feedbackLog?: () => { addFeedback(record: FeedbackRecord): Promise<number> } | null;
  /** The ingest queue in IndexedDB: a batch of files waits there as bytes, so a reload resumes it. */
  readonly queue?: () => FileQueue | null;
  /** pdf.js asset folders (absolute URLs ending in "/"). */
  readonly pdfAssets?: { readonly cMapUrl: string; readonly standardFontDataUrl: string };
  /** OCR of scanned pages: tesseract.js's self-hosted files and the user's setting (`IngestFilesOptions.ocr`). */
  readonly ocr?: IngestFilesOptions['ocr'];
  /** Throttles progress (the worker sends ~10 events a second, and always the last). */
  readonly throttle?: <P>(send: (p: P) => void) => (last: boolean, p: P) => void;
  /** Called when a file is stored (searchable by its words). */
  readonly onStored?: (docId: string) => void;
}

export const READ_DEFAULT_COUNT = 50;
export const READ_MAX_COUNT = 500;

/** A window of a document's passages. */
export function readDocumentView(engine: AppEngine, docId: string, options: ReadDocumentOptions = {}): DocumentView {
  if (typeof docId !== 'string') throw new EvidentError('invalid_input', 'readDocument: docId must be a string.');
  const found = engine.documentChunks(docId);
  if (!found) throw new EvidentError('invalid_input', 'This document is no longer in the library.');
  const from = options.from ?? 0;
  const count = options.count ?? READ_DEFAULT_COUNT;
  if (!Number.isInteger(from) || from < 0)
    throw new EvidentError('invalid_option', 'readDocument: from must be a whole number ≥ 0.');
  if (!Number.isInteger(count) || count < 1 || count > READ_MAX_COUNT) {
    throw new EvidentError('invalid_option', `readDocument: count must be a whole number from 1 to ${READ_MAX_COUNT}.`);
  }
  const { meta, chunks } = found;
  return {
    docId: meta.id,
    title: meta.title,
    fileName: meta.fileName,
    format: meta.format,
    sourceType: meta.sourceType,
    status: meta.status,
    effectiveDate: meta.effectiveDate ?? null,
    pageCount: meta.pageCount,
    total: chunks.length,
    from,
    passages: chunks.slice(from, from + count).map((c) => ({
      id: c.id,
      ordinal: c.ordinal,
      text: c.text,
      headings: c.headings,
      page: c.page ?? null,
      start: c.start,
      end: c.end,
      ...(c.context ? { context: c.context } : {}),
    })),
  };
}

/** One helpful / misleading judgement: moves the document's λ, stores the state, logs the mark. */
export async function recordFeedback(
  deps: Pick<AppApiDeps, 'engine' | 'settings' | 'feedbackLog'>,
  input: FeedbackInput,
  now = Date.now(),
): Promise<FeedbackResult> {
  if (typeof input !== 'object' || input === null || typeof input.docId !== 'string') {
    throw new EvidentError('invalid_input', 'feedback: expected { docId, verdict }.');
  }
  if (input.verdict !== 'helpful' && input.verdict !== 'misleading') {
    throw new EvidentError(
      'invalid_input',
      `feedback: verdict must be helpful or misleading, got "${String(input.verdict)}".`,
    );
  }
  const found = deps.engine.documentChunks(input.docId);
  if (!found) throw new EvidentError('invalid_input', 'This document is no longer in the library.');
  const meta = found.meta;
  const state = await deps.settings.priors();
  const before = documentLambda(state, meta, now);
  const next = applyFeedback(state, { docId: meta.id, sourceType: meta.sourceType, verdict: input.verdict, at: now });
  await deps.settings.savePriors(next);
  const log = deps.feedbackLog?.() ?? null;
  if (log) {
    await log.addFeedback({
      docId: meta.id,
      ...(typeof input.chunkId === 'string' ? { chunkId: input.chunkId } : {}),
      sourceType: meta.sourceType,
      verdict: input.verdict,
      at: now,
      ...(typeof input.question === 'string' ? { query: input.question.slice(0, 10_000) } : {}),
    });
  }
  return {
    docId: meta.id,
    sourceType: meta.sourceType,
    before,
    after: documentLambda(next, meta, now),
    persistent: deps.settings.persistent,
  };
}

export function appApi(deps: AppApiDeps): AppApi {
  const { run, engine, settings, ready } = deps;
  const parser = deps.parser ?? serialQueue();
  const throttled = <P>(progress: (p: P) => void): ((last: boolean, p: P) => void) =>
    deps.throttle ? deps.throttle(progress) : (_last, p) => progress(p);
  return {
    ask: (question, options, onProgress) =>
      run(options, onProgress, async (signal, progress) => {
        await ready();
        return ask({ engine, settings, ...(deps.models ? { models: deps.models } : {}) }, question, {
          signal,
          onProgress: progress,
        });
      }),

    feedback: (input) =>
      asResult(async () => {
        await ready();
        return recordFeedback(deps, input);
      }),

    // Batches run side by side: only their writes take the library's write lock, and their files
    // are parsed one at a time (ingest-files.ts), so a batch never waits for another's embedding.
    addFiles: (files, options, onProgress) =>
      run(options, onProgress, async (signal, progress: (p: FileProgress) => void): Promise<AddFilesResult> => {
        const send = throttled(progress);
        await ready();
        return ingestFiles(engine, files, {
          signal,
          onProgress: (p) => send(p.phase !== 'embed' && p.phase !== 'parse' ? true : p.done === p.total, p),
          ...(deps.pdfAssets ?? {}),
          ...(deps.ocr ? { ocr: deps.ocr } : {}),
          ...(deps.onStored ? { onStored: deps.onStored } : {}),
          queue: deps.queue?.() ?? null,
          write: deps.exclusive,
          parser,
        });
      }),

    readDocument: (docId, options) =>
      asResult(async () => {
        await ready();
        return readDocumentView(engine, docId, options);
      }),

    getSettings: () =>
      asResult(async () => {
        await ready();
        return settings.get(deps.embedder());
      }),

    updateSettings: (patch) =>
      asResult(async () => {
        await ready();
        await settings.update(patch);
        return settings.get(deps.embedder());
      }),

    resetSettings: () =>
      asResult(async () => {
        await ready();
        await settings.reset();
        return settings.get(deps.embedder());
      }),
  };
}
