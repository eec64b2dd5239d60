/**
 * The page's state outside React: owns the worker client, opens the stored library, loads the
 * model, adds documents, runs searches, and turns worker crashes into notices and a restart.
 * Components read it through `useSyncExternalStore` (snapshots are immutable; a new object on
 * every change).
 *
 * The library lives in IndexedDB (the worker loads it at start): it is searchable by its words
 * as soon as it is read, before the model loads. The demo documents are added once, on the first
 * run (a `demoInstalled` flag is stored with them), never again — not after a reload, a worker
 * restart, or the user deleting them.
 *
 * Created once in `main.tsx`, outside React, so StrictMode's double effects never start two
 * workers.
 */
import type { EvidentErrorValue } from '../core/errors';
import { storageUsage } from '../storage/usage';
import type {
  AddDocumentInput,
  AddDocumentsResult,
  BatchProgress,
  EmbedderInfo,
  EmbeddingStatus,
  IngestProgress,
  LibraryDocument,
  LibraryInfo,
  LoadProgress,
  SearchResponse,
  WorkerStatus,
} from '../worker/api';
import { CLOSED_FOR_UPGRADE } from '../storage/tabs';
import { checkLibrary, lostLibraryMessage, pageStorage, readMarker, writeMarker } from './library-marker';
import { isAbort, type ClientEvent, type WorkerClient } from './worker-client';

export type ModelState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'loading'; readonly progress: LoadProgress }
  | { readonly phase: 'ready'; readonly info: EmbedderInfo }
  | { readonly phase: 'error'; readonly error: EvidentErrorValue };

export type LibraryState =
  | { readonly phase: 'idle' }
  | {
      readonly phase: 'ingesting';
      readonly title: string;
      readonly index: number;
      readonly count: number;
      readonly progress: IngestProgress | null;
      /** The library as stored so far: a document is listed (and searchable by its words) once stored, before its vectors. */
      readonly documents?: readonly LibraryDocument[];
    }
  | {
      readonly phase: 'ready';
      readonly documents: readonly LibraryDocument[];
      readonly chunks: number;
      readonly embedMs: number;
      /** Where the documents came from this time: read from storage, or ingested now. */
      readonly source?: 'stored' | 'ingested';
      /** How the worker loaded the stored library at start (ms). */
      readonly timings?: LibraryInfo['timings'];
      /** Whether the BM25 index came from storage or was rebuilt from the chunks at start. */
      readonly lexical?: LibraryInfo['lexical'];
      /** False when the browser does not keep the library (IndexedDB unavailable). */
      readonly persistent?: boolean;
    }
  | { readonly phase: 'error'; readonly error: EvidentErrorValue };

export type SearchState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'searching'; readonly query: string }
  | { readonly phase: 'done'; readonly response: SearchResponse; readonly totalMs: number }
  | { readonly phase: 'error'; readonly query: string; readonly error: EvidentErrorValue };

export interface Notice {
  readonly id: number;
  readonly kind: 'info' | 'error';
  readonly text: string;
}

export interface SessionState {
  readonly model: ModelState;
  readonly library: LibraryState;
  readonly search: SearchState;
  readonly notices: readonly Notice[];
  /** `crossOriginIsolated` of the page (the worker reports its own in the backend info). */
  readonly pageIsolated: boolean;
  /** The worker's background embedding: the document in flight and the measured rate. */
  readonly embedding: EmbeddingStatus;
  /** Documents whose removal was asked for and is not yet confirmed (already hidden from the list). */
  readonly removing: readonly string[];
}

/**
 * How often the document list is read again while vectors are being computed, so per-document
 * counts grow as batches land (a batch of 64 chunks takes ~2–3 s on 2 cores) and the estimate of
 * the time left follows the measured rate.
 */
export const VECTOR_POLL_MS = 1000;

/** True while any document still lacks vectors of the current model. */
export function vectorsPending(documents: readonly LibraryDocument[]): boolean {
  return documents.some((d) => d.vectors !== undefined && d.vectors < d.chunks);
}

type Client = Pick<
  WorkerClient,
  | 'loadEmbedder'
  | 'addDocument'
  | 'search'
  | 'status'
  | 'subscribe'
  | 'dispose'
  | 'openLibrary'
  | 'addDocuments'
  | 'resumeIngest'
  | 'fillVectors'
  | 'deleteDocument'
  | 'reloadLibrary'
>;

export class EvidentSession {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private startRun: AbortController | null = null;
  private searchRun: AbortController | null = null;
  private nextNoticeId = 1;
  private persistRequested = false;
  private readonly unsubscribe: () => void;
  private watching = false;
  private disposed = false;

