/**
 * Files → the library, in the worker: each file's bytes go through `parseDocument` (PDF, DOCX,
 * HTML, Markdown, text; pdf.js runs in this thread with our own CMaps and standard fonts), the
 * parsed text is chunked in the parser's structure (`chunkFormatOf`), chunks get their pages, and
 * the document goes down the engine's add path (stored whole in one transaction, indexed
 * lexically, then embedded batch by batch).
 *
 * Files are parsed, chunked, stored and indexed one at a time, in order; each is searchable by its
 * words once stored. Its embedding is queued behind the earlier files' (`Engine.stageDocument`),
 * so the next file is parsed and indexed while earlier ones are still being embedded, and the
 * call resolves once every file is embedded. A file that cannot be read (a wrong type, a
 * password, no text, a full disk) is reported with its error and the batch goes on; the library
 * is never left with part of a document. Cancelling stops parsing and embedding between steps.
 *
 * Across batches (the worker's `addFiles` calls, which run side by side): parsing goes through
 * `parser`, one file at a time in the order the files came, and only the steps that write the
 * library (queueing the batch, storing a parsed file) go through `write`, the worker's write
 * lock. So a file added while another batch's files are embedding is parsed as soon as the parser
 * is free and is searchable by its words at once, and removing a document never waits for a
 * parse or an embedding. A file removed (or replaced) while it waits for its vectors ends
 * `removed`: its embedding is cancelled by the engine, not failed.
 *
 * With a queue (IndexedDB), the whole batch is first written to the ingest queue as the files'
 * own bytes (one transaction), and each entry leaves the queue in the transaction that stores its
 * document. A batch cut short by a reload or a killed worker is resumed by `resumeQueued`, which
 * parses the same bytes with the same parser: the document comes back with its pages, headings
 * and format as if it had never been interrupted. A file that kills the worker is not retried
 * for ever: after `MAX_INGEST_ATTEMPTS` starts it is dropped with an error.
 */
import { EvidentError, type EvidentErrorValue } from '../core/errors';
import {
  DEFAULT_MAX_BYTES,
  chunkFormatOf,
  parseDocument,
  type ParsedDocument,
  type ParseOptions,
} from '../parse/index';
import type { OcrOptions } from '../parse/pdf-ocr';
import type { Library } from '../storage/library';
import type { QueueEntry } from '../storage/schema';
import { throwIfAborted } from './abort-registry';
import type { AddDocumentInput, AddDocumentResult, AddDocumentsResult, BatchProgress, IngestProgress } from './api';
import type { AddFilesResult, FileInput, FileOutcome, FileProgress } from './ask-api';
import type { Engine, IngestCallbacks } from './engine';
import { toErrorValue } from './result';

/** What ingest needs from the engine: its one-document add path, embedding in the background. */
export type FileEngine = Pick<Engine, 'stageDocument' | 'document'>;

/** Runs `fn` after the calls given to it before have settled (a lock, or a one-at-a-time queue). */
export type Serial = <T>(fn: () => Promise<T>) => Promise<T>;

/** Runs at once: no serialisation (tests, a single batch). */
const immediate: Serial = (fn) => fn();

/** A queue that runs its calls one at a time, in the order they came; a failure does not stop it. */
export function serialQueue(): Serial {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => {});
    return next;
  };
}

/** The ingest queue (the `Library` in the worker). */
export type FileQueue = Pick<Library, 'enqueue' | 'queued' | 'dequeue' | 'beginQueued'>;

/**
 * Starts of one queued file before it is given up: a reload mid-ingest is one, the resume after
 * it another; a file that kills the worker each time is dropped at the next start after this.
 */
export const MAX_INGEST_ATTEMPTS = 3;

/** pdf.js assets and parser hooks, shared by adding and resuming. */
export interface ParserSetup {
  /**
   * Runs a library write after the ones in flight (the worker's write lock): the batch's queueing
   * and each file's store-and-index. Default: at once.
   */
  readonly write?: Serial;
  /** Runs a parse after the ones in flight: one file parsed at a time across batches. Default: at once. */
  readonly parser?: Serial;
  /** pdf.js assets: absolute folder URLs ending in "/" (`…/vendor/pdfjs/cmaps/`, `…/standard_fonts/`). */
  readonly cMapUrl?: string;
  readonly standardFontDataUrl?: string;
  /** Parser hooks for Node tests (pdf.js loader, asset reader). */
  readonly parse?: Pick<ParseOptions, 'loadPdfjs' | 'fetchAsset' | 'maxBytes'>;
  /**
   * OCR of pages without a text layer: where tesseract.js's files are, and whether the user has
   * it on (read at each batch's start). None: scanned pages stay without text.
   */
  readonly ocr?: () => Promise<Pick<OcrOptions, 'assets' | 'enabled'>>;
}

