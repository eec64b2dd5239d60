import { describe, expect, it } from 'vitest';
import { fakeWorkerClient, ok, waitFor } from '../../test/fake-worker';
import { EvidentError } from '../core/errors';
import manifestJson from '../../models/manifest.json';
import { parseManifest, summarizeProfiles, type ProfileSummary } from '../models/manifest';
import type { AppSettings, SettingsPatch } from '../worker/ask-api';
import type { ModelStatusReport, ProfileLoadProgress, ProfileLoadResult, RestoreStatus } from '../worker/models-api';
import { SettingsStore } from './settings-store';

const base = {
  values: { profile: 'embedded', hubConsent: false, budget: 3000, mmrLambda: 0.7, cutoffBounds: { min: 1, max: 12 } },
} as unknown as AppSettings;

const NO_RESTORE: RestoreStatus = { state: 'none', profile: null, allowRemote: false, progress: null, error: null };

const idleModels = (
  loaded: ProfileLoadResult | null = null,
  running = false,
  restore: RestoreStatus = NO_RESTORE,
): ModelStatusReport => ({
  loaded,
  restore,
  activeEmbedder: 'use-lite',
  denseOnHold: running,
  reembed: {
    state: running ? 'running' : 'idle',
    embedderId: running ? 'tiny/encoder' : null,
    done: 0,
    total: running ? 10 : 0,
    ms: 0,
    error: null,
  },
  devices: { webgpuUnavailable: 'navigator.gpu is missing', crossOriginIsolated: true, cores: 2, wasmThreads: 1 },
});

const tinyResult = { profile: 'tiny', roles: {}, crossOriginIsolated: true, wasmThreads: 1 } as ProfileLoadResult;

/** A stand-in worker: Hub models are "not on this site" unless the load allows remote downloads. */
function fakeClient() {
  let current = base;
  const loads: { profile: string; allowRemote: boolean }[] = [];
  let status = idleModels();
  return {
    loads,
    setStatus: (s: ModelStatusReport) => (status = s),
    getSettings: async () => current,
    updateSettings: async (patch: SettingsPatch) => {
      if (patch.values?.budget === 1)
        throw new EvidentError(
          'invalid_input',
          'Settings: the evidence budget must be a whole number of tokens from 200 to 100000.',
        );
      current = { ...current, values: { ...current.values, ...patch.values } };
      return current;
    },
    resetSettings: async () => (current = base),
    loadProfile: async (profile: string, opts: { allowRemote: boolean }) => {
      loads.push({ profile, allowRemote: opts.allowRemote });
      if (profile === 'enhanced' && !opts.allowRemote)
        throw new EvidentError(
          'model_not_found',
          'embedder: Xenova/bge-small-en-v1.5 is not self-hosted. Allow model downloads in Settings.',
        );
      if (profile === 'enhanced') throw new EvidentError('offline', 'huggingface.co cannot be reached.');
      status = idleModels(tinyResult);
      return tinyResult;
    },
    disposals: 0,
    disposeProfile: async function (this: { disposals: number }) {
      this.disposals++;
      status = idleModels();
      return null;
    },
    modelStatus: async () => status,
  };
}

const [, ENHANCED, TINY] = summarizeProfiles(parseManifest(manifestJson), ['embedded', 'enhanced', 'tiny']) as [
  ProfileSummary,
  ProfileSummary,
  ProfileSummary,
];