  constructor(
    private readonly client: Client,
    private readonly documents: readonly AddDocumentInput[],
    pageIsolated = typeof crossOriginIsolated === 'boolean' ? crossOriginIsolated : false,
    /** Where the library marker is kept (`library-marker.ts`); null: no check. */
    private readonly markerStorage = pageStorage(),
  ) {
    this.state = {
      model: { phase: 'idle' },
      library: { phase: 'idle' },
      search: { phase: 'idle' },
      notices: [],
      pageIsolated,
      embedding: { docId: null, rate: null },
      removing: [],
    };
    this.unsubscribe = client.subscribe((e) => this.onClientEvent(e));
  }

  readonly getState = (): SessionState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Opens the stored library (searchable by its words at once), loads the model, resumes an
   * interrupted batch, adds the demo on the first run only, then completes missing vectors.
   * Restarts from scratch when called again.
   */
  async start(): Promise<void> {
    this.startRun?.abort();
    const run = new AbortController();
    this.startRun = run;
    const { signal } = run;
    this.update({
      model: { phase: 'loading', progress: { phase: 'download', loadedBytes: 0, totalBytes: 0 } },
      library: { phase: 'idle' },
    });
    let opened: Awaited<ReturnType<Client['openLibrary']>>;
    try {
      opened = await this.client.openLibrary();
      if (signal.aborted) return;
      if (!opened.persistent && opened.storageError) {
        this.notify('info', `Documents are kept for this tab only: ${opened.storageError.message}`);
      }
      // A library the browser cleared since the last visit is said so, not shown as a new one.
      const lost = lostLibraryMessage(
        checkLibrary(readMarker(this.markerStorage), {
          persistent: opened.persistent,
          documents: opened.documents.length,
          demoInstalled: opened.demoInstalled,
          skipped: opened.skipped.length,
        }),
      );
      if (lost) this.notify('error', lost);
      if (opened.documents.length > 0) this.ready(opened.documents, opened.chunks, 0, 'stored', opened);
    } catch (err) {
      if (!signal.aborted && !isAbort(err)) this.update({ library: { phase: 'error', error: errorValue(err) } });
      return;
    }
    try {
      const info = await this.client.loadEmbedder({
        signal,
        onProgress: (progress) => {
          if (!signal.aborted) this.update({ model: { phase: 'loading', progress } });
        },
      });
      if (signal.aborted) return;
      this.update({ model: { phase: 'ready', info } });
    } catch (err) {
      if (!signal.aborted && !isAbort(err)) this.update({ model: { phase: 'error', error: errorValue(err) } });
      return;
    }
    try {
      let embedMs = 0;
      let ingested = false;
      if (opened.queued > 0) {
        embedMs += this.reportBatch(await this.client.resumeIngest({ signal, onProgress: this.batchProgress(signal) }));
        ingested = true;
      }
      if (!opened.demoInstalled) {
        const have = new Set(opened.documents.map((d) => d.docId));
        const demo = this.documents.filter((d) => !have.has(d.docId));
        embedMs += this.reportBatch(
          await this.client.addDocuments(demo, { signal, installDemo: true, onProgress: this.batchProgress(signal) }),
        );
        ingested = true;
      }
      if (signal.aborted) return;
      const status = await this.client.status();
      if (signal.aborted) return;
      this.ready(status.documents, status.chunks, embedMs, ingested ? 'ingested' : 'stored', opened);
      if (status.documents.some((d) => d.vectors !== undefined && d.vectors < d.chunks)) {
        // Vectors of documents whose indexing was interrupted: search uses them as they arrive.
        await this.client.fillVectors({ signal });
        if (signal.aborted) return;
        const after = await this.client.status();
        if (!signal.aborted)
          this.ready(after.documents, after.chunks, embedMs, ingested ? 'ingested' : 'stored', opened);
      }
      if (status.documents.length > 0) void this.requestPersistence();
    } catch (err) {
      if (!signal.aborted && !isAbort(err)) this.update({ library: { phase: 'error', error: errorValue(err) } });
    }
  }

