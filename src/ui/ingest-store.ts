/**
 * Files the user adds to the library (file picker or drop): each becomes a job that shows its
 * progress (parse → chunk → lexical index → vectors) and ends done, failed with a plain-language
 * error, cancelled, or waiting for a PDF password. Each `add` goes to the worker at once as a
 * batch of its own, its bytes transferred (not copied): batches run side by side there (files
 * parsed one at a time, embedding in the background), so files added while others are being
 * embedded are searchable as soon as they are parsed. A password-protected PDF is read again from
 * its `File` when the user gives the password. `cancel` stops every batch in flight (a file
 * already stored stays in the library).
 */
import type { EvidentErrorValue } from '../core/errors';
import type { FileInput, FileOutcome, FilePhase } from '../worker/ask-api';
import { Store, toErrorValue } from './store';
import { isAbort, type WorkerClient } from './worker-client';

/** Largest file read into memory: the parser's own default limit (`parseDocument` maxBytes). */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** What the file picker offers (the parser still decides by the bytes). */
export const ACCEPTED_FILES =
  '.pdf,.docx,.html,.htm,.md,.markdown,.txt,application/pdf,text/html,text/markdown,text/plain';

export type JobStatus = 'waiting' | 'working' | 'done' | 'failed' | 'password' | 'cancelled';

export interface IngestJob {
  readonly id: string;
  readonly name: string;
  readonly size: number;
  readonly status: JobStatus;
  readonly phase: FilePhase | null;
  readonly done: number;
  readonly total: number;
  /** Why it failed; for a cancelled job, what became of it. */
  readonly error: EvidentErrorValue | null;
  readonly result: Extract<FileOutcome, { ok: true }> | null;
  /** A password was given and it was wrong. */
  readonly wrongPassword: boolean;
  /** The library document it became (known once it is stored): its vectors are read from the library's list. */
  readonly docId?: string;
}

export interface IngestState {
  readonly jobs: readonly IngestJob[];
}

type Client = Pick<WorkerClient, 'addFiles'>;

export interface IngestStoreOptions {
  /** The library changed (a file was stored, or a batch ended): refresh the document list. */
  readonly onLibraryChanged?: () => void;
  /**
   * A batch ended in which a PDF page was OCR'd (a file reported the `ocr` phase, so tesseract.js
   * and its files were loaded), whatever became of the file: the service worker stores them.
   */
  readonly onOcrUsed?: () => void;
}

export class IngestStore extends Store<IngestState> {
  private readonly files = new Map<string, { file: File; password?: string }>();
  private nextId = 1;
  /** The batches in flight, each with its own cancel. */
  private readonly runs = new Set<AbortController>();

  constructor(
    private readonly client: Client,
    private readonly options: IngestStoreOptions = {},
  ) {
    super({ jobs: [] });
  }

  get busy(): boolean {
    return this.runs.size > 0;
  }

  /** Sends files to the worker now, beside any batch in flight (the worker parses them in order). */
  add(files: readonly File[]): void {
    if (files.length === 0) return;
    const jobs = files.map((file): IngestJob => {
      const id = `f${this.nextId++}`;
      this.files.set(id, { file });
      return {
        id,
        name: file.name,
        size: file.size,
        status: 'waiting',
        phase: null,
        done: 0,
        total: 0,
        error: null,
        result: null,
        wrongPassword: false,
      };
    });
    this.set({ jobs: [...this.getState().jobs, ...jobs] });
    this.start(jobs.map((j) => j.id));
  }

  /** Retries a password-protected PDF with `password`. */
  submitPassword(jobId: string, password: string): void {
    const entry = this.files.get(jobId);
    const job = this.job(jobId);
    if (!entry || job?.status !== 'password') return;
    entry.password = password;
    this.patch(jobId, { status: 'waiting', error: null });
    this.start([jobId]);
  }

  /**
   * Stops adding files: every batch in flight is cancelled between steps (a file already stored
   * stays in the library, searchable by its words) and the files not yet sent are not sent.
   */
  cancel(): void {
    for (const run of this.runs) run.abort();
    const cancelled: EvidentErrorValue = { code: 'aborted', message: 'Cancelled: not added.' };
    this.set({
      jobs: this.getState().jobs.map((j) =>
        j.status === 'waiting' ? { ...j, status: 'cancelled', phase: null, error: cancelled } : j,
      ),
    });
  }

  /** Removes a finished job from the list. */
  dismiss(jobId: string): void {
    const job = this.job(jobId);
    if (!job || job.status === 'working' || job.status === 'waiting') return;
    this.files.delete(jobId);
    this.set({ jobs: this.getState().jobs.filter((j) => j.id !== jobId) });
  }

  /** Removes every job that is done or cancelled (failed ones stay until dismissed: their error is news). */
  clearDone(): void {
    const gone = (j: IngestJob): boolean => j.status === 'done' || j.status === 'cancelled';
    for (const j of this.getState().jobs) if (gone(j)) this.files.delete(j.id);
    this.set({ jobs: this.getState().jobs.filter((j) => !gone(j)) });
  }

