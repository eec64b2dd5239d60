/**
 * Model profiles in the worker: `ModelHost` loads the Transformers.js models of a manifest profile
 * (role by role, with profile-wide byte progress) and keeps them for the pipeline; it is usable on
 * its own (the e2e test page drives it directly). `ProfileRuntime` serialises loads and releases,
 * hands the profile's embedder the library's dense side, and loads the profile the user chose
 * again when the worker starts. `modelsApi(run, runtime)` is the RPC part that `worker.ts`
 * spreads into its API.
 *
 * The Transformers.js code is imported on first use, so the embedded profile never downloads it.
 * Models and the onnxruntime-web files are served by this app under its base path:
 * `models/<id>/` and `vendor/ort/` (see `scripts/copy-assets.ts`).
 */
import manifestJson from '../../models/manifest.json';
import { EvidentError } from '../core/errors';
import type { CrossEncoder } from '../core/select/rerank';
import type { Embedder } from '../models/embedder';
import type { EntailmentModel } from '../models/interfaces';
import {
  MODEL_ROLES,
  downloadBytes,
  parseManifest,
  type Manifest,
  type ModelRole,
  type ModelSpec,
  type ProfileName,
} from '../models/manifest';
import type { TransformersGenerator } from '../models/transformers/generator';
import type { LoadOptions, LoadReport, ModelLoadProgress } from '../models/transformers/loader';
import type { OrtWasmPaths, RuntimeEnvReport } from '../models/transformers/env';
import { defaultWasmThreads, logicalCores, probeWebGpu } from '../models/runtime-probe';
import type { CallOptions, EmbedderInfo, ProgressCallback, Result } from './api';
import type { AskModelDevice } from './ask-api';
import type { EmbedderSwitch } from './embedder-switch';
import type {
  DeviceReport,
  LoadedRole,
  LoadProfileOptions,
  ModelsApi,
  ProfileLoadProgress,
  ProfileLoadResult,
  RestoreStatus,
} from './models-api';
import { throttle } from './model-files';
import { asResult, toErrorValue } from './result';

/** The models of the loaded profile; null where the role is model-free. */
export interface ModelBackends {
  readonly embedder: Embedder | null;
  readonly crossEncoder: CrossEncoder | null;
  readonly nli: EntailmentModel | null;
  /** With its context window (`contextTokens`), which the Ask budget is fitted to. */
  readonly generator: TransformersGenerator | null;
}

export interface ModelHostConfig {
  /** URL path of the self-hosted models folder, e.g. `/models/` (a path, not a URL). */
  readonly modelsPath: string;
  /** Self-hosted onnxruntime-web files. */
  readonly wasmPaths: OrtWasmPaths;
  /** Defaults to the bundled `models/manifest.json`. */
  readonly manifest?: Manifest;
  /** WASM threads when cross-origin isolated (default: up to 4, one core left to the page). */
  readonly numThreads?: number;
}

interface Releasable {
  dispose(): void;
}

const NO_BACKENDS: ModelBackends = Object.freeze({ embedder: null, crossEncoder: null, nli: null, generator: null });

/** Owns the Transformers.js models of one profile at a time. */
export class ModelHost {
  private readonly manifest: Manifest;
  private current: { result: ProfileLoadResult; backends: ModelBackends; releasables: Releasable[] } | null = null;
  private runtime: RuntimeEnvReport | null = null;

  constructor(private readonly config: ModelHostConfig) {
    this.manifest = config.manifest ?? parseManifest(manifestJson);
  }

  get backends(): ModelBackends {
    return this.current?.backends ?? NO_BACKENDS;
  }

  get loaded(): ProfileLoadResult | null {
    return this.current?.result ?? null;
  }

  /** True when the manifest has a profile of this name. */
  hasProfile(profile: string): profile is ProfileName {
    return Object.hasOwn(this.manifest.profiles, profile);
  }

