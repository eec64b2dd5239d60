/**
 * Which embedder gives the library its dense side, and the background re-embedding when it
 * changes. The default is USE lite (loaded by `loadEmbedder`); a model profile with an embedder
 * (Enhanced, the tiny test profile) replaces it until the profile is released.
 *
 * Vectors are keyed by the embedder's id (`VectorRecord.embedderId`; the engine only ever
 * compares vectors of one id). Switching reuses the stored vectors of the new model, then embeds
 * the remaining chunks in the background, document by document, persisting as it goes. Until
 * every chunk has a vector of the new model, retrieval is by keywords only (`Engine.denseOnHold`):
 * a dense list over part of the library would favour whatever was re-embedded first, and the old
 * model's vectors cannot be searched with the new model's query vector. Storage keeps the vectors
 * of the active model and of the one before it (`Library.useVectorModel`), so switching back to
 * the previous model (Enhanced → Embedded → Enhanced) reuses its vectors at once and embeds only
 * the chunks that lack one (documents added or changed meanwhile).
 *
 * `use()` stops the running re-embed and waits for it before returning, so the caller can release
 * the models it used (`ModelHost.loadProfile` / `disposeProfile`) without a model call in flight.
 */
import type { EvidentErrorValue } from '../core/errors';
import type { VectorRecord } from '../core/library-format';
import type { Embedder } from '../models/embedder';
import type { FillVectorsResult, IngestProgress } from './api';
import type { ReembedStatus } from './models-api';
import { toErrorValue } from './result';

/** What the switch needs from the engine (`Engine` in `engine.ts`). */
export interface SwitchEngine {
  readonly embedder: Embedder | null;
  /** Embedder id of the vectors in the dense index (loaded at startup before any model is). */
  readonly vectorModel: string | null;
  readonly pendingVectors: number;
  readonly denseOnHold: boolean;
  switchEmbedder(embedder: Embedder | null, stored?: readonly VectorRecord[], options?: { hold?: boolean }): number;
  fillVectors(opts: { signal?: AbortSignal; onProgress?: (p: IngestProgress) => void }): Promise<FillVectorsResult>;
}

/**
 * The library's stored vectors (`Library.useVectorModel` in the worker): makes `embedderId` the
 * active model in storage (which keeps it and the previous model's vectors) and, unless `read`
 * is false, resolves with its stored segments. None when the library lives in memory.
 */
export type StoredVectors = (embedderId: string, options: { read: boolean }) => Promise<readonly VectorRecord[]>;

const IDLE: ReembedStatus = Object.freeze({
  state: 'idle',
  embedderId: null,
  done: 0,
  total: 0,
  ms: 0,
  error: null,
});

export class EmbedderSwitch {
  private defaultValue: Embedder | null = null;
  private profileValue: Embedder | null = null;
  /** A profile's embedder is being restored (startup): the default must not take the dense side. */
  private reserved = false;
  private job: { readonly controller: AbortController; readonly promise: Promise<void> } | null = null;
  private statusValue: ReembedStatus = IDLE;
  private startedAt = 0;

  /**
   * @param engine the library's engine
   * @param stored the stored vector segments (IndexedDB), or none when the library lives in memory
   */
  constructor(
    private readonly engine: SwitchEngine,
    private readonly stored: StoredVectors = async () => [],
  ) {}

  /** The embedder in use: the profile's, else the default. */
  get active(): Embedder | null {
    return this.profileValue ?? this.defaultValue;
  }

  /**
   * The default embedder (USE lite) is loaded; it takes over unless a profile's embedder is in
   * use. At startup this is the embedder the stored vectors were made with: chunks without one
   * (an interrupted ingest) are filled by the session's `fillVectors`, and search uses the
   * vectors present meanwhile, as before any profile existed.
   */
  async setDefault(embedder: Embedder): Promise<void> {
    this.defaultValue = embedder;
    if (!this.profileValue && !this.reserved) await this.switchTo(embedder, { fill: false, hold: false });
  }

  /**
   * The profile chosen last time is being loaded again (startup): until `use()` settles it, the
   * default embedder does not take the dense side, so the vectors loaded from storage (the
   * profile's, when it was active) are kept for it rather than replaced and re-embedded.
   */
  reserve(): void {
    this.reserved = true;
  }

