import { describe, expect, it } from 'vitest';
import { createPriorState, DEFAULT_SOURCE_LAMBDAS, MemoryPriorStore, applyFeedback } from '../core/select/priors';
import {
  DEFAULT_APP_SETTINGS,
  MAX_CUTOFF,
  SettingsHost,
  profileSummaries,
  validatePriorTable,
  validateValues,
  type SettingsStore,
} from './settings';

function mapStore(): SettingsStore & { map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return {
    map,
    getSetting: async (k) => map.get(k),
    setSetting: async (k, v) => void map.set(k, v),
    priors: new MemoryPriorStore(),
  };
}

describe('validateValues', () => {
  it('accepts valid values and copies only them', () => {
    expect(
      validateValues({ budget: 800, mmrLambda: 0.5, cutoffBounds: { min: 2, max: 6 }, profile: 'enhanced' }),
    ).toEqual({
      budget: 800,
      mmrLambda: 0.5,
      cutoffBounds: { min: 2, max: 6 },
      profile: 'enhanced',
    });
  });

  it.each([
    [{ budget: 10 }, /budget/],
    [{ budget: 1000.5 }, /budget/],
    [{ mmrLambda: 1.5 }, /MMR/],
    [{ mmrLambda: Number.NaN }, /MMR/],
    [{ cutoffBounds: { min: 5, max: 3 } }, /cutoff/],
    [{ cutoffBounds: { min: 0, max: 3 } }, /cutoff/],
    [{ cutoffBounds: { min: 1, max: MAX_CUTOFF + 1 } }, /cutoff/],
    [{ profile: 'custom' }, /profile must be one of embedded, enhanced, tiny, got "custom"/],
    [{ hubConsent: 'yes' }, /hubConsent must be true or false/],
    [{ inquiry: { budget: 6, topR: 3 } }, /follow-up inquiry takes 0–5 queries/],
    [{ inquiry: { budget: 1, topR: 0 } }, /1–10 passages/],
    [{ inquiry: { budget: 1.5, topR: 3 } }, /follow-up inquiry/],
    [{ inquiry: null }, /follow-up inquiry/],
    [{ colour: 'red' }, /unknown setting "colour".*budget/],
  ])('rejects %j', (patch, message) => {
    expect(() => validateValues(patch)).toThrow(message);
  });
});

describe('validatePriorTable', () => {
  it('rejects unknown source types and values outside [0, 1]', () => {
    expect(validatePriorTable({ blog: 0.4 })).toEqual({ blog: 0.4 });
    expect(() => validatePriorTable({ tabloid: 0.1 })).toThrow(/unknown source type "tabloid"/);
    expect(() => validatePriorTable({ blog: 1.2 })).toThrow(/blog/);
  });
});

