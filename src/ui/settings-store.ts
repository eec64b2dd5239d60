/**
 * The Settings page's state: the settings as the worker reports them (with model profiles, the
 * embedder's device and the λ table), saving a change, resetting to defaults, and loading a model
 * profile on request — with the user's consent before anything is downloaded from the Hugging
 * Face Hub — then following the library's re-embedding while the profile's embedder takes over.
 *
 * Consent is asked when it is needed: a load first tries this site's own `models/` folder only
 * (`allowRemote: false`, so nothing leaves the origin); when a model is not there and the profile
 * has Hub models, the page asks, naming the models, their sizes and licenses. Consent is stored
 * with the settings (`hubConsent`) and can be withdrawn.
 *
 * The profile is remembered too (`profile`): a successful load stores it, releasing stores
 * Embedded, and the worker loads the stored profile again when it starts. The page follows that
 * startup load (`modelStatus().restore`) with its progress, and shows why when it failed (the
 * Embedded profile is then in use).
 */
import type { EvidentErrorValue } from '../core/errors';
import type { ProfileName, ProfileSummary } from '../models/manifest';
import type { AppSettingValues, AppSettings, SettingsPatch } from '../worker/ask-api';
import type { ModelStatusReport, ProfileLoadProgress, ProfileLoadResult } from '../worker/models-api';
import { Store, toErrorValue } from './store';
import { isAbort, type WorkerClient } from './worker-client';

/** `atStartup`: the worker's load of the profile chosen last time (not one the page started). */
export type ProfileLoad =
  | { readonly phase: 'idle' }
  | {
      readonly phase: 'loading';
      readonly profile: ProfileName;
      readonly progress: ProfileLoadProgress | null;
      readonly atStartup?: boolean;
    }
  | { readonly phase: 'ready'; readonly result: ProfileLoadResult }
  | {
      readonly phase: 'error';
      readonly profile: ProfileName;
      readonly error: EvidentErrorValue;
      readonly atStartup?: boolean;
    };

/** The question put to the user before any Hub download. */
export interface ConsentPrompt {
  readonly profile: ProfileSummary;
  /** The roles that would come from the Hub (not found on this site). */
  readonly models: ProfileSummary['roles'];
  /** What the self-hosted attempt said (which model is missing). */
  readonly reason: string;
}

export interface SettingsState {
  readonly settings: AppSettings | null;
  readonly loading: boolean;
  readonly saving: boolean;
  /** The last save's outcome, for a polite status line. */
  readonly message: { readonly kind: 'saved' | 'error'; readonly text: string } | null;
  readonly profileLoad: ProfileLoad;
  /** The user agreed to downloads from the Hugging Face Hub (stored with the settings). */
  readonly hubConsent: boolean;
  readonly consentPrompt: ConsentPrompt | null;
  /** The worker's model state (devices, loaded profile, re-embedding); null until read. */
  readonly models: ModelStatusReport | null;
}

type Client = Pick<
  WorkerClient,
  'getSettings' | 'updateSettings' | 'resetSettings' | 'loadProfile' | 'disposeProfile' | 'modelStatus'
>;

export interface SettingsStoreOptions {
  /** How often the re-embedding's progress is read while it runs (ms). Default 500. */
  readonly pollMs?: number;
  /**
   * Called each time a profile's models are shown loaded (by this page or restored by the worker
   * at startup): the app asks the service worker to keep the runtime they run on.
   */
  readonly onProfileReady?: (result: ProfileLoadResult) => void;
}

/** How long the page keeps reading while no embedder is active: 10 minutes at the default 500 ms. */
const MAX_PENDING_POLLS = 1200;

export class SettingsStore extends Store<SettingsState> {
  private profileRun: AbortController | null = null;
  private poll: ReturnType<typeof setTimeout> | null = null;
  private readonly pollMs: number;
  /** Reads made while no embedder was active (bounded by `MAX_PENDING_POLLS`). */
  private pendingPolls = 0;
  private readonly onProfileReady: ((result: ProfileLoadResult) => void) | null;