  /** Nothing was restored after all: the default takes the dense side, as `setDefault` would have. */
  async unreserve(): Promise<void> {
    if (!this.reserved) return;
    this.reserved = false;
    if (!this.profileValue && this.defaultValue) {
      await this.switchTo(this.defaultValue, { fill: false, hold: false });
    }
  }

  /**
   * A profile's embedder takes over (or, with null, the default again). Stops and awaits the
   * running re-embed first; then, unless `fill` is false (a profile is about to load its own),
   * re-embeds in the background the chunks that lack vectors of the new model.
   */
  async use(embedder: Embedder | null, options: { fill?: boolean } = {}): Promise<void> {
    this.profileValue = embedder;
    this.reserved = false;
    await this.switchTo(embedder ?? this.defaultValue, { fill: options.fill !== false });
  }

  /** What search uses now, and the re-embedding's progress. */
  report(): { activeEmbedder: string | null; denseOnHold: boolean; reembed: ReembedStatus } {
    return {
      activeEmbedder: this.engine.embedder?.id ?? null,
      denseOnHold: this.engine.denseOnHold,
      reembed: this.status(),
    };
  }

  /** Stops the background re-embed and waits until no model call of it is in flight. */
  async stop(): Promise<void> {
    const job = this.job;
    if (!job) return;
    job.controller.abort();
    await job.promise;
  }

  status(): ReembedStatus {
    const s = this.statusValue;
    return s.state === 'running' ? { ...s, ms: performance.now() - this.startedAt } : s;
  }

  /** Resolves when the running re-embed (if any) has ended. */
  async settled(): Promise<ReembedStatus> {
    await this.job?.promise;
    return this.status();
  }

  private async switchTo(
    embedder: Embedder | null,
    { fill = true, hold = true }: { fill?: boolean; hold?: boolean } = {},
  ): Promise<void> {
    await this.stop();
    if (this.engine.embedder === embedder && embedder !== null) {
      // Same model: only finish what is missing (e.g. after an interrupted re-embed).
      if (fill && this.engine.pendingVectors > 0) this.start(embedder, this.engine.pendingVectors);
      return;
    }
    let stored: readonly VectorRecord[] = [];
    if (embedder) {
      try {
        // Startup loaded this model's vectors already (the restored profile's): not read twice.
        const read = this.engine.vectorModel !== embedder.id;
        stored = (await this.stored(embedder.id, { read })).filter((v) => v.embedderId === embedder.id);
      } catch {
        // Vectors are a cache of the chunks: without them everything is re-embedded.
      }
    }
    // Another switch may have happened while storage was read: the latest one wins.
    if (this.active !== embedder) return;
    const pending = this.engine.switchEmbedder(embedder, stored, { hold });
    if (embedder && pending > 0 && fill) this.start(embedder, pending);
    else if (embedder && pending === 0) this.statusValue = { ...IDLE, state: 'done', embedderId: embedder.id };
    else this.statusValue = IDLE;
  }

  private start(embedder: Embedder, total: number): void {
    const controller = new AbortController();
    this.startedAt = performance.now();
    this.statusValue = { state: 'running', embedderId: embedder.id, done: 0, total, ms: 0, error: null };
    const progress = (): void => {
      if (this.job?.controller !== controller) return;
      this.statusValue = {
        ...this.statusValue,
        done: Math.max(0, total - this.engine.pendingVectors),
        total,
      };
    };
    const promise = this.engine.fillVectors({ signal: controller.signal, onProgress: progress }).then(
      () => this.finish(controller, embedder, total, null),
      (err: unknown) => this.finish(controller, embedder, total, toErrorValue(err)),
    );
    this.job = { controller, promise };
  }

  private finish(controller: AbortController, embedder: Embedder, total: number, error: EvidentErrorValue | null) {
    if (this.job?.controller !== controller) return;
    this.job = null;
    const pending = this.engine.embedder === embedder ? this.engine.pendingVectors : total;
    const state = controller.signal.aborted || error?.code === 'aborted' ? 'cancelled' : error ? 'failed' : 'done';
    this.statusValue = {
      state: state === 'done' && pending > 0 ? 'failed' : state,
      embedderId: embedder.id,
      done: total - pending,
      total,
      ms: performance.now() - this.startedAt,
      error:
        state === 'done' && pending > 0
          ? { code: 'internal', message: `${pending} passages still have no vector of ${embedder.id}.` }
          : state === 'failed'
            ? error
            : null,
    };
  }
}
