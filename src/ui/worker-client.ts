/**
 * UI side of the worker RPC: wraps `Remote<EvidentWorkerApi>` so that
 *
 * - every long call takes an `AbortSignal` (see `api.ts` for the id + `abort(id)` channel);
 *   on abort the returned promise rejects at once with `EvidentError('aborted')`, a quiet
 *   outcome the UI should not show as an error;
 * - `Result` values from the worker become resolved values or `EvidentError`s with their code;
 * - progress callbacks are proxied (`Comlink.proxy`); the worker releases them when its call ends.
 *   A callback is never invoked after its call settled (result, error, abort or crash): progress
 *   travels on the proxy's own MessagePort and the result on the worker's, so an event the worker
 *   sent before its result may arrive after it, and would put a finished task back in progress;
 * - a crashed or hung worker is detected (the worker's `error` event, or a heartbeat `ping`
 *   unanswered for `heartbeatTimeoutMs`), terminated and restarted. Calls in flight reject with
 *   `worker_crashed`, and listeners get `{ type: 'crashed' }` then `{ type: 'restarted' }`:
 *   the new worker is empty, so the UI reloads the model and re-ingests its documents. After
 *   `maxRestarts` crashes within `restartWindowMs` it gives up (`{ type: 'failed' }`).
 */
import * as Comlink from 'comlink';
import { DB_VERSION } from '../storage/schema';
import { LIBRARY_CHANNEL, parseChannelMessage, type LibraryChannelMessage } from '../storage/tabs';
import { EvidentError, type EvidentErrorValue } from '../core/errors';
import type { DocumentMetaPatch } from '../core/library-format';
import type {
  AddDocumentInput,
  AddDocumentResult,
  AddDocumentsResult,
  BatchProgress,
  EmbedderInfo,
  EvidentWorkerApi,
  FillVectorsResult,
  ImportLibraryResult,
  IngestProgress,
  LibraryDocument,
  LibraryInfo,
  LoadProgress,
  Result,
  SearchOptions,
  SearchResponse,
  OriginalFile,
  StorageUsageInfo,
  WorkerStatus,
} from '../worker/api';
import type {
  AddFilesResult,
  AppSettings,
  AskProgress,
  AskResult,
  DocumentView,
  FeedbackInput,
  FeedbackResult,
  FileInput,
  FileProgress,
  ReadDocumentOptions,
  SettingsPatch,
} from '../worker/ask-api';
import type {
  LoadProfileOptions,
  ModelStatusReport,
  ProfileLoadProgress,
  ProfileLoadResult,
} from '../worker/models-api';
import type {
  BenchmarkConfigName,
  BenchmarkDatasetInput,
  BenchmarkProgress,
  BenchmarkResult,
} from '../worker/benchmark-api';
import type { ProfileName } from '../models/manifest';

/** The parts of `Worker` the client uses (a fake in tests). */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

export type ClientEvent =
  | { readonly type: 'crashed'; readonly error: EvidentErrorValue }
  | { readonly type: 'restarted'; readonly generation: number }
  | { readonly type: 'failed'; readonly error: EvidentErrorValue }
  /** Another tab changed the library (`src/storage/tabs.ts`). */
  | { readonly type: 'library-changed' }
  /** A newer Evident in another tab upgraded the database: this tab must reload. */
  | { readonly type: 'library-closed' };

export interface WorkerClientOptions {
  /** Creates the worker; default: the app's module worker `src/worker/worker.ts`. */
  readonly createWorker: () => WorkerLike;
  /** How often to ping the worker. Default 5 s. */
  readonly heartbeatMs: number;
  /** A ping unanswered this long means the worker hung or died. Default 30 s: model init and a large embedding batch are synchronous steps that delay pings. */
  readonly heartbeatTimeoutMs: number;
  /** Give up after this many crashes within `restartWindowMs`. Default 3. */
  readonly maxRestarts: number;
  readonly restartWindowMs: number;
}

export interface CallSignal {
  readonly signal?: AbortSignal;
}

export function createAppWorker(): WorkerLike {
  // Literal `new Worker(new URL(...), { type: 'module' })`: Vite bundles the worker from this.
  return new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: 'evident' });
}

export const DEFAULT_CLIENT_OPTIONS: Readonly<WorkerClientOptions> = Object.freeze({
  createWorker: createAppWorker,
  heartbeatMs: 5_000,
  heartbeatTimeoutMs: 30_000,
  maxRestarts: 3,
  restartWindowMs: 60_000,
});

interface Pending {
  reject(err: EvidentError): void;
}

