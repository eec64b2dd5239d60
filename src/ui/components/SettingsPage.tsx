import { useEffect, useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { SOURCE_TYPES, type SourceType } from '../../core/types';
import type { AppSettingValues, AppSettings, ProfileSummary } from '../../worker/ask-api';
import type { EmbedderInfo } from '../../worker/api';
import { formatBytes } from '../format';
import { SOURCE_TYPE_LABEL } from '../labels';
import type { SettingsStore } from '../settings-store';
import { ProgressBar } from './ProgressBar';

interface Props {
  readonly store: SettingsStore;
  /** The embedder as the session knows it (null until loaded). */
  readonly embedder: EmbedderInfo | null;
  readonly pageIsolated: boolean;
}

const ROLE_LABEL = {
  embedder: 'Embedder',
  'cross-encoder': 'Reranker (cross-encoder)',
  nli: 'Contradiction check (NLI)',
  generator: 'Answer writer (generator)',
} as const;

/** Settings: model profile, device, source priors, and the selection knobs; saved in this browser. */
export function SettingsPage({ store, embedder, pageIsolated }: Props) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { settings } = state;
  // Read afresh whenever the page is shown: feedback given on the Ask page changes the λ values.
  useEffect(() => {
    void store.load();
  }, [store]);
  if (!settings) {
    return (
      <div className="settings-page">
        <p className="muted" role="status">
          {state.loading ? 'Reading settings…' : (state.message?.text ?? 'Settings are not available yet.')}
        </p>
      </div>
    );
  }
  // Remount the forms when the stored values change (after a save or a reset) so drafts restart from them.
  const version = JSON.stringify([settings.values, settings.priorTable]);
  return (
    <div className="settings-page">
      <p className="muted">
        {settings.persistent
          ? 'Settings are saved in this browser.'
          : 'This browser does not keep data for this page: settings last until the tab closes.'}
      </p>
      <div
        role="status"
        aria-live="polite"
        className={state.message?.kind === 'error' ? 'error' : 'muted'}
        data-testid="settings-message"
      >
        {state.message?.text}
      </div>
      <ProfileSection key={`p${version}`} settings={settings} store={store} />
      <DeviceSection embedder={embedder ?? settings.embedder} pageIsolated={pageIsolated} store={store} />
      <PriorsSection key={`l${version}`} settings={settings} store={store} saving={state.saving} />
      <SelectionSection key={`s${version}`} settings={settings} store={store} saving={state.saving} />
      <section className="panel" aria-labelledby="reset-heading">
        <h2 id="reset-heading">Defaults</h2>
        <p className="muted">
          Puts every setting and reliability value back to its default, and forgets helpful / misleading feedback.
        </p>
        <button type="button" className="secondary" disabled={state.saving} onClick={() => void store.reset()}>
          Reset to defaults
        </button>
      </section>
    </div>
  );
}

function profileSize(p: ProfileSummary): string {
  const estimated = p.roles.some((r) => r.estimated);
  return `${estimated ? 'about ' : ''}${formatBytes(p.totalBytes)}`;
}

