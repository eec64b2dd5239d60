/**
 * The user's settings and source priors in the worker: read from and written to IndexedDB's
 * `settings` and `priors` stores when the library is stored there, kept in memory for the tab
 * otherwise (and then reported as not persistent). Runtime-neutral: tested in Node with
 * `MemoryPriorStore` and a map of settings.
 */
import manifestJson from '../../models/manifest.json';
import { EvidentError } from '../core/errors';
import {
  DEFAULT_SOURCE_LAMBDAS,
  createPriorState,
  sourceLambda,
  type PriorState,
  type PriorStore,
} from '../core/select/priors';
import { SOURCE_TYPES, type SourceType } from '../core/types';
import { PROFILE_NAMES, parseManifest, summarizeProfiles, type Manifest } from '../models/manifest';
import type { EmbedderInfo } from './api';
import type { AppSettingValues, AppSettings, ProfileSummary, SettingsPatch } from './ask-api';

/**
 * Defaults. Budget: the evidence budget `pack` derives from its own defaults (4096-token context −
 * 300 prompt − 512 answer reserve − 5 % margin ≈ 3,080, less the question), rounded down.
 * MMR λ 0.7 (Carbonell & Goldstein 1998; RAG guide). Cutoff bounds 1…12 (RAG guide cascade:
 * selection of 5–12; at least one passage).
 */
export const DEFAULT_APP_SETTINGS: AppSettingValues = Object.freeze({
  profile: 'embedded',
  hubConsent: false,
  budget: 3000,
  mmrLambda: 0.7,
  cutoffBounds: Object.freeze({ min: 1, max: 12 }),
  // Socrates-RAG's budget: two follow-up queries, three records each (src/core/inquiry).
  inquiry: Object.freeze({ budget: 2, topR: 3 }),
  // On: a scanned page is read rather than dropped; its OCR data loads only when one is met.
  ocr: true,
});

/** Follow-up queries a user may allow (0 turns inquiry off), and records read per query. */
export const INQUIRY_RANGE = Object.freeze({ budget: { min: 0, max: 5 }, topR: { min: 1, max: 10 } });

export const BUDGET_RANGE = Object.freeze({ min: 200, max: 100_000 });
/** Most passages a cutoff may keep (the pack budget usually binds first). */
export const MAX_CUTOFF = 50;

/** What settings need from storage (`Library` in the worker). */
export interface SettingsStore {
  getSetting(key: keyof AppSettingValues): Promise<unknown>;
  setSetting(key: keyof AppSettingValues, value: AppSettingValues[keyof AppSettingValues]): Promise<void>;
  readonly priors: PriorStore;
}

const VALUE_KEYS = Object.keys(DEFAULT_APP_SETTINGS) as (keyof AppSettingValues)[];