  /**
   * Loads the profile's Transformers.js models in role order. On failure the models loaded so far
   * are released and the error names the role; the previous profile is released first either way.
   */
  async loadProfile(
    profile: ProfileName,
    options: Omit<LoadProfileOptions, 'callId'>,
    onProgress?: (p: ProfileLoadProgress) => void,
    signal?: AbortSignal,
  ): Promise<ProfileLoadResult> {
    const spec = this.manifest.profiles[profile];
    if (!spec)
      throw new EvidentError(
        'invalid_option',
        `Unknown profile "${profile}". Allowed: ${Object.keys(this.manifest.profiles).join(', ')}.`,
      );
    const wanted = options.roles ?? MODEL_ROLES;
    for (const r of wanted) {
      if (!MODEL_ROLES.includes(r))
        throw new EvidentError('invalid_option', `Unknown role "${r}". Allowed: ${MODEL_ROLES.join(', ')}.`);
    }
    this.disposeProfile();

    const { configureRuntime } = await import('../models/transformers/env');
    this.runtime = configureRuntime({
      localModelPath: this.config.modelsPath,
      allowRemote: options.allowRemote === true,
      wasmPaths: this.config.wasmPaths,
      ...(this.config.numThreads ? { numThreads: this.config.numThreads } : {}),
    });

    const plan = MODEL_ROLES.filter((r) => wanted.includes(r)).map((role) => ({ role, spec: spec.roles[role] }));
    const totalBytes = plan.reduce(
      (a, { spec: s }) => a + (s?.runtime === 'transformers' ? (downloadBytes(s) ?? 0) : 0),
      0,
    );
    let doneBytes = 0;
    const roles = Object.fromEntries(MODEL_ROLES.map((r) => [r, null])) as Record<ModelRole, LoadedRole | null>;
    const backends: { -readonly [K in keyof ModelBackends]: ModelBackends[K] } = { ...NO_BACKENDS };
    const releasables: Releasable[] = [];

    try {
      for (const { role, spec: model } of plan) {
        if (!model) continue;
        if (model.runtime === 'tfjs') {
          // The bundled default embedder is loaded by `loadEmbedder` (TF.js), not here.
          roles[role] = {
            id: model.id,
            runtime: 'tfjs',
            device: null,
            fallbackReason: null,
            bytes: model.bytes ?? 0,
            cachedFiles: 0,
            cacheEvicted: false,
            loadMs: 0,
          };
          continue;
        }
        const base = doneBytes;
        const loadOptions = {
          allowRemote: options.allowRemote === true,
          ...(options.devices ? { devices: options.devices } : {}),
          ...(signal ? { signal } : {}),
          onProgress: (p: ModelLoadProgress) =>
            onProgress?.({
              role,
              modelId: p.modelId,
              phase: p.phase,
              ...(p.file ? { file: p.file } : {}),
              loadedBytes: base + p.loadedBytes,
              totalBytes: Math.max(totalBytes, base + p.totalBytes),
            }),
        };
        const { report, value } = await loadRole(role, model, loadOptions);
        releasables.push(value);
        assign(backends, role, value);
        roles[role] = {
          id: model.id,
          runtime: 'transformers',
          device: report.device,
          fallbackReason: report.fallbackReason,
          bytes: report.bytes,
          cachedFiles: report.cachedFiles,
          cacheEvicted: report.cacheEvicted,
          loadMs: Math.round(report.ms),
        };
        doneBytes += report.bytes;
      }
    } catch (err) {
      for (const r of releasables) r.dispose();
      if (err instanceof EvidentError && err.code !== 'aborted') {
        const role = MODEL_ROLES.find((r) => roles[r] === null && plan.some((p) => p.role === r && p.spec));
        throw new EvidentError(err.code, role ? `${role}: ${err.message}` : err.message);
      }
      throw err;
    }
    const result: ProfileLoadResult = {
      profile,
      roles,
      crossOriginIsolated: this.runtime.crossOriginIsolated,
      wasmThreads: this.runtime.numThreads,
    };
    this.current = { result, backends, releasables };
    return result;
  }

  /** Releases every model of the current profile (a no-op when none is loaded). */
  disposeProfile(): void {
    const current = this.current;
    this.current = null;
    for (const r of current?.releasables ?? []) r.dispose();
  }
}

type Loaded = {
  value: Releasable & (Embedder | CrossEncoder | EntailmentModel | TransformersGenerator);
  report: LoadReport;
};

async function loadRole(role: ModelRole, spec: ModelSpec, options: LoadOptions): Promise<Loaded> {
  switch (role) {
    case 'embedder': {
      const { loadTransformersEmbedder } = await import('../models/transformers/embedder');
      const { embedder, report } = await loadTransformersEmbedder(spec, options);
      return { value: embedder, report };
    }
    case 'cross-encoder': {
      const { loadTransformersCrossEncoder } = await import('../models/transformers/cross-encoder');
      const { crossEncoder, report } = await loadTransformersCrossEncoder(spec, options);
      return { value: crossEncoder, report };
    }
    case 'nli': {
      const { loadTransformersNli } = await import('../models/transformers/nli');
      const { nli, report } = await loadTransformersNli(spec, options);
      return { value: nli, report };
    }
    case 'generator': {
      const { loadTransformersGenerator } = await import('../models/transformers/generator');
      const { generator, report } = await loadTransformersGenerator(spec, options);
      return { value: generator, report };
    }
  }
}