function ProfileSection({ settings, store }: { readonly settings: AppSettings; readonly store: SettingsStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const [allowRemote, setAllowRemote] = useState(false);
  const name = useId();
  const chosen = settings.values.profile;
  const load = state.profileLoad;
  return (
    <section className="panel" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Model profile</h2>
      <fieldset className="profiles">
        <legend className="visually-hidden">Model profile</legend>
        {settings.profiles.map((p) => (
          <label key={p.name} className={`profile-option${chosen === p.name ? ' chosen' : ''}`}>
            <input
              type="radio"
              name={name}
              value={p.name}
              checked={chosen === p.name}
              onChange={() => void store.update({ values: { profile: p.name as AppSettingValues['profile'] } })}
            />
            <span className="profile-name">
              {p.name === 'embedded' ? 'Embedded' : 'Enhanced'} <span className="muted">({profileSize(p)})</span>
            </span>
            <span className="muted profile-desc">{p.description}</span>
            <ul className="roles">
              {p.roles.map((r) => (
                <li key={r.role}>
                  {ROLE_LABEL[r.role]}:{' '}
                  {r.id ? (
                    <>
                      <code>{r.id}</code>
                      {r.bytes !== null && ` · ${r.estimated ? '≈ ' : ''}${formatBytes(r.bytes)}`}
                      {r.source && ` · ${r.source}`}
                    </>
                  ) : (
                    <span className="muted">model-free method</span>
                  )}
                </li>
              ))}
            </ul>
          </label>
        ))}
      </fieldset>
      {chosen === 'enhanced' && (
        <div className="profile-load">
          <label className="check">
            <input type="checkbox" checked={allowRemote} onChange={(e) => setAllowRemote(e.target.checked)} />
            Allow downloading models that are not on this site from the Hugging Face Hub (the only requests that would
            leave this page; your documents never do)
          </label>
          <div className="inline-row">
            <button
              type="button"
              disabled={load.phase === 'loading'}
              onClick={() => void store.loadProfile('enhanced', allowRemote)}
            >
              Load the Enhanced models
            </button>
            {load.phase === 'loading' && (
              <button type="button" className="secondary" onClick={() => store.cancelProfileLoad()}>
                Cancel
              </button>
            )}
          </div>
          {load.phase === 'loading' && (
            <ProgressBar
              label={load.progress ? `Loading ${load.progress.modelId}` : 'Loading models'}
              done={load.progress?.loadedBytes ?? 0}
              total={load.progress?.totalBytes ?? 0}
              bytes
            />
          )}
          {load.phase === 'error' && (
            <p className="error" role="alert">
              The Enhanced models could not be loaded: {load.error.message}
            </p>
          )}
          {load.phase === 'ready' && (
            <ul className="roles" aria-label="Loaded models">
              {Object.entries(load.result.roles).map(([role, r]) => (
                <li key={role}>
                  {ROLE_LABEL[role as keyof typeof ROLE_LABEL]}:{' '}
                  {r
                    ? `${r.id} on ${r.device ?? 'TF.js'}${r.fallbackReason ? ` (${r.fallbackReason})` : ''}`
                    : 'model-free method'}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function DeviceSection({
  embedder,
  pageIsolated,
  store,
}: {
  readonly embedder: EmbedderInfo | null;
  readonly pageIsolated: boolean;
  readonly store: SettingsStore;
}) {
  const { profileLoad } = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <section className="panel" aria-labelledby="device-heading" data-testid="device">
      <h2 id="device-heading">Device</h2>
      {embedder ? (
        <dl className="facts">
          <dt>Embedder</dt>
          <dd>
            {embedder.id} ({embedder.dim}-d)
          </dd>
          <dt>Backend</dt>
          <dd data-testid="device-backend">
            {embedder.backend.name}
            {embedder.backend.name === 'wasm' &&
              `, ${embedder.backend.threads} thread${embedder.backend.threads === 1 ? '' : 's'}${embedder.backend.simd ? ', SIMD' : ''}`}
          </dd>
          <dt>Why this backend</dt>
          <dd>{embedder.backend.reason}</dd>
          <dt>Cross-origin isolated</dt>
          <dd>
            {embedder.backend.crossOriginIsolated ? 'yes (multithreaded WASM possible)' : 'no (single-threaded WASM)'}
            {pageIsolated !== embedder.backend.crossOriginIsolated && ' — the page and the worker differ'}
          </dd>
          {profileLoad.phase === 'ready' &&
            Object.entries(profileLoad.result.roles)
              .filter(([, r]) => r !== null && r.runtime === 'transformers')
              .map(([role, r]) => (
                <div key={role} className="facts-row">
                  <dt>{ROLE_LABEL[role as keyof typeof ROLE_LABEL]}</dt>
                  <dd>
                    {r!.device}
                    {r!.fallbackReason && ` — fell back: ${r!.fallbackReason}`}
                  </dd>
                </div>
              ))}
        </dl>
      ) : (
        <p className="muted">The embedding model is still loading.</p>
      )}
    </section>
  );
}

function PriorsSection({
  settings,
  store,
  saving,
}: {
  readonly settings: AppSettings;
  readonly store: SettingsStore;
  readonly saving: boolean;
}) {
  const [draft, setDraft] = useState<Record<SourceType, string>>(
    () =>
      Object.fromEntries(SOURCE_TYPES.map((t) => [t, String(settings.priorTable[t])])) as Record<SourceType, string>,
  );
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const table: Partial<Record<SourceType, number>> = {};
    for (const t of SOURCE_TYPES) {
      const v = Number(draft[t]);
      if (draft[t].trim() === '' || !(v >= 0 && v <= 1)) {
        setError(`λ of “${SOURCE_TYPE_LABEL[t]}” must be a number from 0 to 1.`);
        return;
      }
      table[t] = v;
    }
    setError(null);
    void store.update({ priorTable: table });
  };
  return (
    <section className="panel" aria-labelledby="priors-heading">
      <h2 id="priors-heading">Source reliability (priors)</h2>
      <p className="muted">
        A passage's relevance is multiplied by its source type's λ (source-aware reranking). Helpful / misleading marks
        on cited passages move a document's λ from there
        {settings.documentAdjustments > 0 &&
          ` (${settings.documentAdjustments} document${settings.documentAdjustments === 1 ? '' : 's'} adjusted so far)`}
        .
      </p>
      <form onSubmit={submit}>
        <div className="table-scroll">
          <table className="priors" data-testid="priors">
            <thead>
              <tr>
                <th scope="col">Source type</th>
                <th scope="col">Default</th>
                <th scope="col">Your λ</th>
                <th scope="col">With feedback</th>
              </tr>
            </thead>
            <tbody>
              {SOURCE_TYPES.map((t) => (
                <tr key={t} data-source-type={t}>
                  <th scope="row">
                    <label htmlFor={`lambda-${t}`}>{SOURCE_TYPE_LABEL[t]}</label>
                  </th>
                  <td>{settings.priorDefaults[t].toFixed(2)}</td>
                  <td>
                    <input
                      id={`lambda-${t}`}
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={1}
                      step={0.05}
                      value={draft[t]}
                      onChange={(e) => setDraft({ ...draft, [t]: e.target.value })}
                    />
                  </td>
                  <td>{settings.priorEffective[t].toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={saving}>
          Save reliability values
        </button>
      </form>
    </section>
  );
}

function SelectionSection({
  settings,
  store,
  saving,
}: {
  readonly settings: AppSettings;
  readonly store: SettingsStore;
  readonly saving: boolean;
}) {
  const v = settings.values;
  const [budget, setBudget] = useState(String(v.budget));
  const [lambda, setLambda] = useState(v.mmrLambda);
  const [min, setMin] = useState(String(v.cutoffBounds.min));
  const [max, setMax] = useState(String(v.cutoffBounds.max));
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void store.update({
      values: { budget: Number(budget), mmrLambda: lambda, cutoffBounds: { min: Number(min), max: Number(max) } },
    });
  };
  return (
    <section className="panel" aria-labelledby="selection-heading">
      <h2 id="selection-heading">Evidence selection</h2>
      <form className="settings-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="budget">Evidence budget (tokens)</label>
          <input
            id="budget"
            type="number"
            inputMode="numeric"
            min={200}
            max={100000}
            step={100}
            value={budget}
            onChange={(e) => setBudget(e.target.value)}
          />
          <p className="muted">The packed passages never exceed it. Default {settings.defaults.budget}.</p>
        </div>
        <div className="field">
          <label htmlFor="mmr-lambda">Relevance vs diversity (MMR λ)</label>
          <div className="inline-row">
            <input
              id="mmr-lambda"
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={lambda}
              onChange={(e) => setLambda(Number(e.target.value))}
            />
            <output htmlFor="mmr-lambda">{lambda.toFixed(2)}</output>
          </div>
          <p className="muted">
            1 ranks by relevance alone; lower values prefer passages unlike those already chosen. Default{' '}
            {settings.defaults.mmrLambda}.
          </p>
        </div>
        <fieldset className="field">
          <legend>Passages kept by the cutoff</legend>
          <div className="inline-row">
            <label htmlFor="cutoff-min">Fewest</label>
            <input
              id="cutoff-min"
              type="number"
              inputMode="numeric"
              min={1}
              max={50}
              value={min}
              onChange={(e) => setMin(e.target.value)}
            />
            <label htmlFor="cutoff-max">Most</label>
            <input
              id="cutoff-max"
              type="number"
              inputMode="numeric"
              min={1}
              max={50}
              value={max}
              onChange={(e) => setMax(e.target.value)}
            />
          </div>
          <p className="muted">
            The cut falls at the elbow of the sorted scores, within these bounds. Default{' '}
            {settings.defaults.cutoffBounds.min}–{settings.defaults.cutoffBounds.max}.
          </p>
        </fieldset>
        <button type="submit" disabled={saving}>
          Save selection settings
        </button>
      </form>
    </section>
  );
}