/** Validates a settings patch: unknown keys and bad values throw `invalid_input` naming them. */
export function validateValues(patch: unknown): Partial<AppSettingValues> {
  if (typeof patch !== 'object' || patch === null)
    throw new EvidentError('invalid_input', 'Settings: expected an object.');
  const p = patch as Record<string, unknown>;
  for (const k of Object.keys(p)) {
    if (!(VALUE_KEYS as string[]).includes(k)) {
      throw new EvidentError('invalid_input', `Settings: unknown setting "${k}". Allowed: ${VALUE_KEYS.join(', ')}.`);
    }
  }
  const out: { -readonly [K in keyof AppSettingValues]?: AppSettingValues[K] } = {};
  if (p.profile !== undefined) {
    if (!(PROFILE_NAMES as readonly unknown[]).includes(p.profile)) {
      throw new EvidentError(
        'invalid_input',
        `Settings: profile must be one of ${PROFILE_NAMES.join(', ')}, got "${String(p.profile)}".`,
      );
    }
    out.profile = p.profile as AppSettingValues['profile'];
  }
  if (p.hubConsent !== undefined) {
    if (typeof p.hubConsent !== 'boolean') {
      throw new EvidentError('invalid_input', 'Settings: hubConsent must be true or false.');
    }
    out.hubConsent = p.hubConsent;
  }
  if (p.budget !== undefined) {
    const b = p.budget;
    if (typeof b !== 'number' || !Number.isInteger(b) || b < BUDGET_RANGE.min || b > BUDGET_RANGE.max) {
      throw new EvidentError(
        'invalid_input',
        `Settings: the evidence budget must be a whole number of tokens from ${BUDGET_RANGE.min} to ${BUDGET_RANGE.max}.`,
      );
    }
    out.budget = b;
  }
  if (p.mmrLambda !== undefined) {
    const l = p.mmrLambda;
    if (typeof l !== 'number' || !(l >= 0 && l <= 1)) {
      throw new EvidentError('invalid_input', 'Settings: MMR λ must be a number from 0 to 1.');
    }
    out.mmrLambda = l;
  }
  if (p.cutoffBounds !== undefined) {
    const c = p.cutoffBounds as { min?: unknown; max?: unknown } | null;
    const int = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
    if (
      typeof c !== 'object' ||
      c === null ||
      !int(c.min) ||
      !int(c.max) ||
      c.min < 1 ||
      c.max < c.min ||
      c.max > MAX_CUTOFF
    ) {
      throw new EvidentError(
        'invalid_input',
        `Settings: cutoff bounds must be whole numbers with 1 ≤ fewest ≤ most ≤ ${MAX_CUTOFF}.`,
      );
    }
    out.cutoffBounds = { min: c.min, max: c.max };
  }
  if (p.inquiry !== undefined) {
    const q = p.inquiry as { budget?: unknown; topR?: unknown } | null;
    const int = (x: unknown, r: { min: number; max: number }): x is number =>
      typeof x === 'number' && Number.isInteger(x) && x >= r.min && x <= r.max;
    if (
      typeof q !== 'object' ||
      q === null ||
      !int(q.budget, INQUIRY_RANGE.budget) ||
      !int(q.topR, INQUIRY_RANGE.topR)
    ) {
      throw new EvidentError(
        'invalid_input',
        `Settings: follow-up inquiry takes ${INQUIRY_RANGE.budget.min}–${INQUIRY_RANGE.budget.max} queries (0 turns it off) and ${INQUIRY_RANGE.topR.min}–${INQUIRY_RANGE.topR.max} passages per query.`,
      );
    }
    out.inquiry = { budget: q.budget, topR: q.topR };
  }
  if (p.ocr !== undefined) {
    if (typeof p.ocr !== 'boolean') throw new EvidentError('invalid_input', 'Settings: ocr must be true or false.');
    out.ocr = p.ocr;
  }
  return out;
}

/** Validates λ values per source type (each in [0, 1]). */
export function validatePriorTable(table: unknown): Partial<Record<SourceType, number>> {
  if (typeof table !== 'object' || table === null)
    throw new EvidentError('invalid_input', 'Priors: expected an object.');
  const out: Partial<Record<SourceType, number>> = {};
  for (const [k, v] of Object.entries(table)) {
    if (!(SOURCE_TYPES as readonly string[]).includes(k)) {
      throw new EvidentError(
        'invalid_input',
        `Priors: unknown source type "${k}". Allowed: ${SOURCE_TYPES.join(', ')}.`,
      );
    }
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) {
      throw new EvidentError('invalid_input', `Priors: λ of ${k} must be a number from 0 to 1.`);
    }
    out[k as SourceType] = v;
  }
  return out;
}

let manifestCache: Manifest | null = null;

/** Model profiles the user can choose (Embedded, Enhanced), with sizes and licenses from `models/manifest.json`. */
export function profileSummaries(
  manifest: Manifest = (manifestCache ??= parseManifest(manifestJson)),
): ProfileSummary[] {
  return summarizeProfiles(manifest, ['embedded', 'enhanced']);
}

