/**
 * The model-profile part of the worker RPC surface (`EvidentWorkerApi` extends it). Types only,
 * runtime-neutral, so the UI (DOM) and the worker (WebWorker) tsconfigs both compile it.
 * Implemented by `models.ts`.
 */
import type { EvidentErrorValue } from '../core/errors';
import type { ModelRole, ModelRuntime, ProfileName } from '../models/manifest';
import type { CallOptions, ProgressCallback, Result } from './api';

export interface LoadProfileOptions extends CallOptions {
  /** The user agreed to download models that are not self-hosted from the Hugging Face Hub. */
  readonly allowRemote: boolean;
  /** Only these roles (default: every role the profile fills). */
  readonly roles?: readonly ModelRole[];
  /** Device order override, e.g. `['wasm']` (default `['webgpu', 'wasm']`). */
  readonly devices?: readonly ('webgpu' | 'wasm' | 'cpu')[];
}

/** Byte progress of a profile load: the current role's file and the profile-wide totals. */
export interface ProfileLoadProgress {
  readonly role: ModelRole;
  readonly modelId: string;
  readonly phase: 'download' | 'init' | 'ready';
  readonly file?: string;
  /** Bytes of all roles so far / expected (from the manifest; estimates for unfetched Hub models). */
  readonly loadedBytes: number;
  readonly totalBytes: number;
}

export interface LoadedRole {
  readonly id: string;
  readonly runtime: ModelRuntime;
  /** Device the sessions run on; null for the bundled TF.js embedder (see `loadEmbedder`). */
  readonly device: 'webgpu' | 'wasm' | 'cpu' | null;
  /** Why earlier devices were skipped (e.g. "webgpu: navigator.gpu.requestAdapter() returned no adapter"). */
  readonly fallbackReason: string | null;
  readonly bytes: number;
  /** Files served from Cache Storage rather than downloaded. */
  readonly cachedFiles: number;
  /** A damaged cached copy was evicted and the files read again. */
  readonly cacheEvicted: boolean;
  readonly loadMs: number;
}

export interface ProfileLoadResult {
  readonly profile: ProfileName;
  /** Per role: what was loaded, or null where the profile uses the model-free fallback. */
  readonly roles: Readonly<Record<ModelRole, LoadedRole | null>>;
  readonly crossOriginIsolated: boolean;
  readonly wasmThreads: number | null;
}

/**
 * Re-embedding the library after the embedder changed (see `embedder-switch.ts`). While it runs,
 * search and Ask use keywords only; `done`/`total` count passages (chunks).
 */
export interface ReembedStatus {
  readonly state: 'idle' | 'running' | 'done' | 'cancelled' | 'failed';
  /** The embedder being (or last) filled in, e.g. `tiny/encoder@main/fp32/mean-norm/max62`. */
  readonly embedderId: string | null;
  readonly done: number;
  readonly total: number;
  readonly ms: number;
  readonly error: EvidentErrorValue | null;
}

/** Where models can run in this worker, before any is loaded. */
export interface DeviceReport {
  /** null when WebGPU is usable, else why not (shown as the reason for WASM). */
  readonly webgpuUnavailable: string | null;
  readonly crossOriginIsolated: boolean;
  /** Logical cores the browser reports (null when it does not say). */
  readonly cores: number | null;
  /** WASM threads a Transformers.js profile would use (1 unless cross-origin isolated). */
  readonly wasmThreads: number;
}

/**
 * Loading the profile the user chose last time, as the worker starts (settings `profile` and
 * `hubConsent`). From this site's `models/` folder or Cache Storage; from the Hugging Face Hub
 * only when the user's consent is stored. A failure leaves the Embedded profile in charge and
 * says why (`error`); the choice stays, so the next start tries again.
 */
export interface RestoreStatus {
  /** `none`: the Embedded profile was chosen (nothing to load); `cancelled`: the user released or replaced it meanwhile. */
  readonly state: 'none' | 'loading' | 'ready' | 'failed' | 'cancelled';
  /** The chosen profile (null with `none`). */
  readonly profile: ProfileName | null;
  /** Whether the load could download from the Hub (the stored consent). */
  readonly allowRemote: boolean;
  readonly progress: ProfileLoadProgress | null;
  readonly error: EvidentErrorValue | null;
}

/** The worker's model state: the loaded profile, the dense side's embedder and its re-embedding. */
export interface ModelStatusReport {
  readonly loaded: ProfileLoadResult | null;
  /** The startup load of the chosen profile (the Settings page follows it while it runs). */
  readonly restore: RestoreStatus;
  /** Id of the embedder whose vectors search uses (null: keywords only, no embedder yet). */
  readonly activeEmbedder: string | null;
  /** True while search is by keywords only because the embedder changed and vectors are being filled. */
  readonly denseOnHold: boolean;
  readonly reembed: ReembedStatus;
  readonly devices: DeviceReport;
}

export interface ModelsApi {
  /**
   * Loads every Transformers.js model of a profile (replacing the current one). A profile with an
   * embedder takes the library's dense side: the library is re-embedded in the background
   * (`modelStatus().reembed`), and search uses keywords only until that is done.
   */
  loadProfile(
    profile: ProfileName,
    options: LoadProfileOptions,
    onProgress?: ProgressCallback<ProfileLoadProgress>,
  ): Promise<Result<ProfileLoadResult>>;
  /**
   * Releases the profile's models; the roles fall back to their model-free methods and the
   * default embedder (USE lite) takes the dense side back (re-embedding in the background).
   */
  disposeProfile(): Promise<Result<null>>;
  /** The loaded profile, the re-embedding's progress and the devices (cheap: the Settings page polls it). */
  modelStatus(): Promise<Result<ModelStatusReport>>;
}