/**
 * Hands a call's progress callback to the worker: by reference (`Comlink.proxy`; the worker
 * releases it when its call ends), and closed once the call settled.
 */
type ProgressGate = <P>(
  onProgress: ((p: P) => void) | undefined,
) => (((p: P) => void) & Comlink.ProxyMarked) | undefined;

export class WorkerClient {
  private readonly options: Readonly<WorkerClientOptions>;
  private worker: WorkerLike | null = null;
  private remote: Comlink.Remote<EvidentWorkerApi> | null = null;
  private generationValue = 0;
  private readonly pending = new Set<Pending>();
  private readonly listeners = new Set<(e: ClientEvent) => void>();
  private readonly crashes: number[] = [];
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private pingSentAt: number | null = null;
  private nextCallId = 1;
  private disposed = false;
  private failed: EvidentErrorValue | null = null;
  private readonly onWorkerError = (event: Event): void => {
    const message = (event as ErrorEvent).message || 'the worker script failed';
    event.preventDefault?.();
    this.crash({ code: 'worker_crashed', message: `The background worker crashed (${message}).` });
  };

  /** The other tabs of the app (null where there is no BroadcastChannel: Node, old browsers). */
  private readonly channel: BroadcastChannel | null =
    typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(LIBRARY_CHANNEL);

  constructor(options: Partial<WorkerClientOptions> = {}) {
    this.options = Object.freeze({ ...DEFAULT_CLIENT_OPTIONS, ...options });
    if (this.channel) {
      this.channel.onmessage = (e: MessageEvent) => {
        const m = parseChannelMessage(e.data);
        if (m?.type === 'changed') this.emit({ type: 'library-changed' });
        // Only a worker of this page's schema version was closed by the upgrade (a newer tab's is fine).
        else if (m?.type === 'db-closed' && m.version === DB_VERSION) this.emit({ type: 'library-closed' });
      };
    }
    this.start();
  }

  /** A call that may write the library: the other tabs are told when it ends (done, failed or cancelled, some of it may be stored). */
  private writing<T>(call: Promise<T>): Promise<T> {
    const announce = (): void => {
      try {
        this.channel?.postMessage({ type: 'changed' } satisfies LibraryChannelMessage);
      } catch {
        // Closed (disposed).
      }
    };
    call.then(announce, announce);
    return call;
  }

  /** Reads the library from storage again, after another tab changed it. */
  reloadLibrary(): Promise<Pick<LibraryInfo, 'documents' | 'chunks' | 'vectors'>> {
    return this.call(undefined, (api) => api.reloadLibrary());
  }

  /** Increments on every restart; 1 for the first worker. */
  get generation(): number {
    return this.generationValue;
  }