function assign(
  backends: { -readonly [K in keyof ModelBackends]: ModelBackends[K] },
  role: ModelRole,
  value: Loaded['value'],
): void {
  if (role === 'embedder') backends.embedder = value as Embedder;
  else if (role === 'cross-encoder') backends.crossEncoder = value as CrossEncoder;
  else if (role === 'nli') backends.nli = value as EntailmentModel;
  else backends.generator = value as TransformersGenerator;
}

// ── RPC ─────────────────────────────────────────────────────────────────────────────────────────

/** `worker.ts`'s `run`: registers the abort id, converts errors to values, releases the callback. */
export type RunCall = <T, P>(
  options: CallOptions | undefined,
  onProgress: ProgressCallback<P> | undefined,
  fn: (signal: AbortSignal, progress: (p: P) => void) => Promise<T>,
) => Promise<Result<T>>;

/** Progress events at most every 100 ms (plus each role's last), as the other worker calls do. */
const PROGRESS_INTERVAL_MS = 100;

/** The worker's one host, serving models from this app's base path. */
export function defaultModelHost(): ModelHost {
  // Vite's BASE_URL; read through a cast because Node tests compile this file without vite/client types.
  const base = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';
  return new ModelHost({
    modelsPath: `${base}models/`,
    wasmPaths: {
      mjs: `${base}vendor/ort/ort-wasm-simd-threaded.asyncify.mjs`,
      wasm: `${base}vendor/ort/ort-wasm-simd-threaded.asyncify.wasm`,
    },
  });
}

/**
 * Where each model the pipeline can use runs, for the evidence trail: the loaded profile's
 * Transformers.js roles, and USE lite's TF.js backend while it gives the dense side.
 */
export function modelDevices(
  loaded: ProfileLoadResult | null,
  activeEmbedderId: string | null,
  defaultEmbedder: EmbedderInfo | null,
): AskModelDevice[] {
  const out: AskModelDevice[] = [];
  for (const role of MODEL_ROLES) {
    const r = loaded?.roles[role];
    if (role === 'embedder' && defaultEmbedder && activeEmbedderId === defaultEmbedder.id) {
      const b = defaultEmbedder.backend;
      // `describeBackend` (load-use.ts) starts the reason with the backends it skipped, else with "Using".
      out.push({
        role,
        id: defaultEmbedder.id,
        device: b.name,
        fallbackReason: b.reason.startsWith('Using ') ? null : b.reason,
      });
    } else if (r && r.runtime === 'transformers' && r.device) {
      out.push({ role, id: r.id, device: r.device, fallbackReason: r.fallbackReason });
    }
  }
  return out;
}

/** Where models can run here (Settings → Device), without loading any. */
export async function deviceReport(): Promise<DeviceReport> {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return {
    webgpuUnavailable: await probeWebGpu(),
    crossOriginIsolated: isolated,
    cores: logicalCores(),
    wasmThreads: defaultWasmThreads(isolated),
  };
}

/** What the startup restore reads: the chosen profile and the stored consent (`SettingsHost` in the worker). */
export interface ProfileChoice {
  values(): Promise<{ readonly profile: ProfileName; readonly hubConsent: boolean }>;
}

const NO_RESTORE: RestoreStatus = Object.freeze({
  state: 'none',
  profile: null,
  allowRemote: false,
  progress: null,
  error: null,
});

/**
 * The worker's model profiles over a `ModelHost`: one load or release at a time (each waits for
 * the one before), the profile's embedder handed the library's dense side (`EmbedderSwitch`),
 * and, at startup, the profile the user chose last time loaded again (`restore`).
 */
export class ProfileRuntime {
  private queue: Promise<unknown> = Promise.resolve();
  private restoreValue: RestoreStatus = NO_RESTORE;
  private restoreRun: AbortController | null = null;

  /**
   * @param embedders with it, a profile's embedder takes the dense side when it loads and gives
   *   it back to the default when released (see `embedder-switch.ts`)
   * @param choice the user's settings, read by `restore`
   */
  constructor(
    readonly host: ModelHost,
    private readonly embedders: EmbedderSwitch | null = null,
    private readonly choice: ProfileChoice | null = null,
  ) {}

  get restoreStatus(): RestoreStatus {
    return this.restoreValue;
  }

  /** What search uses now and the re-embedding's progress (null without an `EmbedderSwitch`). */
  embedderReport(): ReturnType<EmbedderSwitch['report']> | null {
    return this.embedders?.report() ?? null;
  }

  /** Loads `profile`, replacing the loaded one; a startup restore still running is cancelled first. */
  load(
    profile: ProfileName,
    options: Omit<LoadProfileOptions, 'callId'>,
    onProgress?: (p: ProfileLoadProgress) => void,
    signal?: AbortSignal,
  ): Promise<ProfileLoadResult> {
    this.supersedeRestore();
    return this.serial(() => this.loadNow(profile, options, onProgress, signal));
  }

