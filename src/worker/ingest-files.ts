/**
 * Files → the library, in the worker: each file's bytes go through `parseDocument` (PDF, DOCX,
 * HTML, Markdown, text; pdf.js runs in this thread with our own CMaps and standard fonts), the
 * parsed text is chunked in the parser's structure (`chunkFormatOf`), chunks get their pages, and
 * the document goes down the engine's add path (stored whole in one transaction, indexed
 * lexically, then embedded batch by batch).
 *
 * Files are ingested one at a time, in order. A file that cannot be read (a wrong type, a
 * password, no text, a full disk) is reported with its error and the batch goes on; the library
 * is never left with part of a document. Cancelling stops the batch between steps.
 */
import { EvidentError, type EvidentErrorValue } from '../core/errors';
import { chunkFormatOf, parseDocument, type ParseOptions } from '../parse/index';
import { throwIfAborted } from './abort-registry';
import type { AddDocumentInput, AddDocumentsResult, BatchProgress } from './api';
import type { AddFilesResult, FileInput, FileOutcome, FileProgress } from './ask-api';
import { toErrorValue } from './result';

/** What ingest needs from the engine: its batch add path (one file per call). */
export interface FileEngine {
  addDocuments(
    inputs: readonly AddDocumentInput[],
    opts: { signal?: AbortSignal; onProgress?: (p: BatchProgress) => void },
  ): Promise<AddDocumentsResult>;
}

export interface IngestFilesOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: FileProgress) => void;
  /** pdf.js assets: absolute folder URLs ending in "/" (`…/vendor/pdfjs/cmaps/`, `…/standard_fonts/`). */
  readonly cMapUrl?: string;
  readonly standardFontDataUrl?: string;
  /** Parser hooks for Node tests (pdf.js loader, asset reader). */
  readonly parse?: Pick<ParseOptions, 'loadPdfjs' | 'fetchAsset' | 'maxBytes'>;
  /** Called once a file is stored and searchable by its words (the UI lists it then). */
  readonly onStored?: (docId: string) => void;
}

/** Same file name ⇒ same id: adding a file again replaces the earlier version. */
export function fileDocId(name: string): string {
  return `file:${name}`;
}

function validateFiles(files: unknown): asserts files is readonly FileInput[] {
  if (!Array.isArray(files)) throw new EvidentError('invalid_input', 'addFiles: expected a list of files.');
  for (const f of files as unknown[]) {
    const x = f as Partial<FileInput> | null;
    if (
      typeof x !== 'object' ||
      x === null ||
      typeof x.fileId !== 'string' ||
      typeof x.name !== 'string' ||
      x.name === '' ||
      !(x.bytes instanceof ArrayBuffer)
    ) {
      throw new EvidentError(
        'invalid_input',
        'addFiles: every file needs a fileId, a name and its bytes (an ArrayBuffer).',
      );
    }
  }
}

export async function ingestFiles(
  engine: FileEngine,
  files: readonly FileInput[],
  options: IngestFilesOptions = {},
): Promise<AddFilesResult> {
  validateFiles(files);
  const { signal, onProgress } = options;
  const outcomes: FileOutcome[] = [];
  for (const [index, file] of files.entries()) {
    throwIfAborted(signal);
    const at = { fileId: file.fileId, index, count: files.length };
    try {
      outcomes.push(
        await ingestOne(engine, file, options, (phase, done, total) => onProgress?.({ ...at, phase, done, total })),
      );
    } catch (err) {
      const error: EvidentErrorValue = toErrorValue(err);
      if (error.code === 'aborted') throw err;
      outcomes.push({ fileId: file.fileId, ok: false, error });
    }
  }
  return { files: outcomes };
}

async function ingestOne(
  engine: FileEngine,
  file: FileInput,
  options: IngestFilesOptions,
  progress: (phase: FileProgress['phase'], done: number, total: number) => void,
): Promise<FileOutcome> {
  const { signal } = options;
  progress('parse', 0, 0);
  const parsed = await parseDocument(new Uint8Array(file.bytes), {
    fileName: file.name,
    ...(file.mimeType ? { mimeType: file.mimeType } : {}),
    ...(file.password !== undefined ? { password: file.password } : {}),
    ...(signal ? { signal } : {}),
    ...(options.cMapUrl ? { cMapUrl: options.cMapUrl } : {}),
    ...(options.standardFontDataUrl ? { standardFontDataUrl: options.standardFontDataUrl } : {}),
    ...options.parse,
    onProgress: (p) => {
      if (p.phase === 'pages') progress('parse', p.done, p.total);
    },
  });
  throwIfAborted(signal);
  const docId = fileDocId(file.name);
  const m = parsed.metadata;
  const input: AddDocumentInput = {
    docId,
    title: parsed.title,
    text: parsed.text,
    format: chunkFormatOf(parsed.format),
    fileFormat: parsed.format,
    fileName: file.name,
    sourceType: m.sourceTypeGuess,
    status: m.statusGuess,
    ...(m.effectiveDateGuess ? { effectiveDate: m.effectiveDateGuess } : {}),
    ...(parsed.pages ? { pages: parsed.pages } : {}),
  };
  let stored = false;
  const result = await engine.addDocuments([input], {
    ...(signal ? { signal } : {}),
    onProgress: (p) => {
      progress(p.phase, p.done, p.total);
      if (p.phase === 'index' && !stored) {
        stored = true;
        options.onStored?.(docId);
      }
    },
  });
  const failed = result.failed[0];
  if (failed) return { fileId: file.fileId, ok: false, error: failed.error };
  const added = result.added[0];
  if (!added) throw new EvidentError('internal', `"${file.name}" was neither added nor reported as failed.`);
  return {
    fileId: file.fileId,
    ok: true,
    docId,
    title: parsed.title,
    format: parsed.format,
    chunks: added.chunks,
    pages: parsed.pages ? parsed.pages.length : null,
    replaced: added.replaced,
    warnings: parsed.warnings.map((w) => w.message),
  };
}
