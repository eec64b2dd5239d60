/// <reference lib="webworker" />
/**
 * The Web Worker: owns the embedder and the in-memory library, and exposes `EvidentWorkerApi`
 * over Comlink. Every method returns a `Result` (errors are values); long methods register
 * their `callId` with the abort registry before their first await (see `api.ts`).
 */
import * as Comlink from 'comlink';
import { EvidentError } from '../core/errors';
import { Library, storageUsage } from '../storage/library';
import { DB_VERSION } from '../storage/schema';
import { CLOSED_FOR_UPGRADE, LIBRARY_CHANNEL, LIBRARY_WRITE_LOCK, type LibraryChannelMessage } from '../storage/tabs';
import { AbortRegistry } from './abort-registry';
import type {
  CallOptions,
  EmbedderInfo,
  EvidentWorkerApi,
  LibraryInfo,
  LoadProgress,
  ProgressCallback,
  Result,
} from './api';
import { Engine } from './engine';
import { loadUseLite } from './load-use';
import { throttle } from './model-files';
import { appApi } from './app-api';
import { benchmarkApi } from './benchmark';
import { resumeQueued, serialQueue } from './ingest-files';
import { hostedOcrAssets, type OcrAssets } from '../parse/pdf-ocr';
import { EmbedderSwitch } from './embedder-switch';
import { EmbedPool, embedWorkerCount } from './embed-pool';
import type { EmbedWorkerApi } from './embed-worker';
import { ProfileRuntime, defaultModelHost, modelDevices, modelsApi } from './models';
import { asResult, toErrorValue } from './result';
import { SettingsHost } from './settings';

declare const self: DedicatedWorkerGlobalScope;

const registry = new AbortRegistry();
const engine = new Engine();
let embedderInfo: EmbedderInfo | null = null;
let loading: Promise<EmbedderInfo> | null = null;

// ---- Library persistence: opened and loaded as the worker starts, before any call. ----
const workerStart = performance.now();
let library: Library | null = null;
/** Set when a newer Evident in another tab upgraded the database: this worker writes nothing more. */
let closedForUpgrade = false;
const libraryReady: Promise<LibraryInfo> = openStoredLibrary();

/**
 * Opens IndexedDB and loads documents and chunks (searchable lexically), then vectors. Without
 * IndexedDB (some private modes) the library lives in memory for this tab and says so.
 */
async function openStoredLibrary(): Promise<LibraryInfo> {
  const t0 = performance.now();
  let info: Omit<LibraryInfo, 'documents' | 'chunks' | 'vectors'>;
  try {
    library = await Library.open({
      onVersionChange: () => {
        // A newer Evident in another tab took the database: stop writing to it, and say so to
        // this tab's page (and any other tab of this version) through the library channel.
        library = null;
        closedForUpgrade = true;
        engine.attachStore(null);
        announceClosed();
      },
    });
    const openMs = performance.now() - t0;
    const [text, lexical] = await Promise.all([library.loadText(), library.loadLexical()]);
    const t1 = performance.now();
    engine.attachStore(library);
    const { skipped, lexical: lexicalSource } = engine.load(text.documents, text.chunks, lexical);
    const lexicalMs = performance.now() - t1;
    const searchableMs = performance.now() - workerStart;
    const t2 = performance.now();
    engine.loadVectors(await library.loadVectors());
    const vectorsMs = performance.now() - t2;
    info = {
      persistent: true,
      storageError: null,
      queued: text.queued,
      demoInstalled: text.settings.demoInstalled === true,
      skipped,
      lexical: lexicalSource,
      timings: {
        openMs,
        readMs: text.ms,
        lexicalMs,
        searchableMs,
        vectorsMs,
        loadedMs: performance.now() - workerStart,
      },
    };
  } catch (err) {
    library?.close();
    library = null;
    engine.attachStore(null);
    const zero = performance.now() - workerStart;
    info = {
      persistent: false,
      storageError: toErrorValue(err),
      queued: 0,
      demoInstalled: false,
      skipped: [],
      lexical: 'empty',
      timings: { openMs: zero, readMs: 0, lexicalMs: 0, searchableMs: zero, vectorsMs: 0, loadedMs: zero },
    };
  }
  return { ...info, ...libraryCounts() };
}

function libraryCounts(): Pick<LibraryInfo, 'documents' | 'chunks' | 'vectors'> {
  return { documents: engine.documents(), chunks: engine.chunkCount, vectors: engine.vectorCount };
}

/**
 * Changes to the library run one at a time (background vector filling runs beside them; the
 * engine checks versions) — in this tab through a promise chain, and across the tabs of this
 * origin through a Web Lock, so two tabs never interleave two ingests or an import.
 */