  /**
   * Removes a document with its chunks and vectors. It leaves the list at once; the worker
   * removes it from storage and cancels its embedding meanwhile (it never waits for one).
   */
  async deleteDocument(docId: string): Promise<void> {
    this.update({ removing: [...this.state.removing, docId] });
    this.applyDocuments(this.listed() ?? []);
    try {
      await this.client.deleteDocument(docId);
    } catch (err) {
      if (!isAbort(err)) this.notify('error', errorValue(err).message);
    } finally {
      this.update({ removing: this.state.removing.filter((id) => id !== docId) });
    }
    try {
      this.applyStatus(await this.client.status());
    } catch (err) {
      if (!isAbort(err)) this.notify('error', errorValue(err).message);
    }
  }

  /** Lists the worker's documents (less those being removed), with their vector counts and the embedding now. */
  private applyStatus(status: WorkerStatus): void {
    if (status.embedding) this.update({ embedding: status.embedding });
    this.applyEmbedder(status.embedder);
    this.applyDocuments(status.documents, status.chunks);
    if (vectorsPending(status.documents)) void this.watchVectors();
  }

  /** The model's facts as the worker has them now (its embedding workers start after it loads). */
  private applyEmbedder(info: EmbedderInfo | null): void {
    const model = this.state.model;
    if (info && model.phase === 'ready' && model.info.workers !== info.workers) {
      this.update({ model: { phase: 'ready', info } });
    }
  }

  private applyDocuments(all: readonly LibraryDocument[], chunks?: number): void {
    const removing = new Set(this.state.removing);
    const documents = all.filter((d) => !removing.has(d.docId));
    const total = chunks === undefined ? undefined : documents.reduce((s, d) => s + d.chunks, 0);
    const lib = this.state.library;
    if (lib.phase === 'ingesting') this.update({ library: { ...lib, documents } });
    else if (lib.phase === 'ready') {
      this.ready(documents, total ?? documents.reduce((s, d) => s + d.chunks, 0), lib.embedMs, lib.source);
    }
  }

  /**
   * Reads the document list every `VECTOR_POLL_MS` while any document lacks vectors: the counts
   * grow as the worker's batches land, whoever started the embedding (files, the demo, a resume).
   */
  private async watchVectors(): Promise<void> {
    if (this.watching || this.disposed) return;
    this.watching = true;
    try {
      for (;;) {
        await new Promise((r) => setTimeout(r, VECTOR_POLL_MS));
        // No model: nothing is being embedded (the model's error is shown where it belongs).
        if (this.disposed || this.state.model.phase === 'error') return;
        const status = await this.client.status();
        if (this.disposed) return;
        if (status.embedding) this.update({ embedding: status.embedding });
        this.applyEmbedder(status.embedder);
        this.applyDocuments(status.documents, status.chunks);
        if (!vectorsPending(status.documents)) {
          this.update({ embedding: { docId: null, rate: status.embedding?.rate ?? null } });
          return;
        }
      }
    } catch {
      // A crashed worker restarts the session, which reads the list again.
    } finally {
      this.watching = false;
    }
  }

  /**
   * Reads the document list again after documents were added or imported outside the session
   * (files through the parsers: `IngestStore`; an import). During a batch it refreshes only the
   * listed documents.
   */
  async refreshLibrary(): Promise<void> {
    try {
      const status = await this.client.status();
      const lib = this.state.library;
      if (lib.phase !== 'ingesting' && lib.phase !== 'ready') return;
      this.applyStatus(status);
      if (status.documents.length > 0) void this.requestPersistence();
    } catch (err) {
      if (!isAbort(err)) this.notify('error', errorValue(err).message);
    }
  }

  private ready(
    documents: readonly LibraryDocument[],
    chunks: number,
    embedMs: number,
    source?: 'stored' | 'ingested',
    opened?: Pick<LibraryInfo, 'persistent' | 'timings' | 'lexical'>,
  ): void {
    const lib = this.state.library;
    const persistent = opened?.persistent ?? (lib.phase === 'ready' ? lib.persistent : undefined);
    if (persistent) writeMarker(this.markerStorage, { documents: documents.length, chunks });
    const timings = opened?.timings ?? (lib.phase === 'ready' ? lib.timings : undefined);
    const lexical = opened?.lexical ?? (lib.phase === 'ready' ? lib.lexical : undefined);
    this.update({
      library: {
        phase: 'ready',
        documents,
        chunks,
        embedMs,
        ...(source ? { source } : {}),
        ...(timings ? { timings } : {}),
        ...(lexical ? { lexical } : {}),
        ...(persistent !== undefined ? { persistent } : {}),
      },
    });
    if (vectorsPending(documents)) void this.watchVectors();
  }

