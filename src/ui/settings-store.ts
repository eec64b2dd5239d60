/**
 * The Settings page's state: the settings as the worker reports them (with model profiles, the
 * embedder's device and the λ table), saving a change, resetting to defaults, and loading the
 * Enhanced profile's models on request.
 */
import type { EvidentErrorValue } from '../core/errors';
import type { AppSettings, SettingsPatch } from '../worker/ask-api';
import type { ProfileLoadProgress, ProfileLoadResult } from '../worker/models-api';
import { Store, toErrorValue } from './store';
import { isAbort, type WorkerClient } from './worker-client';

export type ProfileLoad =
  | { readonly phase: 'idle' }
  | { readonly phase: 'loading'; readonly progress: ProfileLoadProgress | null }
  | { readonly phase: 'ready'; readonly result: ProfileLoadResult }
  | { readonly phase: 'error'; readonly error: EvidentErrorValue };

export interface SettingsState {
  readonly settings: AppSettings | null;
  readonly loading: boolean;
  readonly saving: boolean;
  /** The last save's outcome, for a polite status line. */
  readonly message: { readonly kind: 'saved' | 'error'; readonly text: string } | null;
  readonly profileLoad: ProfileLoad;
}

type Client = Pick<WorkerClient, 'getSettings' | 'updateSettings' | 'resetSettings' | 'loadProfile' | 'disposeProfile'>;

export class SettingsStore extends Store<SettingsState> {
  private profileRun: AbortController | null = null;

  constructor(private readonly client: Client) {
    super({ settings: null, loading: false, saving: false, message: null, profileLoad: { phase: 'idle' } });
  }

  async load(): Promise<void> {
    this.set({ loading: true });
    try {
      this.set({ settings: await this.client.getSettings(), loading: false });
    } catch (err) {
      this.set({
        loading: false,
        message: { kind: 'error', text: `Settings could not be read: ${toErrorValue(err).message}` },
      });
    }
  }

  async update(patch: SettingsPatch): Promise<boolean> {
    return this.save(() => this.client.updateSettings(patch), 'Saved.');
  }

  async reset(): Promise<boolean> {
    return this.save(
      () => this.client.resetSettings(),
      'Every setting is back to its default, and feedback was forgotten.',
    );
  }

  /** Loads (or, for Embedded, releases) the profile's Transformers.js models. */
  async loadProfile(profile: 'embedded' | 'enhanced', allowRemote: boolean): Promise<void> {
    this.profileRun?.abort();
    if (profile === 'embedded') {
      this.profileRun = null;
      try {
        await this.client.disposeProfile();
      } catch {
        // Nothing was loaded.
      }
      this.set({ profileLoad: { phase: 'idle' } });
      return;
    }
    const run = new AbortController();
    this.profileRun = run;
    this.set({ profileLoad: { phase: 'loading', progress: null } });
    // Progress can arrive after the result (another message port): ignore it then.
    let settled = false;
    try {
      const result = await this.client.loadProfile(profile, {
        allowRemote,
        signal: run.signal,
        onProgress: (progress) => {
          if (!settled && !run.signal.aborted) this.set({ profileLoad: { phase: 'loading', progress } });
        },
      });
      settled = true;
      if (!run.signal.aborted) this.set({ profileLoad: { phase: 'ready', result } });
    } catch (err) {
      settled = true;
      if (!run.signal.aborted && !isAbort(err)) this.set({ profileLoad: { phase: 'error', error: toErrorValue(err) } });
    }
  }

  cancelProfileLoad(): void {
    this.profileRun?.abort();
    this.profileRun = null;
    this.set({ profileLoad: { phase: 'idle' } });
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