describe('SettingsStore', () => {
  it('loads, saves and resets, saying what happened', async () => {
    const store = new SettingsStore(fakeClient());
    await store.load();
    expect(store.getState().settings?.values.budget).toBe(3000);
    expect(store.getState().models?.devices.webgpuUnavailable).toMatch(/navigator\.gpu/);
    expect(await store.update({ values: { budget: 800 } })).toBe(true);
    expect(store.getState()).toMatchObject({
      saving: false,
      message: { kind: 'saved' },
      settings: { values: { budget: 800 } },
    });
    expect(await store.update({ values: { budget: 1 } })).toBe(false);
    expect(store.getState().message).toMatchObject({ kind: 'error', text: expect.stringMatching(/budget/) });
    expect(store.getState().settings?.values.budget).toBe(800);
    await store.reset();
    expect(store.getState().settings?.values.budget).toBe(3000);
  });

  it('asks before any Hub download: the first load reads this site only, consent loads again', async () => {
    const client = fakeClient();
    const store = new SettingsStore(client);
    await store.loadProfile(ENHANCED);
    expect(client.loads).toEqual([{ profile: 'enhanced', allowRemote: false }]);
    const prompt = store.getState().consentPrompt;
    expect(prompt?.profile.name).toBe('enhanced');
    expect(prompt?.models.map((m) => [m.role, m.license])).toEqual([
      ['embedder', 'MIT'],
      ['cross-encoder', 'Apache-2.0'],
      ['nli', 'Apache-2.0'],
      ['generator', 'Apache-2.0'],
    ]);
    expect(store.getState().profileLoad).toEqual({ phase: 'idle' });

    // Declining downloads nothing.
    store.declineHubDownloads();
    expect(store.getState().consentPrompt).toBeNull();
    expect(client.loads).toHaveLength(1);

    await store.loadProfile(ENHANCED);
    await store.allowHubDownloads();
    expect(store.getState().hubConsent).toBe(true);
    expect(client.loads.at(-1)).toEqual({ profile: 'enhanced', allowRemote: true });
    expect(store.getState().profileLoad).toMatchObject({ phase: 'error', error: { code: 'offline' } });

    store.revokeHubConsent();
    await store.loadProfile(ENHANCED);
    expect(client.loads.at(-1)).toEqual({ profile: 'enhanced', allowRemote: false });
  });

  it('a self-hosted profile never asks; release goes back to the default embedder', async () => {
    const client = fakeClient();
    const store = new SettingsStore(client);
    await store.loadProfile(TINY);
    expect(store.getState().consentPrompt).toBeNull();
    expect(store.getState().profileLoad).toMatchObject({ phase: 'ready', result: { profile: 'tiny' } });
    expect(store.getState().models?.loaded?.profile).toBe('tiny');
    await store.releaseProfile();
    expect(store.getState().profileLoad).toEqual({ phase: 'idle' });
    expect(store.getState().models?.loaded).toBeNull();
  });

  it('ignores load progress that arrives after the result (through the real client, over a message port)', async () => {
    let lateDelivered = false;
    const progress = (phase: 'download' | 'ready'): ProfileLoadProgress => ({
      role: 'embedder',
      modelId: 'tiny/encoder',
      phase,
      loadedBytes: phase === 'ready' ? 10 : 5,
      totalBytes: 10,
    });
    const { client, dispose } = fakeWorkerClient({
      ping: (n) => n,
      abort: () => false,
      loadProfile: async (_profile, _opts, onProgress) => {
        await onProgress?.(progress('download'));
        // Sent after the result, as the browser may deliver it.
        setTimeout(() => {
          void Promise.resolve(onProgress?.(progress('ready'))).then(() => (lateDelivered = true));
        }, 0);
        return ok(tinyResult);
      },
      updateSettings: async (patch) => ok({ ...base, values: { ...base.values, ...patch.values } }),
      modelStatus: async () => ok(idleModels(tinyResult)),
    });
    try {
      const store = new SettingsStore(client);
      const seen: string[] = [];
      store.subscribe(() => {
        const load = store.getState().profileLoad;
        const at = load.phase === 'loading' ? `loading ${load.progress?.phase ?? '-'}` : load.phase;
        if (seen.at(-1) !== at) seen.push(at);
      });
      await store.loadProfile(TINY);
      await waitFor(() => lateDelivered);
      await store.refreshModels();
      expect(seen).toEqual(['loading -', 'loading download', 'ready']);
      expect(store.getState().profileLoad).toMatchObject({ phase: 'ready', result: { profile: 'tiny' } });
    } finally {
      dispose();
    }
  });

  it('follows the re-embedding until it ends; a restarted worker shows no profile loaded', async () => {
    const client = fakeClient();
    const store = new SettingsStore(client, { pollMs: 5 });
    await store.loadProfile(TINY);
    client.setStatus(idleModels(tinyResult, true));
    await store.refreshModels();
    expect(store.getState().models?.reembed.state).toBe('running');
    client.setStatus(idleModels(tinyResult, false));
    await new Promise((r) => setTimeout(r, 30));
    expect(store.getState().models?.reembed.state).toBe('idle');
    // The worker restarted: it reports no profile, so the page stops claiming one.
    client.setStatus(idleModels(null));
    await store.refreshModels();
    expect(store.getState().profileLoad).toEqual({ phase: 'idle' });
    store.dispose();
  });

  it('keeps reading while no embedder is active yet (a failed startup load, the default still loading)', async () => {
    const client = fakeClient();
    const store = new SettingsStore(client, { pollMs: 5 });
    const failed: RestoreStatus = {
      ...NO_RESTORE,
      state: 'failed',
      profile: 'enhanced',
      error: { code: 'model_not_found', message: 'not self-hosted' },
    };
    client.setStatus({ ...idleModels(null, false, failed), activeEmbedder: null });
    await store.refreshModels();
    expect(store.getState().models?.activeEmbedder).toBeNull();
    client.setStatus({ ...idleModels(null, false, failed), activeEmbedder: 'use-lite' });
    await new Promise((r) => setTimeout(r, 40));
    expect(store.getState().models?.activeEmbedder).toBe('use-lite');
    store.dispose();
  });

  it('remembers consent and the loaded profile in the settings; release remembers Embedded', async () => {
    const client = fakeClient();
    const store = new SettingsStore(client);
    await store.load();
    expect(store.getState().hubConsent).toBe(false);
    await store.loadProfile(ENHANCED);
    await store.allowHubDownloads();
    expect((await client.getSettings()).values.hubConsent).toBe(true);
    // A new page (a reload) starts from the stored consent: the first load may use the Hub.
    const reloaded = new SettingsStore(client);
    await reloaded.load();
    expect(reloaded.getState().hubConsent).toBe(true);
    await reloaded.loadProfile(ENHANCED);
    expect(client.loads.at(-1)).toEqual({ profile: 'enhanced', allowRemote: true });
    await reloaded.revokeHubConsent();
    expect((await client.getSettings()).values.hubConsent).toBe(false);

    await reloaded.loadProfile(TINY);
    expect((await client.getSettings()).values.profile).toBe('tiny');
    await reloaded.releaseProfile();
    expect((await client.getSettings()).values.profile).toBe('embedded');
  });

  it("follows the worker's startup load of the remembered profile: progress, then its models", async () => {
    const client = fakeClient();
    const store = new SettingsStore(client, { pollMs: 5 });
    const progress = { role: 'nli', modelId: 'tiny/nli', phase: 'download', loadedBytes: 10, totalBytes: 40 } as const;
    const restoring: RestoreStatus = { state: 'loading', profile: 'tiny', allowRemote: false, progress, error: null };
    client.setStatus(idleModels(null, false, restoring));
    await store.load();
    expect(store.getState().profileLoad).toEqual({ phase: 'loading', profile: 'tiny', progress, atStartup: true });
    client.setStatus(idleModels(tinyResult, false, { ...restoring, state: 'ready' }));
    await new Promise((r) => setTimeout(r, 30));
    expect(store.getState().profileLoad).toEqual({ phase: 'ready', result: tinyResult });
    store.dispose();
  });

  it('announces each profile that becomes loaded once: loaded here, or restored by the worker', async () => {
    const client = fakeClient();
    const ready: string[] = [];
    const store = new SettingsStore(client, { pollMs: 5, onProfileReady: (r) => ready.push(r.profile) });
    await store.loadProfile(TINY);
    // Reading the worker's state again (every page change does) announces nothing new.
    await store.refreshModels();
    await store.refreshModels();
    expect(ready).toEqual(['tiny']);
    await store.releaseProfile();
    const restoring: RestoreStatus = {
      state: 'ready',
      profile: 'tiny',
      allowRemote: false,
      progress: null,
      error: null,
    };
    client.setStatus(idleModels(tinyResult, false, restoring));
    await store.refreshModels();
    expect(ready).toEqual(['tiny', 'tiny']);
    store.dispose();
  });

  it('says why the remembered profile did not load at startup; Cancel stops a startup load in the worker', async () => {
    const client = fakeClient();
    const store = new SettingsStore(client);
    const error = {
      code: 'model_not_found',
      message: 'embedder: Xenova/bge-small-en-v1.5 is not self-hosted.',
    } as const;
    client.setStatus(
      idleModels(null, false, { state: 'failed', profile: 'enhanced', allowRemote: false, progress: null, error }),
    );
    await store.load();
    expect(store.getState().profileLoad).toEqual({ phase: 'error', profile: 'enhanced', error, atStartup: true });
    // A load the page runs is not overridden by the worker's old news.
    await store.loadProfile(TINY);
    expect(store.getState().profileLoad).toMatchObject({ phase: 'ready', result: { profile: 'tiny' } });

    client.setStatus(
      idleModels(null, false, { state: 'loading', profile: 'tiny', allowRemote: false, progress: null, error: null }),
    );
    const next = new SettingsStore(client);
    await next.refreshModels();
    expect(next.getState().profileLoad).toMatchObject({ phase: 'loading', atStartup: true });
    next.cancelProfileLoad();
    expect(next.getState().profileLoad).toEqual({ phase: 'idle' });
    await expect.poll(() => client.disposals).toBe(1);
    next.dispose();
  });
});