export class SettingsHost {
  private memoryValues: AppSettingValues = DEFAULT_APP_SETTINGS;
  private memoryPriors: PriorState = createPriorState();
  /**
   * The stored values as last read or written: Settings opens without reading IndexedDB again,
   * whose reads queue behind the vector writes of a long embedding (one read per key, each
   * waiting for the worker's next free moment, took 1.5 s while a filing was embedded).
   */
  private cached: { readonly store: SettingsStore; readonly values: AppSettingValues } | null = null;

  /** `store()`: the stored library's settings, or null when it lives in memory (read on every call: it can go away). */
  constructor(private readonly store: () => SettingsStore | null) {}

  get persistent(): boolean {
    return this.store() !== null;
  }

  /** Reads the stored values again at the next call (another tab may have changed them). */
  forget(): void {
    this.cached = null;
  }

  async values(): Promise<AppSettingValues> {
    const store = this.store();
    if (!store) return this.memoryValues;
    if (this.cached?.store === store) return this.cached.values;
    let values: AppSettingValues = DEFAULT_APP_SETTINGS;
    for (const k of VALUE_KEYS) {
      const v = await store.getSetting(k);
      if (v === undefined) continue;
      try {
        values = { ...values, ...validateValues({ [k]: v }) };
      } catch {
        // A stored value this version cannot read: its default applies until the user saves again.
      }
    }
    this.cached = { store, values };
    return values;
  }

  async priors(): Promise<PriorState> {
    const store = this.store();
    return store ? store.priors.load() : this.memoryPriors;
  }

  async savePriors(state: PriorState): Promise<void> {
    const store = this.store();
    if (store) await store.priors.save(state);
    else this.memoryPriors = state;
  }

  async update(patch: SettingsPatch): Promise<void> {
    if (typeof patch !== 'object' || patch === null)
      throw new EvidentError('invalid_input', 'Settings: expected an object.');
    for (const k of Object.keys(patch)) {
      if (k !== 'values' && k !== 'priorTable') {
        throw new EvidentError('invalid_input', `Settings: unknown field "${k}". Allowed: values, priorTable.`);
      }
    }
    // Validate everything before writing anything.
    const values = patch.values === undefined ? {} : validateValues(patch.values);
    const table = patch.priorTable === undefined ? null : validatePriorTable(patch.priorTable);
    const store = this.store();
    if (store) {
      // Read before writing, so the cache starts from what is stored.
      const before = await this.values();
      this.cached = null;
      for (const [k, v] of Object.entries(values)) {
        await store.setSetting(k as keyof AppSettingValues, v as AppSettingValues[keyof AppSettingValues]);
      }
      this.cached = { store, values: { ...before, ...values } };
    } else {
      this.memoryValues = { ...this.memoryValues, ...values };
    }
    if (table) {
      const state = await this.priors();
      await this.savePriors({ ...state, table: { ...state.table, ...table } });
    }
  }

  /** Every setting and λ back to its default; learned feedback is forgotten too. */
  async reset(): Promise<void> {
    const store = this.store();
    if (store) {
      this.cached = null;
      for (const k of VALUE_KEYS) await store.setSetting(k, DEFAULT_APP_SETTINGS[k]);
      this.cached = { store, values: DEFAULT_APP_SETTINGS };
    } else {
      this.memoryValues = DEFAULT_APP_SETTINGS;
    }
    await this.savePriors(createPriorState());
  }

  async get(embedder: EmbedderInfo | null, now = Date.now()): Promise<AppSettings> {
    const [values, priors] = await Promise.all([this.values(), this.priors()]);
    const effective = {} as Record<SourceType, number>;
    for (const t of SOURCE_TYPES) effective[t] = sourceLambda(priors, t, now);
    return {
      values,
      defaults: DEFAULT_APP_SETTINGS,
      priorTable: { ...priors.table },
      priorDefaults: { ...DEFAULT_SOURCE_LAMBDAS },
      priorEffective: effective,
      documentAdjustments: Object.keys(priors.docs).length,
      persistent: this.persistent,
      profiles: profileSummaries(),
      embedder,
    };
  }
}
