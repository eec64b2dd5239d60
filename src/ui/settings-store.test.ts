import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import type { AppSettings, SettingsPatch } from '../worker/ask-api';
import { SettingsStore } from './settings-store';

const base = {
  values: { profile: 'embedded', budget: 3000, mmrLambda: 0.7, cutoffBounds: { min: 1, max: 12 } },
} as unknown as AppSettings;

function fakeClient() {
  let current = base;
  return {
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
    loadProfile: async () => {
      throw new EvidentError(
        'model_not_found',
        'Enhanced models are not on this site. Allow downloads, or run npm run models:fetch.',
      );
    },
    disposeProfile: async () => null,
  };
}

describe('SettingsStore', () => {
  it('loads, saves and resets, saying what happened', async () => {
    const store = new SettingsStore(fakeClient());
    await store.load();
    expect(store.getState().settings?.values.budget).toBe(3000);
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

  it('reports a profile that cannot be loaded, and releases it when Embedded is chosen', async () => {
    const store = new SettingsStore(fakeClient());
    await store.loadProfile('enhanced', false);
    expect(store.getState().profileLoad).toMatchObject({ phase: 'error', error: { code: 'model_not_found' } });
    await store.loadProfile('embedded', false);
    expect(store.getState().profileLoad).toEqual({ phase: 'idle' });
  });
});
