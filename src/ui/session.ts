/**
 * The page's state outside React: owns the worker client, loads the model, ingests the library,
 * runs searches, and turns worker crashes into notices and a reload. Components read it through
 * `useSyncExternalStore` (snapshots are immutable; a new object on every change).
 *
 * Created once in `main.tsx`, outside React, so StrictMode's double effects never start two
 * workers.
 */
import type { EvidentErrorValue } from '../core/errors';
import type {
  AddDocumentInput,
  EmbedderInfo,
  IngestProgress,
  LibraryDocument,
  LoadProgress,
  SearchResponse,
} from '../worker/api';
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
    }
  | {
      readonly phase: 'ready';
      readonly documents: readonly LibraryDocument[];
      readonly chunks: number;
      readonly embedMs: number;
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
}

type Client = Pick<WorkerClient, 'loadEmbedder' | 'addDocument' | 'search' | 'status' | 'subscribe' | 'dispose'>;

export class EvidentSession {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private startRun: AbortController | null = null;
  private searchRun: AbortController | null = null;
  private nextNoticeId = 1;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly client: Client,
    private readonly documents: readonly AddDocumentInput[],
    pageIsolated = typeof crossOriginIsolated === 'boolean' ? crossOriginIsolated : false,
  ) {
    this.state = {
      model: { phase: 'idle' },
      library: { phase: 'idle' },
      search: { phase: 'idle' },
      notices: [],
      pageIsolated,
    };
    this.unsubscribe = client.subscribe((e) => this.onClientEvent(e));
  }

  readonly getState = (): SessionState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Loads the model, then ingests the library. Restarts from scratch when called again. */
  async start(): Promise<void> {
    this.startRun?.abort();
    const run = new AbortController();
    this.startRun = run;
    const { signal } = run;
    this.update({
      model: { phase: 'loading', progress: { phase: 'download', loadedBytes: 0, totalBytes: 0 } },
      library: { phase: 'idle' },
    });
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
      for (const [index, doc] of this.documents.entries()) {
        this.update({
          library: { phase: 'ingesting', title: doc.title, index, count: this.documents.length, progress: null },
        });
        const result = await this.client.addDocument(doc, {
          signal,
          onProgress: (progress) => {
            if (signal.aborted) return;
            this.update({
              library: { phase: 'ingesting', title: doc.title, index, count: this.documents.length, progress },
            });
          },
        });
        embedMs += result.embedMs;
      }
      const status = await this.client.status();
      if (signal.aborted) return;
      this.update({ library: { phase: 'ready', documents: status.documents, chunks: status.chunks, embedMs } });
    } catch (err) {
      if (!signal.aborted && !isAbort(err)) this.update({ library: { phase: 'error', error: errorValue(err) } });
    }
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
        // The new worker holds no model and no documents: load and ingest again.
        this.notify('info', 'The background worker was restarted. Reloading the model and the library.');
        this.update({ search: { phase: 'idle' } });
        void this.start();
        return;
      case 'failed':
        this.notify('error', e.error.message);
        this.update({ model: { phase: 'error', error: e.error } });
        return;
    }
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