  subscribe(listener: (e: ClientEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  loadEmbedder(opts: CallSignal & { onProgress?: (p: LoadProgress) => void } = {}): Promise<EmbedderInfo> {
    return this.call(opts.signal, (api, callId, progress) => api.loadEmbedder({ callId }, progress(opts.onProgress)));
  }

  addDocument(
    input: AddDocumentInput,
    opts: CallSignal & { onProgress?: (p: IngestProgress) => void } = {},
  ): Promise<AddDocumentResult> {
    return this.writing(
      this.call(opts.signal, (api, callId, progress) => api.addDocument(input, { callId }, progress(opts.onProgress))),
    );
  }

  search(query: string, opts: CallSignal & Omit<SearchOptions, 'callId'> = {}): Promise<SearchResponse> {
    const { signal, ...rest } = opts;
    return this.call(signal, (api, callId) => api.search(query, { ...rest, callId }));
  }

  /** Row-major `texts.length × dim` embeddings; the buffer is transferred from the worker. */
  embed(texts: readonly string[], opts: CallSignal = {}): Promise<Float32Array> {
    return this.call(opts.signal, (api, callId) => api.embed(texts, { callId }));
  }

  status(): Promise<WorkerStatus> {
    return this.call(undefined, async (api) => ({ ok: true, value: await api.status() }) as const);
  }

  // ---- Library persistence ----

  /** The library the worker loaded from IndexedDB at start. */
  openLibrary(): Promise<LibraryInfo> {
    return this.call(undefined, (api) => api.openLibrary());
  }

  addDocuments(
    inputs: readonly AddDocumentInput[],
    opts: CallSignal & { onProgress?: (p: BatchProgress) => void; installDemo?: boolean } = {},
  ): Promise<AddDocumentsResult> {
    return this.writing(
      this.call(opts.signal, (api, callId, progress) =>
        api.addDocuments(inputs, { callId, installDemo: opts.installDemo }, progress(opts.onProgress)),
      ),
    );
  }

  resumeIngest(opts: CallSignal & { onProgress?: (p: BatchProgress) => void } = {}): Promise<AddDocumentsResult> {
    return this.writing(
      this.call(opts.signal, (api, callId, progress) => api.resumeIngest({ callId }, progress(opts.onProgress))),
    );
  }

  fillVectors(opts: CallSignal & { onProgress?: (p: IngestProgress) => void } = {}): Promise<FillVectorsResult> {
    return this.writing(
      this.call(opts.signal, (api, callId, progress) => api.fillVectors({ callId }, progress(opts.onProgress))),
    );
  }

  listDocuments(): Promise<LibraryDocument[]> {
    return this.call(undefined, (api) => api.listDocuments());
  }

  deleteDocument(docId: string): Promise<boolean> {
    return this.writing(this.call(undefined, (api) => api.deleteDocument(docId)));
  }

  updateDocumentMeta(docId: string, patch: DocumentMetaPatch): Promise<LibraryDocument> {
    return this.writing(this.call(undefined, (api) => api.updateDocumentMeta(docId, patch)));
  }

  /** The library as one export file (transferred from the worker). */
  exportLibrary(opts: CallSignal & { passphrase?: string } = {}): Promise<Uint8Array> {
    return this.call(opts.signal, (api, callId) => api.exportLibrary({ callId, passphrase: opts.passphrase }));
  }

  importLibrary(
    bytes: Uint8Array,
    opts: CallSignal & { mode?: 'merge' | 'replace'; passphrase?: string } = {},
  ): Promise<ImportLibraryResult> {
    return this.writing(
      this.call(opts.signal, (api, callId) =>
        api.importLibrary(bytes, { callId, mode: opts.mode, passphrase: opts.passphrase }),
      ),
    );
  }

  storageUsage(): Promise<StorageUsageInfo> {
    return this.call(undefined, (api) => api.storageUsage());
  }

  /** A PDF's stored bytes and page ranges (the page view); null when the document has none. */
  readOriginal(docId: string): Promise<OriginalFile | null> {
    return this.call(undefined, (api) => api.readOriginal(docId));
  }

  // ---- Ask, feedback, files, documents, settings (ask-api.ts) ----

  ask(question: string, opts: CallSignal & { onProgress?: (p: AskProgress) => void } = {}): Promise<AskResult> {
    return this.call(opts.signal, (api, callId, progress) => api.ask(question, { callId }, progress(opts.onProgress)));
  }

  feedback(input: FeedbackInput): Promise<FeedbackResult> {
    return this.call(undefined, (api) => api.feedback(input));
  }

  /** Adds files through the parsers. Their buffers are transferred: `files[i].bytes` is detached afterwards. */
  addFiles(
    files: readonly FileInput[],
    opts: CallSignal & { onProgress?: (p: FileProgress) => void } = {},
  ): Promise<AddFilesResult> {
    const buffers = files.map((f) => f.bytes);
    return this.writing(
      this.call(opts.signal, (api, callId, progress) =>
        api.addFiles(Comlink.transfer(files, buffers), { callId }, progress(opts.onProgress)),
      ),
    );
  }

  readDocument(docId: string, options: ReadDocumentOptions = {}): Promise<DocumentView> {
    return this.call(undefined, (api) => api.readDocument(docId, options));
  }

  getSettings(): Promise<AppSettings> {
    return this.call(undefined, (api) => api.getSettings());
  }

  updateSettings(patch: SettingsPatch): Promise<AppSettings> {
    return this.call(undefined, (api) => api.updateSettings(patch));
  }

  resetSettings(): Promise<AppSettings> {
    return this.call(undefined, (api) => api.resetSettings());
  }

  loadProfile(
    profile: ProfileName,
    opts: CallSignal & Omit<LoadProfileOptions, 'callId'> & { onProgress?: (p: ProfileLoadProgress) => void },
  ): Promise<ProfileLoadResult> {
    const { signal, onProgress, ...rest } = opts;
    return this.call(signal, (api, callId, progress) =>
      api.loadProfile(profile, { ...rest, callId }, progress(onProgress)),
    );
  }

  /** Releases the loaded profile's models (the roles fall back to their model-free methods). */
  disposeProfile(): Promise<null> {
    return this.call(undefined, async (api) => api.disposeProfile());
  }

  /** The loaded profile, the library's re-embedding and the devices (cheap: Settings polls it). */
  modelStatus(): Promise<ModelStatusReport> {
    return this.call(undefined, (api) => api.modelStatus());
  }

  // ---- Benchmark (benchmark-api.ts) ----

  /** Evaluates retrieval configurations on a BEIR dataset in the worker (its own indexes; the library is untouched). */
  runBenchmark(
    dataset: BenchmarkDatasetInput,
    opts: CallSignal & {
      configs: readonly BenchmarkConfigName[];
      depth?: number;
      onProgress?: (p: BenchmarkProgress) => void;
    },
  ): Promise<BenchmarkResult> {
    const { signal, onProgress, ...rest } = opts;
    return this.call(signal, (api, callId, progress) =>
      api.runBenchmark(dataset, { ...rest, callId }, progress(onProgress)),
    );
  }

  /** Stops the heartbeat and terminates the worker; calls in flight reject with `aborted`. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.channel?.close();
    this.stop(new EvidentError('aborted', 'The client was disposed.'));
  }

  private start(): void {
    this.generationValue++;
    const worker = this.options.createWorker();
    worker.addEventListener('error', this.onWorkerError);
    this.worker = worker;
    this.remote = Comlink.wrap<EvidentWorkerApi>(worker);
    this.pingSentAt = null;
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
  }

  private stop(reason: EvidentError): void {
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.worker) {
      this.worker.removeEventListener('error', this.onWorkerError);
      this.worker.terminate();
    }
    this.worker = null;
    this.remote = null;
    for (const p of [...this.pending]) p.reject(reason);
    this.pending.clear();
  }

  private beat(): void {
    const remote = this.remote;
    if (!remote) return;
    const now = Date.now();
    if (this.pingSentAt !== null) {
      if (now - this.pingSentAt > this.options.heartbeatTimeoutMs) {
        this.crash({
          code: 'worker_crashed',
          message: `The background worker stopped responding for ${Math.round((now - this.pingSentAt) / 1000)} s.`,
        });
      }
      return;
    }
    this.pingSentAt = now;
    const generation = this.generationValue;
    remote.ping(now).then(
      () => {
        if (generation === this.generationValue) this.pingSentAt = null;
      },
      () => {},
    );
  }

  private crash(error: EvidentErrorValue): void {
    if (this.disposed || this.worker === null) return;
    this.stop(new EvidentError(error.code, error.message));
    this.emit({ type: 'crashed', error });
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length > 0 && now - (this.crashes[0] as number) > this.options.restartWindowMs)
      this.crashes.shift();
    if (this.crashes.length > this.options.maxRestarts) {
      this.failed = {
        code: 'worker_crashed',
        message: `The background worker crashed ${this.crashes.length} times in a row; reload the page to retry.`,
      };
      this.emit({ type: 'failed', error: this.failed });
      return;
    }
    this.start();
    this.emit({ type: 'restarted', generation: this.generationValue });
  }

  private emit(e: ClientEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        console.error('worker-client listener failed', err);
      }
    }
  }

  private call<T>(
    signal: AbortSignal | undefined,
    invoke: (api: Comlink.Remote<EvidentWorkerApi>, callId: string, progress: ProgressGate) => Promise<Result<T>>,
  ): Promise<T> {
    if (this.failed) return Promise.reject(new EvidentError(this.failed.code, this.failed.message));
    if (this.disposed || !this.remote) return Promise.reject(new EvidentError('aborted', 'The client was disposed.'));
    if (signal?.aborted) return Promise.reject(new EvidentError('aborted', 'Cancelled.'));
    const remote = this.remote;
    const callId = `c${this.generationValue}-${this.nextCallId++}`;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const entry: Pending = { reject: (err) => settle(() => reject(err)) };
      const onAbort = (): void => {
        // Tell the worker to stop; the UI does not wait for it to reach its next check.
        remote.abort(callId).catch(() => {});
        settle(() => reject(new EvidentError('aborted', 'Cancelled.')));
      };
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        this.pending.delete(entry);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      // The only way a call's progress reaches the UI: nothing is delivered once the call settled.
      const progress: ProgressGate = <P>(onProgress: ((p: P) => void) | undefined) =>
        onProgress &&
        Comlink.proxy((p: P) => {
          if (!settled) onProgress(p);
        });
      this.pending.add(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      invoke(remote, callId, progress).then(
        (result) =>
          settle(() =>
            result.ok ? resolve(result.value) : reject(new EvidentError(result.error.code, result.error.message)),
          ),
        (err: unknown) =>
          // Only transport failures land here: the worker returns errors as values.
          settle(() =>
            reject(
              new EvidentError('internal', `Worker call failed: ${err instanceof Error ? err.message : String(err)}`),
            ),
          ),
      );
    });
  }
}

/** True for the quiet outcome of a cancelled call. */
export function isAbort(err: unknown): boolean {
  return err instanceof EvidentError && err.code === 'aborted';
}