  /** Releases the profile's models (cancelling a restore); the default embedder takes the dense side back. */
  dispose(): Promise<void> {
    this.supersedeRestore();
    return this.serial(async () => {
      await this.embedders?.use(null);
      this.host.disposeProfile();
    });
  }

  /**
   * Loads the profile the settings name, as the worker starts: with the stored consent only
   * (`allowRemote: hubConsent`), so without it nothing is asked of the Hub and a model that is
   * neither on this site nor in Cache Storage fails the restore. Until it settles the default
   * embedder does not take the dense side, so the vectors stored for the profile's embedder are
   * used again, not re-embedded. A failure leaves the Embedded profile in charge, with the reason
   * in `restoreStatus`. Never rejects.
   */
  async restore(): Promise<RestoreStatus> {
    // Synchronously, before any await: the default embedder may arrive while settings are read.
    const run = new AbortController();
    this.restoreRun = run;
    this.embedders?.reserve();
    let chosen: { readonly profile: ProfileName; readonly hubConsent: boolean } | undefined;
    try {
      chosen = await this.choice?.values();
    } catch {
      // Settings cannot be read: the default profile, as on a first visit.
    }
    if (run.signal.aborted) {
      // The user loaded or released a profile meanwhile; that call settles the dense side.
      this.restoreValue = { ...NO_RESTORE, state: 'cancelled' };
      return this.restoreValue;
    }
    if (!chosen || chosen.profile === 'embedded' || !this.host.hasProfile(chosen.profile)) {
      this.restoreRun = null;
      this.restoreValue = NO_RESTORE;
      await this.embedders?.unreserve();
      return this.restoreValue;
    }
    const { profile } = chosen;
    const allowRemote = chosen.hubConsent === true;
    this.restoreValue = { state: 'loading', profile, allowRemote, progress: null, error: null };
    try {
      await this.serial(() => {
        if (run.signal.aborted) throw new EvidentError('aborted', `Loading the ${profile} profile was cancelled.`);
        return this.loadNow(
          profile,
          { allowRemote },
          (progress) => {
            if (this.restoreRun === run) this.restoreValue = { ...this.restoreValue, progress };
          },
          run.signal,
        );
      });
      this.restoreValue = { ...this.restoreValue, state: 'ready', error: null };
    } catch (err) {
      const error = toErrorValue(err);
      const cancelled = run.signal.aborted || error.code === 'aborted';
      this.restoreValue = {
        state: cancelled ? 'cancelled' : 'failed',
        profile,
        allowRemote,
        progress: null,
        error: cancelled ? null : error,
      };
    } finally {
      if (this.restoreRun === run) this.restoreRun = null;
    }
    return this.restoreValue;
  }

  /** The user loads or releases a profile: a running restore is cancelled, a finished one is history. */
  private supersedeRestore(): void {
    if (this.restoreRun) this.restoreRun.abort();
    else this.restoreValue = NO_RESTORE;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  private async loadNow(
    profile: ProfileName,
    options: Omit<LoadProfileOptions, 'callId'>,
    onProgress: ((p: ProfileLoadProgress) => void) | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ProfileLoadResult> {
    // The old profile's embedder must be idle before its session is released.
    if (this.host.loaded) await this.embedders?.use(null, { fill: false });
    try {
      const result = await this.host.loadProfile(profile, options, onProgress, signal);
      await this.embedders?.use(this.host.backends.embedder);
      return result;
    } catch (err) {
      await this.embedders?.use(null);
      throw err;
    }
  }
}

/** The `ModelsApi` methods for `worker.ts` to spread into its API object. */
export function modelsApi(run: RunCall, runtime: ProfileRuntime): ModelsApi {
  const { host } = runtime;
  return {
    loadProfile: (profile, options, onProgress) =>
      run(options, onProgress, async (signal, progress: (p: ProfileLoadProgress) => void) => {
        const throttled = throttle(PROGRESS_INTERVAL_MS, progress);
        const { callId: _callId, ...rest } = options ?? { allowRemote: false };
        return runtime.load(profile, rest, (p) => throttled(p.phase !== 'download', p), signal);
      }),
    disposeProfile: () =>
      asResult(async () => {
        await runtime.dispose();
        return null;
      }),
    modelStatus: () =>
      asResult(async () => ({
        loaded: host.loaded,
        restore: runtime.restoreStatus,
        ...(runtime.embedderReport() ?? {
          activeEmbedder: null,
          denseOnHold: false,
          reembed: { state: 'idle' as const, embedderId: null, done: 0, total: 0, ms: 0, error: null },
        }),
        devices: await deviceReport(),
      })),
  };
}