  constructor(
    private readonly client: Client,
    options: SettingsStoreOptions = {},
  ) {
    super({
      settings: null,
      loading: false,
      saving: false,
      message: null,
      profileLoad: { phase: 'idle' },
      hubConsent: false,
      consentPrompt: null,
      models: null,
    });
    this.pollMs = options.pollMs ?? 500;
    this.onProfileReady = options.onProfileReady ?? null;
  }

  /** Sets the state; a profile load that has just become ready is announced (`onProfileReady`). */
  protected override set(patch: Partial<SettingsState>): void {
    const before = this.getState().profileLoad;
    super.set(patch);
    const after = this.getState().profileLoad;
    if (after.phase === 'ready' && !(before.phase === 'ready' && before.result.profile === after.result.profile)) {
      this.onProfileReady?.(after.result);
    }
  }

  async load(): Promise<void> {
    this.set({ loading: true });
    try {
      const settings = await this.client.getSettings();
      this.set({ settings, loading: false, hubConsent: settings.values.hubConsent === true });
    } catch (err) {
      this.set({
        loading: false,
        message: { kind: 'error', text: `Settings could not be read: ${toErrorValue(err).message}` },
      });
    }
    await this.refreshModels();
  }

  async update(patch: SettingsPatch): Promise<boolean> {
    return this.save(() => this.client.updateSettings(patch), 'Saved.');
  }

  /** Every setting back to its default: the Embedded profile (loaded models are released) and no Hub consent. */
  async reset(): Promise<boolean> {
    const ok = await this.save(
      () => this.client.resetSettings(),
      'Every setting is back to its default, and feedback was forgotten.',
    );
    if (ok) {
      this.set({ hubConsent: false });
      const load = this.getState().profileLoad;
      if (load.phase === 'ready' || load.phase === 'loading') await this.releaseProfile();
    }
    return ok;
  }

  /**
   * Loads a profile's Transformers.js models (replacing the loaded ones). Without consent only
   * this site's `models/` folder is read; a Hub model missing there turns into the consent
   * question rather than a download.
   */
  async loadProfile(profile: ProfileSummary): Promise<void> {
    this.profileRun?.abort();
    const run = new AbortController();
    this.profileRun = run;
    const allowRemote = this.getState().hubConsent;
    this.set({ profileLoad: { phase: 'loading', profile: profile.name, progress: null }, consentPrompt: null });
    // The client delivers no progress once the call settled (it may arrive after the result).
    try {
      const result = await this.client.loadProfile(profile.name, {
        allowRemote,
        signal: run.signal,
        onProgress: (progress) => {
          if (!run.signal.aborted) this.set({ profileLoad: { phase: 'loading', profile: profile.name, progress } });
        },
      });
      if (!run.signal.aborted) {
        this.set({ profileLoad: { phase: 'ready', result } });
        // Remembered: the worker loads it again at the next start.
        await this.remember({ profile: profile.name });
      }
    } catch (err) {
      if (run.signal.aborted || isAbort(err)) return;
      const error = toErrorValue(err);
      if (error.code === 'model_not_found' && !allowRemote && profile.fromHub) {
        this.set({
          profileLoad: { phase: 'idle' },
          consentPrompt: {
            profile,
            models: profile.roles.filter((r) => r.source === 'hub'),
            reason: error.message,
          },
        });
      } else {
        this.set({ profileLoad: { phase: 'error', profile: profile.name, error } });
      }
    } finally {
      await this.refreshModels();
    }
  }

  /** The user agreed: downloads from the Hub are allowed (and remembered), and the load runs again. */
  async allowHubDownloads(): Promise<void> {
    const prompt = this.getState().consentPrompt;
    this.set({ hubConsent: true, consentPrompt: null });
    await this.remember({ hubConsent: true });
    if (prompt) await this.loadProfile(prompt.profile);
  }

  /** The user declined: nothing is downloaded, and the profile stays unloaded. */
  declineHubDownloads(): void {
    this.set({ consentPrompt: null });
  }

  /** Withdraws consent: later loads (and the next start) read this site's `models/` folder and the browser cache only. */
  async revokeHubConsent(): Promise<void> {
    this.set({ hubConsent: false });
    await this.remember({ hubConsent: false });
  }