describe('SettingsHost', () => {
  it('starts from the defaults, in memory without a store, and says it is not persistent', async () => {
    const host = new SettingsHost(() => null);
    const s = await host.get(null);
    expect(s.values).toEqual(DEFAULT_APP_SETTINGS);
    expect(s.priorTable).toEqual(DEFAULT_SOURCE_LAMBDAS);
    expect(s.persistent).toBe(false);
    await host.update({ values: { budget: 900 }, priorTable: { blog: 0.2 } });
    const after = await host.get(null);
    expect(after.values.budget).toBe(900);
    expect(after.priorTable.blog).toBe(0.2);
    expect(after.priorEffective.blog).toBe(0.2);
  });

  it('writes settings and λ through the store, and reads them back', async () => {
    const store = mapStore();
    const host = new SettingsHost(() => store);
    await host.update({
      values: { mmrLambda: 0.4, cutoffBounds: { min: 2, max: 8 } },
      priorTable: { government: 0.7 },
    });
    expect(store.map.get('mmrLambda')).toBe(0.4);
    expect((await store.priors.load()).table.government).toBe(0.7);
    const again = await new SettingsHost(() => store).get(null);
    expect(again.values).toMatchObject({ mmrLambda: 0.4, cutoffBounds: { min: 2, max: 8 } });
    expect(again.persistent).toBe(true);
  });

  it('reads the stored values once: Settings opens without waiting on storage; writes keep the copy current', async () => {
    const store = mapStore();
    let reads = 0;
    const counted: SettingsStore = { ...store, getSetting: async (k) => (reads++, store.getSetting(k)) };
    const host = new SettingsHost(() => counted);
    await host.values();
    const first = reads;
    expect(first).toBeGreaterThan(0);
    await host.get(null);
    await host.values();
    expect(reads).toBe(first);
    await host.update({ values: { budget: 1200 } });
    expect((await host.values()).budget).toBe(1200);
    expect(store.map.get('budget')).toBe(1200);
    await host.reset();
    expect((await host.values()).budget).toBe(DEFAULT_APP_SETTINGS.budget);
    // Another tab changed them: `forget` reads the store again.
    store.map.set('mmrLambda', 0.2);
    expect((await host.values()).mmrLambda).toBe(DEFAULT_APP_SETTINGS.mmrLambda);
    host.forget();
    expect((await host.values()).mmrLambda).toBe(0.2);
  });

  it('writes nothing when any part of a patch is invalid', async () => {
    const store = mapStore();
    const host = new SettingsHost(() => store);
    await expect(host.update({ values: { budget: 900 }, priorTable: { blog: 7 } })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(store.map.size).toBe(0);
    await expect(host.update({ extra: 1 } as never)).rejects.toThrow(/unknown field "extra"/);
  });

  it('falls back to the default of a stored value it cannot read, keeping the others', async () => {
    const store = mapStore();
    store.map.set('budget', 'lots');
    expect(await new SettingsHost(() => store).values()).toEqual(DEFAULT_APP_SETTINGS);
    store.map.set('mmrLambda', 0.3);
    store.map.set('profile', 'a-profile-of-a-newer-version');
    expect(await new SettingsHost(() => store).values()).toEqual({ ...DEFAULT_APP_SETTINGS, mmrLambda: 0.3 });
  });

  it('remembers the model profile and the Hub consent for the next start (read by a new host)', async () => {
    const store = mapStore();
    expect(await new SettingsHost(() => store).values()).toMatchObject({ profile: 'embedded', hubConsent: false });
    await new SettingsHost(() => store).update({ values: { profile: 'enhanced', hubConsent: true } });
    expect([store.map.get('profile'), store.map.get('hubConsent')]).toEqual(['enhanced', true]);
    // The next visit: a new worker, a new host on the same stored settings.
    const next = new SettingsHost(() => store);
    expect(await next.values()).toMatchObject({ profile: 'enhanced', hubConsent: true });
    // The tiny test profile can be remembered too (the e2e tests reload with it).
    await next.update({ values: { profile: 'tiny' } });
    expect((await new SettingsHost(() => store).values()).profile).toBe('tiny');
    // Reset: Embedded, and consent withdrawn.
    await next.reset();
    expect(await new SettingsHost(() => store).values()).toMatchObject({ profile: 'embedded', hubConsent: false });
  });

  it('reports λ after feedback and counts adjusted documents; reset forgets both', async () => {
    const store = mapStore();
    const now = Date.UTC(2025, 0, 1);
    let state = applyFeedback(createPriorState(), { sourceType: 'blog', verdict: 'misleading', at: now });
    state = applyFeedback(state, { docId: 'd1', sourceType: 'blog', verdict: 'helpful', at: now });
    await store.priors.save(state);
    const host = new SettingsHost(() => store);
    const s = await host.get(null, now);
    expect(s.priorEffective.blog).toBeLessThan(DEFAULT_SOURCE_LAMBDAS.blog);
    expect(s.priorTable.blog).toBe(DEFAULT_SOURCE_LAMBDAS.blog);
    expect(s.documentAdjustments).toBe(1);
    await host.update({ values: { budget: 500 } });
    await host.reset();
    const r = await host.get(null, now);
    expect(r.values).toEqual(DEFAULT_APP_SETTINGS);
    expect(r.priorEffective).toEqual(DEFAULT_SOURCE_LAMBDAS);
    expect(r.documentAdjustments).toBe(0);
  });
});

describe('profileSummaries', () => {
  it('lists Embedded and Enhanced with per-role sizes from the manifest', () => {
    const [embedded, enhanced] = profileSummaries();
    expect(embedded?.name).toBe('embedded');
    expect(enhanced?.name).toBe('enhanced');
    const embedder = embedded!.roles.find((r) => r.role === 'embedder');
    expect(embedder).toMatchObject({ id: 'use-lite', source: 'bundled', estimated: false });
    expect(embedder!.bytes).toBeGreaterThan(20_000_000);
    expect(embedded!.roles.filter((r) => r.id === null).map((r) => r.role)).toEqual([
      'cross-encoder',
      'nli',
      'generator',
    ]);
    expect(enhanced!.roles.every((r) => r.id !== null)).toBe(true);
    expect(enhanced!.totalBytes).toBe(enhanced!.roles.reduce((s, r) => s + (r.bytes ?? 0), 0));
  });
});
