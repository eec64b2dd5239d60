/**
 * The model-profile part of the worker RPC surface (`EvidentWorkerApi` extends it). Types only,
 * runtime-neutral, so the UI (DOM) and the worker (WebWorker) tsconfigs both compile it.
 * Implemented by `models.ts`.
 */
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

export interface ModelsApi {
  /** Loads every Transformers.js model of a profile (replacing the current one). */
  loadProfile(
    profile: ProfileName,
    options: LoadProfileOptions,
    onProgress?: ProgressCallback<ProfileLoadProgress>,
  ): Promise<Result<ProfileLoadResult>>;
  /** Releases the profile's models; the roles fall back to their model-free methods. */
  disposeProfile(): Result<null>;
}