  /** Releases the loaded profile's models; the default embedder takes the library back, and Embedded is remembered. */
  async releaseProfile(): Promise<void> {
    this.profileRun?.abort();
    this.profileRun = null;
    try {
      await this.client.disposeProfile();
    } catch {
      // Nothing was loaded, or the worker restarted (which released everything).
    }
    this.set({ profileLoad: { phase: 'idle' }, consentPrompt: null });
    await this.remember({ profile: 'embedded' });
    await this.refreshModels();
  }

  /**
   * Stops the load in progress. The startup load of the remembered profile is stopped in the
   * worker (the choice stays: the next start tries again).
   */
  cancelProfileLoad(): void {
    const load = this.getState().profileLoad;
    this.profileRun?.abort();
    this.profileRun = null;
    this.set({ profileLoad: { phase: 'idle' } });
    if (load.phase === 'loading' && load.atStartup) {
      void this.client
        .disposeProfile()
        .catch(() => {})
        .then(() => this.refreshModels());
    }
  }

  /**
   * Reads the worker's model state; while the library is being re-embedded or the remembered
   * profile loaded at startup, reads it again every `pollMs`. A worker that restarted has no
   * profile loaded until its own startup load ends: the page says so.
   */
  async refreshModels(): Promise<void> {
    if (this.poll !== null) clearTimeout(this.poll);
    this.poll = null;
    let models: ModelStatusReport;
    try {
      models = await this.client.modelStatus();
    } catch {
      return;
    }
    const profileLoad = followWorker(this.getState().profileLoad, models);
    this.set({ models, ...(profileLoad ? { profileLoad } : {}) });
    // Also while no embedder is active yet: after a failed startup load the default embedder may
    // still be loading (slowly on a busy machine), and the page would say "none yet" for good.
    const embedderPending = models.activeEmbedder === null && this.pendingPolls++ < MAX_PENDING_POLLS;
    if (models.activeEmbedder !== null) this.pendingPolls = 0;
    if (models.reembed.state === 'running' || models.restore.state === 'loading' || embedderPending) {
      this.poll = setTimeout(() => void this.refreshModels(), this.pollMs);
    }
  }

  /** Stops polling (the page is gone). */
  dispose(): void {
    if (this.poll !== null) clearTimeout(this.poll);
    this.poll = null;
  }

  /** Stores the profile choice or the consent; a failure is said, the models stay as they are. */
  private async remember(values: Partial<Pick<AppSettingValues, 'profile' | 'hubConsent'>>): Promise<void> {
    const current = this.getState().settings?.values;
    if (current && Object.entries(values).every(([k, v]) => current[k as keyof AppSettingValues] === v)) return;
    try {
      this.set({ settings: await this.client.updateSettings({ values }) });
    } catch (err) {
      this.set({
        message: { kind: 'error', text: `The choice could not be remembered: ${toErrorValue(err).message}` },
      });
    }
  }

  private async save(fn: () => Promise<AppSettings>, ok: string): Promise<boolean> {
    this.set({ saving: true, message: null });
    try {
      const settings = await fn();
      this.set({ settings, saving: false, message: { kind: 'saved', text: ok } });
      return true;
    } catch (err) {
      this.set({ saving: false, message: { kind: 'error', text: toErrorValue(err).message } });
      return false;
    }
  }
}

/**
 * What the profile section shows given the worker's state, or null to keep it: the startup load
 * of the remembered profile (progress, then its models or why it failed), a profile the worker
 * has loaded while the page showed none (it was restored before the page opened), and no profile
 * after the worker restarted. A load the page itself runs is never overridden.
 */
export function followWorker(load: ProfileLoad, models: ModelStatusReport): ProfileLoad | null {
  const { restore, loaded } = models;
  const fromWorker = load.phase === 'idle' || ('atStartup' in load && load.atStartup === true);
  if (restore.state === 'loading' && restore.profile && fromWorker) {
    return { phase: 'loading', profile: restore.profile, progress: restore.progress, atStartup: true };
  }
  if (loaded && fromWorker) return { phase: 'ready', result: loaded };
  if (restore.state === 'failed' && restore.profile && restore.error && fromWorker && !loaded) {
    return { phase: 'error', profile: restore.profile, error: restore.error, atStartup: true };
  }
  if (load.phase === 'loading' && load.atStartup) return { phase: 'idle' };
  if (load.phase === 'ready' && loaded === null) return { phase: 'idle' };
  return null;
}