  private job(id: string): IngestJob | undefined {
    return this.getState().jobs.find((j) => j.id === id);
  }

  private patch(id: string, patch: Partial<IngestJob>): void {
    this.set({ jobs: this.getState().jobs.map((j) => (j.id === id ? { ...j, ...patch } : j)) });
  }

  /** Sends the jobs `ids` as one batch; the library list is refreshed when it ends. */
  private start(ids: readonly string[]): void {
    const run = new AbortController();
    this.runs.add(run);
    void this.runBatch(ids, run)
      .then((sent) => sent && this.options.onLibraryChanged?.())
      .finally(() => this.runs.delete(run));
  }

  /** Reads the jobs' bytes and adds them; false when nothing was sent to the worker. */
  private async runBatch(ids: readonly string[], run: AbortController): Promise<boolean> {
    const inputs: FileInput[] = [];
    for (const id of ids) {
      const job = this.job(id);
      const entry = this.files.get(id);
      if (!job || !entry || job.status !== 'waiting') continue;
      // It stays 'waiting' until the worker reports its first step (files go one after another).
      this.patch(job.id, { phase: null, done: 0, total: 0, error: null });
      if (entry.file.size > MAX_FILE_BYTES) {
        this.fail(job.id, {
          code: 'file_too_large',
          message: `This file is ${Math.round(entry.file.size / (1024 * 1024))} MB; the limit is ${MAX_FILE_BYTES / (1024 * 1024)} MB.`,
        });
        continue;
      }
      try {
        inputs.push({
          fileId: job.id,
          name: entry.file.name,
          mimeType: entry.file.type,
          bytes: await entry.file.arrayBuffer(),
          ...(entry.password !== undefined ? { password: entry.password } : {}),
        });
      } catch (err) {
        this.fail(job.id, {
          code: 'invalid_input',
          message: `The browser could not read this file (${toErrorValue(err).message}).`,
        });
      }
    }
    // Cancelled while the bytes were read: its jobs are marked cancelled already; nothing is sent.
    if (inputs.length === 0 || run.signal.aborted) return false;
    const inFlight = new Set(inputs.map((i) => i.fileId));
    const stored = new Set<string>();
    let ocrUsed = false;
    try {
      const result = await this.client.addFiles(inputs, {
        signal: run.signal,
        onProgress: (p) => {
          if (p.phase === 'ocr') ocrUsed = true;
          // Progress travels on its own message port, so an event can arrive after the call's
          // result: a file whose outcome is in is not moved back to 'working'.
          if (!inFlight.has(p.fileId)) return;
          this.patch(p.fileId, {
            status: 'working',
            phase: p.phase,
            done: p.done,
            total: p.total,
            ...(p.docId ? { docId: p.docId } : {}),
          });
          if ((p.phase === 'index' || p.phase === 'done') && !stored.has(p.fileId)) {
            stored.add(p.fileId);
            this.options.onLibraryChanged?.();
          }
        },
      });
      for (const outcome of result.files) {
        inFlight.delete(outcome.fileId);
        if (outcome.ok) {
          this.patch(outcome.fileId, {
            status: 'done',
            phase: 'done',
            result: outcome,
            error: null,
            docId: outcome.docId,
          });
        } else if (outcome.error.code === 'pdf_password_required' || outcome.error.code === 'pdf_wrong_password') {
          this.patch(outcome.fileId, {
            status: 'password',
            phase: null,
            error: outcome.error,
            wrongPassword: outcome.error.code === 'pdf_wrong_password',
          });
        } else {
          this.fail(outcome.fileId, outcome.error);
        }
      }
    } catch (err) {
      // The whole call failed (cancelled, or the worker crashed): every file of it is reported.
      const error = toErrorValue(err);
      for (const id of inFlight) {
        if (isAbort(err)) this.cancelled(id, stored.has(id));
        else if (error.code === 'worker_crashed') {
          // Its bytes wait in the library's ingest queue: the restarted worker adds it (the library list shows it).
          this.fail(id, {
            code: error.code,
            message: `${error.message} If the library is kept in this browser, adding it resumes once the worker has restarted.`,
          });
        } else this.fail(id, error);
      }
      inFlight.clear();
    } finally {
      // After the batch, not at its first OCR'd page: by then tesseract.js has fetched every file it needs.
      if (ocrUsed) this.options.onOcrUsed?.();
    }
    // A file the worker did not report on (it cannot happen): not left waiting forever.
    for (const id of inFlight) this.fail(id, { code: 'internal', message: 'The worker did not report on this file.' });
    return true;
  }

  private fail(id: string, error: EvidentErrorValue): void {
    this.patch(id, { status: 'failed', phase: null, error });
  }

  private cancelled(id: string, stored: boolean): void {
    this.patch(id, {
      status: 'cancelled',
      phase: null,
      error: {
        code: 'aborted',
        message: stored
          ? 'Cancelled after it was stored: it is in the library and searchable by its words; its remaining vectors are computed on the next start.'
          : 'Cancelled: not added.',
      },
    });
  }
}