  private batchProgress(signal: AbortSignal) {
    return (p: BatchProgress): void => {
      if (signal.aborted) return;
      const documents = this.listed();
      this.update({
        library: {
          phase: 'ingesting',
          title: p.title,
          index: p.index,
          count: p.count,
          progress: p,
          ...(documents ? { documents } : {}),
        },
      });
      // Stored and indexed lexically: list it now, while its vectors are computed.
      if (p.phase === 'index') void this.refreshListed(signal);
    };
  }

  private listed(): readonly LibraryDocument[] | undefined {
    const lib = this.state.library;
    return lib.phase === 'ready' || lib.phase === 'ingesting' ? lib.documents : undefined;
  }

  private async refreshListed(signal: AbortSignal): Promise<void> {
    try {
      const { documents } = await this.client.status();
      const lib = this.state.library;
      if (!signal.aborted && lib.phase === 'ingesting') this.update({ library: { ...lib, documents } });
    } catch {
      // The list refreshes when the batch ends.
    }
  }

  /** Notices for files a batch could not add; returns the batch's embedding time. */
  private reportBatch(result: AddDocumentsResult): number {
    for (const f of result.failed) this.notify('error', `"${f.title}" was not added: ${f.error.message}`);
    return result.added.reduce((s, r) => s + r.embedMs, 0);
  }

  /** Asks the browser to keep the library under storage pressure (a page-only API; once). */
  private async requestPersistence(): Promise<void> {
    if (this.persistRequested) return;
    this.persistRequested = true;
    await storageUsage({ requestPersist: true }).catch(() => undefined);
  }

  /** Runs a search; a newer search cancels the one in flight. An empty query clears the results. */
  async search(query: string): Promise<void> {
    this.searchRun?.abort();
    const trimmed = query.trim();
    if (trimmed === '') {
      this.searchRun = null;
      this.update({ search: { phase: 'idle' } });
      return;
    }
    const run = new AbortController();
    this.searchRun = run;
    this.update({ search: { phase: 'searching', query: trimmed } });
    const t0 = performance.now();
    try {
      const response = await this.client.search(trimmed, { signal: run.signal, k: 10 });
      if (!run.signal.aborted) this.update({ search: { phase: 'done', response, totalMs: performance.now() - t0 } });
    } catch (err) {
      if (!run.signal.aborted && !isAbort(err)) {
        this.update({ search: { phase: 'error', query: trimmed, error: errorValue(err) } });
      }
    }
  }

  dismissNotice(id: number): void {
    this.update({ notices: this.state.notices.filter((n) => n.id !== id) });
  }

  dispose(): void {
    this.disposed = true;
    this.startRun?.abort();
    this.searchRun?.abort();
    this.unsubscribe();
    this.client.dispose();
    this.listeners.clear();
  }

  private onClientEvent(e: ClientEvent): void {
    switch (e.type) {
      case 'crashed':
        this.notify('error', `${e.error.message} Restarting it…`);
        return;
      case 'restarted':
        // The new worker reads the library from storage again and reloads the model.
        this.notify('info', 'The background worker was restarted. Reloading the model and the library.');
        this.update({ search: { phase: 'idle' } });
        void this.start();
        return;
      case 'failed':
        this.notify('error', e.error.message);
        this.update({ model: { phase: 'error', error: e.error } });
        return;
      case 'library-changed':
        void this.syncWithOtherTab();
        return;
      case 'library-closed':
        this.notifyOnce('error', CLOSED_FOR_UPGRADE);
        return;
    }
  }

  /** Another tab changed the library: read it from storage again and list it (src/storage/tabs.ts). */
  private async syncWithOtherTab(): Promise<void> {
    try {
      await this.client.reloadLibrary();
      await this.refreshLibrary();
      this.notifyOnce('info', 'The library was changed in another tab of Evident; this tab shows the change.');
    } catch (err) {
      if (!isAbort(err)) this.notifyOnce('error', errorValue(err).message);
    }
  }

  /** A notice not already shown (repeated changes from another tab say it once). */
  private notifyOnce(kind: Notice['kind'], text: string): void {
    if (!this.state.notices.some((n) => n.kind === kind && n.text === text)) this.notify(kind, text);
  }

  private notify(kind: Notice['kind'], text: string): void {
    this.update({ notices: [...this.state.notices, { id: this.nextNoticeId++, kind, text }] });
  }

  private update(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of [...this.listeners]) l();
  }
}

function errorValue(err: unknown): EvidentErrorValue {
  if (typeof err === 'object' && err !== null && 'code' in err && 'message' in err) {
    return { code: (err as EvidentErrorValue).code, message: (err as EvidentErrorValue).message };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}