export interface IngestFilesOptions extends ParserSetup {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: FileProgress) => void;
  /** Called once a file is stored and searchable by its words (the UI lists it then). */
  readonly onStored?: (docId: string) => void;
  /** The ingest queue: the batch is queued as bytes first, so a reload resumes it. None: not resumable. */
  readonly queue?: FileQueue | null;
  /**
   * Default true: the next file is parsed and indexed while earlier ones are embedded. False: each
   * file is embedded before the next is parsed (the benchmark's baseline, `bench-ingest-browser.ts`).
   */
  readonly overlap?: boolean;
}

export interface ResumeOptions extends ParserSetup {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: BatchProgress) => void;
}

/** Same file name ⇒ same id: adding a file again replaces the earlier version. */
export function fileDocId(name: string): string {
  return `file:${name}`;
}

/** A file's name without its extension: the title shown until the parser finds the real one. */
function provisionalTitle(name: string): string {
  return name.replace(/\.[^.]+$/, '') || name;
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

/**
 * Queues the files worth queueing (not empty, not over the size limit: those fail at once) as
 * bytes, in one transaction. Returns each file's queue key, or undefined when it was not queued.
 * A queue that cannot take them (a full disk: a PDF's bytes can be far larger than its text)
 * does not stop the batch: it is ingested unqueued, and only resuming it is lost.
 */
async function enqueueFiles(
  queue: FileQueue | null | undefined,
  files: readonly FileInput[],
  maxBytes: number,
): Promise<(number | undefined)[]> {
  const none = files.map((): number | undefined => undefined);
  if (!queue) return none;
  const now = Date.now();
  const worth = files.flatMap((f, i) => (f.bytes.byteLength > 0 && f.bytes.byteLength <= maxBytes ? [i] : []));
  if (worth.length === 0) return none;
  try {
    const entries = await queue.enqueue(
      worth.map((i): QueueEntry => {
        const f = files[i] as FileInput;
        return {
          docId: fileDocId(f.name),
          title: provisionalTitle(f.name),
          fileName: f.name,
          source: { kind: 'bytes', bytes: f.bytes, mime: f.mimeType ?? '' },
          queuedAt: now,
        };
      }),
    );
    const seqs = [...none];
    worth.forEach((fileIndex, k) => (seqs[fileIndex] = entries[k]?.seq));
    return seqs;
  } catch {
    return none;
  }
}

/** Removes a queue entry whose outcome was reported (best effort: a leftover is retried, then dropped). */
async function drop(queue: FileQueue | null | undefined, seq: number | undefined): Promise<void> {
  if (queue && seq !== undefined) await queue.dequeue(seq).catch(() => {});
}

/** Counts a start of a queued file; refuses it once it has been started `MAX_INGEST_ATTEMPTS` times. */
async function countStart(queue: FileQueue | null | undefined, seq: number | undefined, name: string): Promise<void> {
  if (!queue || seq === undefined) return;
  const count = await queue.beginQueued(seq).catch(() => 1);
  if (count > MAX_INGEST_ATTEMPTS) {
    throw new EvidentError(
      'worker_crashed',
      `Evident stopped ${count - 1} times while adding "${name}", so it was skipped (it may need more memory than this tab has). Try adding it on its own.`,
    );
  }
}

export async function ingestFiles(
  engine: FileEngine,
  files: readonly FileInput[],
  options: IngestFilesOptions = {},
): Promise<AddFilesResult> {
  validateFiles(files);
  const { signal, onProgress, queue } = options;
  throwIfAborted(signal);
  const write = options.write ?? immediate;
  const seqs = await write(() => enqueueFiles(queue, files, options.parse?.maxBytes ?? DEFAULT_MAX_BYTES));
  const outcomes: FileOutcome[] = [];
  const embedding = new Embedding();
  let index = 0;
  try {
    for (; index < files.length; index++) {
      const file = files[index] as FileInput;
      const seq = seqs[index];
      const slot = index;
      throwIfAborted(signal);
      const at = { fileId: file.fileId, index, count: files.length };
      const failed = async (err: unknown): Promise<void> => {
        const error: EvidentErrorValue = toErrorValue(err);
        if (error.code === 'aborted') throw err;
        // Its error is reported now: it must not come back on the next start.
        await drop(queue, seq);
        outcomes[slot] = { fileId: file.fileId, ok: false, error };
      };
      try {
        await countStart(queue, seq, file.name);
        const docId = fileDocId(file.name);
        let stored = false;
        const { parsed, staged } = await parseAndStage(
          engine,
          { docId, name: file.name, mime: file.mimeType, bytes: file.bytes, password: file.password },
          {
            ...options,
            seq,
            // The batch's last file rebuilds the BM25 index; a search before that rebuilds it itself.
            deferIndex: index < files.length - 1,
            onParse: (done, total) => onProgress?.({ ...at, phase: 'parse', done, total }),
            onOcr: (done, total) => onProgress?.({ ...at, phase: 'ocr', done, total }),
            onIngest: (p) => {
              onProgress?.({ ...at, phase: p.phase, done: p.done, total: p.total, docId });
              if (p.phase === 'index' && !stored) {
                stored = true;
                options.onStored?.(docId);
              }
            },
          },
        );
        const embedded = embedding.add(
          staged.embedded.then((added) => {
            // Removed (or replaced by a later version) while it waited for its vectors.
            const removed = engine.document(docId)?.addedAt !== staged.addedAt;
            outcomes[slot] = {
              fileId: file.fileId,
              ok: true,
              docId,
              title: parsed.title,
              format: parsed.format,
              chunks: added.chunks,
              pages: parsed.pages ? parsed.pages.length : null,
              replaced: added.replaced,
              warnings: parsed.warnings.map((w) => w.message),
              ...(removed ? { removed: true } : {}),
            };
          }, failed),
        );
        if (options.overlap === false) await embedded;
      } catch (err) {
        await failed(err);
      }
    }
    await embedding.finish();
  } catch (err) {
    // Cancelled: the rest of the batch is not wanted any more (a document already stored stays).
    for (const seq of seqs.slice(index)) await drop(queue, seq);
    await embedding.settle();
    throw err;
  }
  return { files: outcomes };
}

/** The batch's files still embedding in the background; the batch ends when they are done. */
class Embedding {
  private readonly pending: Promise<void>[] = [];

  add(done: Promise<void>): Promise<void> {
    // Observed at once: a cancelled embedding rejects before `finish` looks at it.
    done.catch(() => {});
    this.pending.push(done);
    return done;
  }

  /** Resolves when all are done; rejects with the first failure (cancelled: `aborted`) once all have settled. */
  async finish(): Promise<void> {
    const results = await Promise.allSettled(this.pending);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  /** Waits for every one to settle, whatever the outcome (a cancelled batch stops them through its signal). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}

/**
 * Ingests what an interrupted batch left in the queue, oldest first: files are parsed again from
 * their stored bytes, text entries (the demo, documents added as text) are chunked as they were.
 * Each entry leaves the queue with its document, or when its error is reported; cancelling
 * leaves the rest queued for the next start.
 */
export async function resumeQueued(
  engine: FileEngine,
  queue: FileQueue | null,
  options: ResumeOptions = {},
): Promise<AddDocumentsResult> {
  if (!queue) return { added: [], failed: [] };
  const { signal, onProgress } = options;
  const write = options.write ?? immediate;
  const entries = await write(() => queue.queued());
  type Outcome = { added: AddDocumentResult } | { failed: AddDocumentsResult['failed'][number] };
  const outcomes: Outcome[] = [];
  const embedding = new Embedding();
  try {
    for (const [index, entry] of entries.entries()) {
      throwIfAborted(signal);
      let title = entry.title;
      const report = (p: IngestProgress): void => onProgress?.({ ...p, index, count: entries.length, title });
      const callbacks = { ...options, seq: entry.seq, deferIndex: index < entries.length - 1, onIngest: report };
      const failed = async (err: unknown): Promise<void> => {
        const error = toErrorValue(err);
        if (error.code === 'aborted') throw err;
        await drop(queue, entry.seq);
        outcomes[index] = { failed: { docId: entry.docId, title, error } };
      };
      try {
        await countStart(queue, entry.seq, entry.fileName || entry.title);
        const staged =
          entry.source.kind === 'bytes'
            ? (
                await parseAndStage(
                  engine,
                  { docId: entry.docId, name: entry.fileName, mime: entry.source.mime, bytes: entry.source.bytes },
                  {
                    ...callbacks,
                    onParse: () => report({ docId: entry.docId, phase: 'chunk', done: 0, total: 0 }),
                    onParsed: (parsed) => (title = parsed.title),
                  },
                )
              ).staged
            : await write(() => engine.stageDocument(textInput(entry), ingestCallbacks(callbacks)));
        embedding.add(staged.embedded.then((added) => void (outcomes[index] = { added }), failed));
      } catch (err) {
        await failed(err);
      }
    }
    await embedding.finish();
  } catch (err) {
    await embedding.settle();
    throw err;
  }
  return {
    added: outcomes.flatMap((o) => ('added' in o ? [o.added] : [])),
    failed: outcomes.flatMap((o) => ('failed' in o ? [o.failed] : [])),
  };
}

/** A queued text entry as the engine's input. */
function textInput(e: QueueEntry): AddDocumentInput {
  if (e.source.kind !== 'text') throw new EvidentError('internal', 'textInput: the entry holds bytes.');
  return {
    docId: e.docId,
    title: e.title,
    text: e.source.text,
    format: e.source.format,
    fileName: e.fileName,
    ...(e.sourceType ? { sourceType: e.sourceType } : {}),
    ...(e.status ? { status: e.status } : {}),
    ...(e.effectiveDate ? { effectiveDate: e.effectiveDate } : {}),
  };
}

interface AddSteps extends ParserSetup {
  readonly signal?: AbortSignal;
  readonly seq: number | undefined;
  readonly deferIndex: boolean;
  readonly onParse?: (done: number, total: number) => void;
  /** Per-page OCR progress: `done` of `total` pages without a text layer. */
  readonly onOcr?: (done: number, total: number) => void;
  readonly onParsed?: (parsed: ParsedDocument) => void;
  readonly onIngest?: (p: IngestProgress) => void;
}

function ingestCallbacks(steps: AddSteps): IngestCallbacks {
  return {
    ...(steps.signal ? { signal: steps.signal } : {}),
    ...(steps.seq !== undefined ? { dequeue: steps.seq } : {}),
    deferIndex: steps.deferIndex,
    ...(steps.onIngest ? { onProgress: steps.onIngest } : {}),
  };
}

/**
 * Parses one file and stages it: stored and indexed when this resolves (its queue entry, if any,
 * leaves the queue with the document), embedded when `staged.embedded` does.
 */
interface FileToParse {
  readonly docId: string;
  readonly name: string;
  readonly mime: string;
  readonly bytes: ArrayBuffer;
  readonly password?: string | undefined;
}

async function parseAndStage(
  engine: FileEngine,
  file: FileToParse,
  steps: AddSteps,
): Promise<{
  parsed: ParsedDocument;
  staged: Awaited<ReturnType<FileEngine['stageDocument']>> & { readonly addedAt: number | undefined };
}> {
  const { signal } = steps;
  const parsed = await (steps.parser ?? immediate)(() => parseFile(file, steps));
  throwIfAborted(signal);
  steps.onParsed?.(parsed);
  const m = parsed.metadata;
  const input: AddDocumentInput = {
    docId: file.docId,
    title: parsed.title,
    text: parsed.text,
    format: chunkFormatOf(parsed.format),
    fileFormat: parsed.format,
    fileName: file.name,
    sourceType: m.sourceTypeGuess,
    status: m.statusGuess,
    ...(m.effectiveDateGuess ? { effectiveDate: m.effectiveDateGuess } : {}),
    ...(m.language ? { language: m.language } : {}),
    ...(parsed.pages ? { pages: parsed.pages } : {}),
    ...(parsed.hidden ? { hidden: parsed.hidden } : {}),
    // The page view renders the PDF itself: its bytes are stored with the document.
    ...(parsed.format === 'pdf' ? { original: new Uint8Array(file.bytes) } : {}),
  };
  const staged = await (steps.write ?? immediate)(async () => {
    const s = await engine.stageDocument(input, ingestCallbacks(steps));
    // The version stored now: a later removal or replacement changes what the library holds.
    return { ...s, addedAt: engine.document(input.docId)?.addedAt };
  });
  return { parsed, staged };
}

/** Reads one file's bytes with the parser for its format (pdf.js, mammoth, the HTML and text readers). */
async function parseFile(file: FileToParse, steps: AddSteps): Promise<ParsedDocument> {
  const { signal } = steps;
  throwIfAborted(signal);
  steps.onParse?.(0, 0);
  const ocr = steps.ocr ? await steps.ocr() : undefined;
  return parseDocument(new Uint8Array(file.bytes), {
    fileName: file.name,
    ...(file.mime ? { mimeType: file.mime } : {}),
    ...(file.password !== undefined ? { password: file.password } : {}),
    ...(signal ? { signal } : {}),
    ...(steps.cMapUrl ? { cMapUrl: steps.cMapUrl } : {}),
    ...(steps.standardFontDataUrl ? { standardFontDataUrl: steps.standardFontDataUrl } : {}),
    ...steps.parse,
    ...(ocr ? { ocr: { ...ocr, onPage: (p: { done: number; total: number }) => steps.onOcr?.(p.done, p.total) } } : {}),
    onProgress: (p) => {
      if (p.phase === 'pages') steps.onParse?.(p.done, p.total);
    },
  });
}