let writes: Promise<unknown> = Promise.resolve();
/** Files are parsed one at a time, whichever call added them (pdf.js runs in this thread). */
const parser = serialQueue();
function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const locked = (): Promise<T> => {
    if (closedForUpgrade) return Promise.reject(new EvidentError('internal', CLOSED_FOR_UPGRADE));
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    return locks ? (locks.request(LIBRARY_WRITE_LOCK, fn) as Promise<T>) : fn();
  };
  const next = writes.then(locked, locked);
  writes = next.catch(() => {});
  return next;
}

/** Reads the library from storage again (another tab changed it, or an import replaced it). */
async function reloadFromStorage(): Promise<void> {
  if (!library) return;
  settings.forget();
  const [text, lexical] = await Promise.all([library.loadText(), library.loadLexical()]);
  engine.load(text.documents, text.chunks, lexical);
  engine.loadVectors(await library.loadVectors(engine.embedder?.id));
}

function announceClosed(): void {
  try {
    const channel = new BroadcastChannel(LIBRARY_CHANNEL);
    channel.postMessage({ type: 'db-closed', version: DB_VERSION } satisfies LibraryChannelMessage);
    channel.close();
  } catch {
    // No BroadcastChannel: the next write says to reload.
  }
}

/** Progress events at most every 100 ms (plus the final one): postMessage per stream chunk floods the UI. */
const PROGRESS_INTERVAL_MS = 100;

/** Model and runtime files are served by this app under its base path, from its own origin. */
function assetUrl(path: string): URL {
  return new URL(`${import.meta.env.BASE_URL}${path}`, self.location.origin);
}

/**
 * Runs one long call: registers its abort id synchronously, converts errors to values, and
 * releases the caller's proxied progress callback when done.
 */
async function run<T, P>(
  options: CallOptions | undefined,
  onProgress: ProgressCallback<P> | undefined,
  fn: (signal: AbortSignal, progress: (p: P) => void) => Promise<T>,
): Promise<Result<T>> {
  let call: ReturnType<AbortRegistry['begin']>;
  try {
    call = registry.begin(options?.callId);
  } catch (err) {
    releaseCallback(onProgress);
    return asResult(() => Promise.reject(err));
  }
  const progress = (p: P): void => {
    // Fire and forget: a progress message must never make the work wait for the UI.
    if (onProgress) void Promise.resolve(onProgress(p)).catch(() => {});
  };
  try {
    return await asResult(() => fn(call.signal, progress));
  } finally {
    call.done();
    releaseCallback(onProgress);
  }
}

function releaseCallback(cb: unknown): void {
  // A Comlink callback proxy holds a MessagePort; release it so both ends can be collected.
  const release = (cb as { [Comlink.releaseProxy]?: () => void } | undefined)?.[Comlink.releaseProxy];
  if (typeof release === 'function') void Promise.resolve(release.call(cb)).catch(() => {});
}

async function loadEmbedder(signal: AbortSignal, progress: (p: LoadProgress) => void): Promise<EmbedderInfo> {
  if (embedderInfo) {
    progress({ phase: 'ready', loadedBytes: embedderInfo.bytes, totalBytes: embedderInfo.bytes });
    return embedderInfo;
  }
  // A second caller while loading shares the first load (and its cancellation).
  loading ??= (async () => {
    const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
    const { embedder, info } = await loadUseLite({
      modelUrl: assetUrl('models/use-lite/'),
      wasmUrl: assetUrl('vendor/tfjs/'),
      signal,
      onProgress: (p) => throttled(p.phase !== 'download' || p.loadedBytes === p.totalBytes, p),
    });
    // Passages embed on a pool of workers, one per core, started at the first long embedding
    // (embed-pool.ts); queries stay here. On WebGPU the GPU does the work: no pool.
    const pooled = info.backend.name === 'webgpu' ? embedder : new EmbedPool(embedder, { onDemand: () => startPool() });
    // The dense side's default; a loaded profile's embedder keeps it until released.
    await embedders.setDefault(pooled);
    embedderInfo = info;
    if (pooled instanceof EmbedPool) pool = pooled;
    return info;
  })().finally(() => {
    loading = null;
  });
  return loading;
}

/** The embedding pool of the default model (null on WebGPU, or before the model is loaded). */
let pool: EmbedPool | null = null;
let poolStart: Promise<void> | null = null;

/**
 * Starts the pool's workers (once): each loads the model from this origin (the HTTP cache or the
 * service worker by then); the pool embeds in this thread until all are ready. A worker that
 * cannot start leaves the embedding here, as before (the reason is logged, not shown: nothing is
 * lost but speed).
 */
function startPool(): void {
  const target = pool;
  if (!target || poolStart) return;
  const count = embedWorkerCount(typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : null);
  poolStart = (async () => {
    const started: { worker: Worker; remote: Comlink.Remote<EmbedWorkerApi> }[] = [];
    try {
      for (let i = 0; i < count; i++) {
        // Literal `new Worker(new URL(...))`: Vite bundles the embedding worker from it.
        const worker = new Worker(new URL('./embed-worker.ts', import.meta.url), {
          type: 'module',
          name: `evident-embed-${i + 1}`,
        });
        started.push({ worker, remote: Comlink.wrap<EmbedWorkerApi>(worker) });
      }
      const models = assetUrl('models/use-lite/').href;
      const wasm = assetUrl('vendor/tfjs/').href;
      // A worker whose script cannot load (offline before it was cached) fires `error`; Comlink
      // would wait for ever.
      const failed = (worker: Worker): Promise<never> =>
        new Promise((_resolve, reject) =>
          worker.addEventListener('error', (e) => reject(new Error(e.message || 'an embedding worker did not start'))),
        );
      const loaded = await Promise.all(
        started.map((w) => Promise.race([w.remote.load(models, wasm), failed(w.worker)])),
      );
      if (loaded.some((m) => m.id !== target.id || m.dim !== target.dim)) {
        throw new Error(`the embedding workers loaded another model (${loaded.map((m) => m.id).join(', ')})`);
      }
      target.attach(
        started.map(({ worker, remote }) => ({
          embed: (texts: readonly string[]) => remote.embed([...texts]),
          terminate: () => worker.terminate(),
        })),
      );
      if (embedderInfo && pool === target) embedderInfo = { ...embedderInfo, workers: target.size };
    } catch (err) {
      for (const { worker } of started) worker.terminate();
      console.warn(
        `Evident: passages are embedded in the main worker: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  })();
}

/** pdf.js's CMaps and standard fonts, self-hosted (`setup:assets` copies them). */
const pdfAssets = {
  cMapUrl: assetUrl('vendor/pdfjs/cmaps/').href,
  standardFontDataUrl: assetUrl('vendor/pdfjs/standard_fonts/').href,
};

/**
 * tesseract.js's worker, core and English data, self-hosted (`setup:assets` copies them to
 * `vendor/tesseract/`); loaded only when a PDF page without a text layer is met, and only while
 * the OCR setting is on.
 */
const ocr = async (): Promise<{ assets: OcrAssets; enabled: boolean }> => ({
  assets: hostedOcrAssets(assetUrl('').href),
  enabled: (await settings.values()).ocr,
});

/** The Transformers.js models of the loaded profile (cross-encoder, NLI and generator feed `ask`). */
const modelHost = defaultModelHost();
/** Which embedder gives the library its dense side (USE lite, or the profile's), and re-embedding. */
const embedders = new EmbedderSwitch(engine, async (id, options) =>
  library ? library.useVectorModel(id, options) : [],
);
const settings = new SettingsHost(() => library);
const profiles = new ProfileRuntime(modelHost, embedders, settings);
/**
 * The profile chosen last time is loaded again once the library (and its settings) is read.
 * Library writes and vector filling wait for it: they need to know which embedder gives the
 * dense side, and the profile's stored vectors are reused rather than re-embedded by USE lite.
 */
const profileRestored = libraryReady.then(() => profiles.restore());
void exclusive(() => profileRestored);

const api: EvidentWorkerApi = {
  ping: (nonce) => nonce,

  status: () => ({
    embedder: embedderInfo,
    documents: engine.documents(),
    chunks: engine.chunkCount,
    crossOriginIsolated: self.crossOriginIsolated,
    embedding: engine.embedding,
  }),

  loadEmbedder: (options, onProgress) => run(options, onProgress, loadEmbedder),

  addDocument: (input, options, onProgress) =>
    run(options, onProgress, (signal, progress) => {
      const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
      return engine.addDocument(input, {
        signal,
        onProgress: (p) => throttled(p.phase !== 'embed' || p.done === p.total, p),
      });
    }),

  search: (query, options) =>
    run(options, undefined, (signal) => {
      const { callId: _callId, ...rest } = options ?? {};
      return engine.search(query, { ...rest, signal });
    }),

  embed: async (texts, options) => {
    const result = await run(options, undefined, async (signal) => {
      const embedder = engine.embedder;
      if (!embedder) throw new EvidentError('model_not_found', 'Load the embedding model first.');
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
        throw new EvidentError('invalid_input', 'embed: expected an array of strings.');
      }
      const vectors = await embedder.embed(texts, { signal });
      // Transfer needs a plain ArrayBuffer the array owns whole (not a view into WASM memory).
      const owned =
        vectors.buffer instanceof ArrayBuffer &&
        vectors.byteOffset === 0 &&
        vectors.byteLength === vectors.buffer.byteLength;
      return owned ? vectors : vectors.slice();
    });
    // Transfer, do not copy: the worker does not keep the array.
    return result.ok ? Comlink.transfer(result, [result.value.buffer as ArrayBuffer]) : result;
  },

  abort: (callId) => registry.abort(callId),

  ...modelsApi(run, profiles),

  // The benchmark page: an evaluation on the user's BEIR dataset, on its own in-memory indexes.
  ...benchmarkApi(run, () => engine.embedder, PROGRESS_INTERVAL_MS),

  // Ask, feedback, files through the parsers, reading documents, settings (app-api.ts).
  ...appApi({
    run,
    engine,
    settings,
    ready: () => libraryReady,
    exclusive,
    parser,
    models: () => ({
      crossEncoder: modelHost.backends.crossEncoder,
      nli: modelHost.backends.nli,
      generator: modelHost.backends.generator,
      devices: modelDevices(modelHost.loaded, engine.embedder?.id ?? null, embedderInfo),
    }),
    embedder: () => embedderInfo,
    feedbackLog: () => library,
    queue: () => library,
    pdfAssets,
    ocr,
    throttle: (send) => throttle(PROGRESS_INTERVAL_MS, send),
  }),

  openLibrary: () =>
    asResult(async () => {
      const info = await libraryReady;
      return { ...info, ...libraryCounts() };
    }),

  addDocuments: (inputs, options, onProgress) =>
    run(options, onProgress, (signal, progress) => {
      const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
      return exclusive(async () => {
        await libraryReady;
        return engine.addDocuments(inputs, {
          signal,
          onProgress: (p) => throttled(p.phase !== 'embed' || p.done === p.total, p),
          settings: options?.installDemo ? { demoInstalled: true } : {},
        });
      });
    }),

  resumeIngest: (options, onProgress) =>
    run(options, onProgress, async (signal, progress) => {
      const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
      await libraryReady;
      // Files are parsed again from their queued bytes (pages and headings as the first time);
      // like `addFiles`, only the writes take the lock, so the resumed files' embedding blocks no one.
      return resumeQueued(engine, library, {
        signal,
        onProgress: (p) => throttled(p.phase !== 'embed' || p.done === p.total, p),
        ...pdfAssets,
        ocr,
        write: exclusive,
        parser,
      });
    }),

  fillVectors: (options, onProgress) =>
    run(options, onProgress, async (signal, progress) => {
      await profileRestored;
      const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
      return engine.fillVectors({ signal, onProgress: (p) => throttled(p.done === p.total, p) });
    }),

  listDocuments: () =>
    asResult(async () => {
      await libraryReady;
      return engine.documents();
    }),

  // Out of memory (search, ask, the embedding in flight) at once; out of storage under the write
  // lock, after a store in flight: a removal never waits for a parse or an embedding.
  deleteDocument: (docId) =>
    asResult(async () => {
      await libraryReady;
      return engine.deleteDocument(docId, { write: exclusive });
    }),

  updateDocumentMeta: (docId, patch) =>
    asResult(() =>
      exclusive(async () => {
        await libraryReady;
        return engine.updateMeta(docId, patch);
      }),
    ),

  readOriginal: async (docId) => {
    const result = await asResult(async () => {
      await libraryReady;
      if (typeof docId !== 'string') throw new EvidentError('invalid_input', 'readOriginal: docId must be a string.');
      const original = await library?.getOriginal(docId);
      return original ? { docId, bytes: original.bytes, pages: original.pages } : null;
    });
    return result.ok && result.value ? Comlink.transfer(result, [result.value.bytes.buffer as ArrayBuffer]) : result;
  },

  exportLibrary: async (options) => {
    const result = await run(options, undefined, async () => {
      await libraryReady;
      if (!library)
        throw new EvidentError('internal', 'The library is not stored in this browser, so it cannot be exported.');
      return library.exportLibrary({ passphrase: options?.passphrase });
    });
    return result.ok ? Comlink.transfer(result, [result.value.buffer as ArrayBuffer]) : result;
  },

  importLibrary: (bytes, options) =>
    run(options, undefined, () =>
      exclusive(async () => {
        await libraryReady;
        if (!library)
          throw new EvidentError(
            'internal',
            'The library cannot be stored in this browser, so nothing can be imported.',
          );
        const summary = await library.importLibrary(bytes, { mode: options?.mode, passphrase: options?.passphrase });
        // Reload from storage: the import replaced documents wholesale.
        await reloadFromStorage();
        return summary;
      }),
    ),

  reloadLibrary: () =>
    asResult(() =>
      exclusive(async () => {
        await libraryReady;
        await reloadFromStorage();
        return libraryCounts();
      }),
    ),

  storageUsage: () => asResult(() => storageUsage()),
};

Comlink.expose(api);
