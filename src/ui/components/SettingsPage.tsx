import { useEffect, useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import manifestJson from '../../../models/manifest.json';
import { parseManifest, summarizeProfiles, type ProfileSummary } from '../../models/manifest';
import { SOURCE_TYPES, type SourceType } from '../../core/types';
import type { AppSettingValues, AppSettings } from '../../worker/ask-api';
import type { EmbedderInfo } from '../../worker/api';
import type { LoadedRole, ModelStatusReport, ProfileLoadResult } from '../../worker/models-api';
import { formatBytes, formatMs, plural } from '../format';
import { PROFILE_LABEL, SOURCE_TYPE_LABEL } from '../labels';
import type { ConsentPrompt, SettingsStore } from '../settings-store';
import { BackendFacts } from './ModelStatus';
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

const SOURCE_LABEL = {
  bundled: 'shipped with this app',
  'self-hosted': 'from this site',
  hub: 'this site, else huggingface.co',
} as const;

/**
 * The tiny generated test models are offered only with `?test-models` in the address: they check
 * the plumbing (e2e tests) and write nonsense, so a user never picks them by accident.
 */
function testModelsRequested(): boolean {
  return typeof location !== 'undefined' && new URLSearchParams(location.search).has('test-models');
}

let testProfiles: ProfileSummary[] | null = null;
function tinyProfile(): ProfileSummary {
  testProfiles ??= summarizeProfiles(parseManifest(manifestJson), ['tiny']);
  return testProfiles[0] as ProfileSummary;
}

/** Settings: model profiles, consent for downloads, devices, source priors, the selection knobs; saved in this browser. */
export function SettingsPage({ store, embedder, pageIsolated }: Props) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { settings } = state;
  // Read afresh whenever the page is shown: feedback given on the Ask page changes the λ values.
  useEffect(() => {
    void store.load();
    return () => store.dispose();
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
      <ProfileSection settings={settings} store={store} />
      <DeviceSection
        embedder={embedder ?? settings.embedder}
        pageIsolated={pageIsolated}
        models={state.models}
        loaded={state.profileLoad.phase === 'ready' ? state.profileLoad.result : null}
      />
      <PriorsSection key={`l${version}`} settings={settings} store={store} saving={state.saving} />
      <SelectionSection key={`s${version}`} settings={settings} store={store} saving={state.saving} />
      <OcrSection settings={settings} store={store} saving={state.saving} />
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

interface RadioControl {
  readonly group: string;
  readonly checked: boolean;
  readonly onChange: () => void;
}

/** One profile: what fills each role, from where, how big, under which license (the manifest). */
function ProfileCard({ profile, radio }: { readonly profile: ProfileSummary; readonly radio?: RadioControl }) {
  const title = (
    <span className="profile-name">
      {PROFILE_LABEL[profile.name]} <span className="muted">({profileSize(profile)})</span>
    </span>
  );
  return (
    <div
      className={`profile-option${radio?.checked ? ' chosen' : ''}`}
      data-profile={profile.name}
      data-testid={`profile-${profile.name}`}
    >
      {radio ? (
        <label className="profile-head">
          <input
            type="radio"
            name={radio.group}
            value={profile.name}
            checked={radio.checked}
            onChange={radio.onChange}
          />
          {title}
        </label>
      ) : (
        title
      )}
      <span className="muted profile-desc">{profile.description}</span>
      <div className="table-scroll">
        <table className="roles" aria-label={`${PROFILE_LABEL[profile.name]} models`}>
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">Model</th>
              <th scope="col">Size</th>
              <th scope="col">License</th>
              <th scope="col">Loaded from</th>
            </tr>
          </thead>
          <tbody>
            {profile.roles.map((r) => (
              <tr key={r.role} data-role={r.role}>
                <th scope="row">{ROLE_LABEL[r.role]}</th>
                {r.id ? (
                  <>
                    <td>
                      <code>{r.id}</code> <span className="muted">{r.dtype}</span>
                    </td>
                    <td>{r.bytes !== null ? `${r.estimated ? '≈ ' : ''}${formatBytes(r.bytes)}` : '–'}</td>
                    <td>{r.license}</td>
                    <td>{r.source ? SOURCE_LABEL[r.source] : '–'}</td>
                  </>
                ) : (
                  <td colSpan={4} className="muted">
                    model-free method
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ProfileSection({ settings, store }: { readonly settings: AppSettings; readonly store: SettingsStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const name = useId();
  const chosen = settings.values.profile;
  const load = state.profileLoad;
  const loaded = load.phase === 'ready' ? load.result.profile : null;
  const enhanced = settings.profiles.find((p) => p.name === 'enhanced');
  const choose = (profile: AppSettingValues['profile']): void => {
    void store.update({ values: { profile } });
    // Embedded needs no download: release whatever a profile loaded (or stop loading it).
    if (profile === 'embedded' && load.phase !== 'idle') void store.releaseProfile();
  };
  return (
    <section className="panel" aria-labelledby="profile-heading" data-testid="profiles">
      <h2 id="profile-heading">Model profile</h2>
      <fieldset className="profiles">
        <legend className="visually-hidden">Model profile</legend>
        {settings.profiles.map((p) => (
          <ProfileCard
            key={p.name}
            profile={p}
            radio={{
              group: name,
              checked: chosen === p.name,
              onChange: () => choose(p.name as AppSettingValues['profile']),
            }}
          />
        ))}
      </fieldset>
      <p className="muted">
        Your choice is remembered: Evident loads the chosen models again when it starts. The library&apos;s vectors of
        the profile you leave are kept (two embedding models at most), so switching back does not re-embed it.
      </p>
      {chosen === 'enhanced' && enhanced && (
        <div className="profile-load">
          <HubConsentLine store={store} />
          <div className="inline-row">
            <button type="button" disabled={load.phase === 'loading'} onClick={() => void store.loadProfile(enhanced)}>
              {loaded === 'enhanced' ? 'Reload the Enhanced models' : 'Load the Enhanced models'}
            </button>
          </div>
        </div>
      )}
      {testModelsRequested() && (
        <div className="profile-load" data-testid="test-models">
          <ProfileCard profile={tinyProfile()} />
          <p className="muted">For testing the model plumbing only: these models write nonsense.</p>
          <button
            type="button"
            disabled={load.phase === 'loading'}
            onClick={() => void store.loadProfile(tinyProfile())}
          >
            Load the tiny test models
          </button>
        </div>
      )}
      {state.consentPrompt && <HubConsent prompt={state.consentPrompt} store={store} />}
      <LoadState store={store} />
      <Reembedding models={state.models} />
    </section>
  );
}

function HubConsentLine({ store }: { readonly store: SettingsStore }) {
  const { hubConsent } = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <p className="muted" data-testid="hub-consent" data-consent={hubConsent ? 'yes' : 'no'}>
      {hubConsent ? (
        <>
          Downloads from huggingface.co are allowed (remembered in this browser: models missing from this site and from
          the browser cache are downloaded when the profile loads, also when Evident starts).{' '}
          <button type="button" className="secondary small" onClick={() => void store.revokeHubConsent()}>
            Withdraw
          </button>
        </>
      ) : (
        'Models are read from this site and the browser cache first. If one is not there, you will be asked before anything is downloaded from huggingface.co.'
      )}
    </p>
  );
}

/** The question before any Hub download: which models, how big, under which license. */
function HubConsent({ prompt, store }: { readonly prompt: ConsentPrompt; readonly store: SettingsStore }) {
  const heading = useId();
  const total = prompt.models.reduce((a, m) => a + (m.bytes ?? 0), 0);
  const estimated = prompt.models.some((m) => m.estimated);
  return (
    <div className="consent panel" role="alertdialog" aria-labelledby={heading} data-testid="hub-consent-prompt">
      <h3 id={heading}>Download models from huggingface.co?</h3>
      <p>
        Some {PROFILE_LABEL[prompt.profile.name]} models are not on this site. Evident can download those of the models
        below that are missing from the Hugging Face Hub ({estimated ? 'up to about ' : 'up to '}
        {formatBytes(total)}) and keep them in this browser. Only model files are requested: your documents and
        questions never leave this page.
      </p>
      <details className="muted">
        <summary>What was not found</summary>
        {prompt.reason}
      </details>
      <ul>
        {prompt.models.map((m) => (
          <li key={m.role}>
            {ROLE_LABEL[m.role]}: <code>{m.id}</code>
            {m.bytes !== null && ` · ${m.estimated ? '≈ ' : ''}${formatBytes(m.bytes)}`} · {m.license}
          </li>
        ))}
      </ul>
      <div className="inline-row">
        <button type="button" onClick={() => void store.allowHubDownloads()}>
          Download from huggingface.co
        </button>
        <button type="button" className="secondary" onClick={() => store.declineHubDownloads()}>
          Not now
        </button>
      </div>
    </div>
  );
}

/** Devices of the loaded roles: where each runs, and why not on an earlier device. */
function RoleDevices({ roles }: { readonly roles: ProfileLoadResult['roles'] }) {
  return (
    <ul className="roles" aria-label="Loaded models" data-testid="loaded-roles">
      {Object.entries(roles).map(([role, r]: [string, LoadedRole | null]) => (
        <li key={role} data-role={role} data-device={r?.device ?? 'none'}>
          {ROLE_LABEL[role as keyof typeof ROLE_LABEL]}:{' '}
          {r
            ? `${r.id} on ${r.device ?? 'TF.js (see Device)'}${r.runtime === 'transformers' ? `, ${formatMs(r.loadMs)}` : ''}${r.cachedFiles > 0 ? `, ${plural(r.cachedFiles, 'file')} from the browser cache` : ''}${r.fallbackReason ? ` — fell back: ${r.fallbackReason}` : ''}`
            : 'model-free method'}
        </li>
      ))}
    </ul>
  );
}

function LoadState({ store }: { readonly store: SettingsStore }) {
  const { profileLoad: load } = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <div
      data-testid="profile-load"
      data-state={load.phase}
      data-profile={'profile' in load ? load.profile : load.phase === 'ready' ? load.result.profile : undefined}
      data-at-startup={'atStartup' in load && load.atStartup ? 'yes' : undefined}
    >
      {load.phase === 'loading' && (
        <>
          {load.atStartup && (
            <p className="muted" role="status">
              Loading the {PROFILE_LABEL[load.profile]} models you chose last time. Until they are loaded, Ask uses the
              Embedded profile.
            </p>
          )}
          <ProgressBar
            label={load.progress ? `Loading ${load.progress.modelId}` : 'Loading models'}
            done={load.progress?.loadedBytes ?? 0}
            total={load.progress?.totalBytes ?? 0}
            bytes
          />
          <button type="button" className="secondary" onClick={() => store.cancelProfileLoad()}>
            Cancel
          </button>
        </>
      )}
      {load.phase === 'error' && (
        <p className="error" role="alert" data-at-startup={load.atStartup ? 'yes' : undefined}>
          {load.atStartup
            ? `The ${PROFILE_LABEL[load.profile]} models you chose could not be loaded when Evident started, so the Embedded profile is in use: ${load.error.message}`
            : `The ${PROFILE_LABEL[load.profile]} models could not be loaded: ${load.error.message}`}
        </p>
      )}
      {load.phase === 'ready' && (
        <>
          <p>
            {PROFILE_LABEL[load.result.profile]} models loaded.{' '}
            <button type="button" className="secondary small" onClick={() => void store.releaseProfile()}>
              Release them
            </button>
          </p>
          <RoleDevices roles={load.result.roles} />
        </>
      )}
    </div>
  );
}

/** The library re-embedded for a new embedder: progress, and what search does meanwhile. */
function Reembedding({ models }: { readonly models: ModelStatusReport | null }) {
  const r = models?.reembed;
  if (!r || r.state === 'idle') return null;
  return (
    <div data-testid="reembed" data-state={r.state} data-total={r.total}>
      {r.state === 'running' && (
        <>
          <p>Re-embedding your library with {r.embedderId}: until it is done, search and Ask use keywords only.</p>
          <ProgressBar label="Passages re-embedded" done={r.done} total={r.total} />
        </>
      )}
      {r.state === 'done' && r.total > 0 && (
        <p className="muted">
          Library re-embedded with {r.embedderId} ({plural(r.total, 'passage')} in {formatMs(r.ms)}).
        </p>
      )}
      {r.state === 'failed' && (
        <p className="error" role="alert">
          Re-embedding with {r.embedderId} stopped: {r.error?.message} Search uses keywords only; load the profile again
          to retry.
        </p>
      )}
    </div>
  );
}

function DeviceSection({
  embedder,
  pageIsolated,
  models,
  loaded,
}: {
  readonly embedder: EmbedderInfo | null;
  readonly pageIsolated: boolean;
  readonly models: ModelStatusReport | null;
  readonly loaded: ProfileLoadResult | null;
}) {
  return (
    <section className="panel" aria-labelledby="device-heading" data-testid="device">
      <h2 id="device-heading">Device</h2>
      <p className="muted" data-testid="device-summary">
        {embedder
          ? `The embedding model runs in this tab on ${runtimeName(embedder)}.`
          : 'The embedding model is still loading.'}{' '}
        Everything runs on this device; nothing is sent anywhere.
      </p>
      {models && (
        <p className="muted">
          Meaning vectors by{' '}
          <span data-testid="active-embedder">
            {models.activeEmbedder ?? 'none yet'}
            {models.denseOnHold && ' (re-embedding: keywords only until done)'}
          </span>
          .
        </p>
      )}
      <details className="runtime-details">
        <summary>Details</summary>
        <h3>Embedded model (TF.js)</h3>
        {embedder ? (
          <BackendFacts info={embedder} pageIsolated={pageIsolated} backendTestId="device-backend" />
        ) : (
          <p className="muted">The embedding model is still loading.</p>
        )}
        <h3>Transformers.js models (Enhanced)</h3>
        <TransformersDevices models={models} loaded={loaded} />
      </details>
    </section>
  );
}

/** A runtime as a person reads it: "WebAssembly, 2 threads". */
function runtimeName(info: EmbedderInfo): string {
  const b = info.backend;
  if (b.name === 'webgpu') return 'the GPU (WebGPU)';
  if (b.name === 'cpu') return 'the processor (plain JavaScript, slow)';
  const workers = info.workers ?? 0;
  return workers > 0
    ? `WebAssembly, passages on ${workers} worker${workers === 1 ? '' : 's'} side by side`
    : `WebAssembly, ${b.threads} thread${b.threads === 1 ? '' : 's'}`;
}

/** Where the Transformers.js models run: WebGPU or WASM (and why), and the dense side now. */
function TransformersDevices({
  models,
  loaded,
}: {
  readonly models: ModelStatusReport | null;
  readonly loaded: ProfileLoadResult | null;
}) {
  const devices = models?.devices;
  return (
    <>
      {devices ? (
        <dl className="facts" data-testid="transformers-devices">
          <dt>WebGPU</dt>
          <dd data-testid="webgpu" data-available={devices.webgpuUnavailable === null ? 'yes' : 'no'}>
            {devices.webgpuUnavailable === null
              ? 'available: models run on the GPU, WASM is the fallback'
              : `not available, so models run on WASM: ${devices.webgpuUnavailable}`}
          </dd>
          <dt>WASM</dt>
          <dd>
            {devices.wasmThreads} thread{devices.wasmThreads === 1 ? '' : 's'}
            {devices.cores !== null && ` on ${devices.cores} logical core${devices.cores === 1 ? '' : 's'}`}
            {devices.crossOriginIsolated
              ? ' (cross-origin isolated: multithreaded WASM)'
              : ' (not cross-origin isolated: single-threaded WASM)'}
          </dd>
        </dl>
      ) : (
        <p className="muted">Reading the devices…</p>
      )}
      {loaded && <RoleDevices roles={loaded.roles} />}
    </>
  );
}

/** What each form section of the page gets: the settings, the store that saves them, whether a save is running. */
interface FormSectionProps {
  readonly settings: AppSettings;
  readonly store: SettingsStore;
  readonly saving: boolean;
}

function PriorsSection({ settings, store, saving }: FormSectionProps) {
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

function SelectionSection({ settings, store, saving }: FormSectionProps) {
  const v = settings.values;
  const [budget, setBudget] = useState(String(v.budget));
  const [lambda, setLambda] = useState(v.mmrLambda);
  const [min, setMin] = useState(String(v.cutoffBounds.min));
  const [max, setMax] = useState(String(v.cutoffBounds.max));
  const [queries, setQueries] = useState(String(v.inquiry.budget));
  const [perQuery, setPerQuery] = useState(String(v.inquiry.topR));
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void store.update({
      values: {
        budget: Number(budget),
        mmrLambda: lambda,
        cutoffBounds: { min: Number(min), max: Number(max) },
        inquiry: { budget: Number(queries), topR: Number(perQuery) },
      },
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
            <NumberField id="cutoff-min" label="Fewest" min={1} max={50} value={min} onChange={setMin} />
            <NumberField id="cutoff-max" label="Most" min={1} max={50} value={max} onChange={setMax} />
          </div>
          <p className="muted">
            The cut falls at the elbow of the sorted scores, within these bounds (over long documents selection keeps at
            least 20, which can pass “Most”; the token budget still trims). Default {settings.defaults.cutoffBounds.min}
            –{settings.defaults.cutoffBounds.max}.
          </p>
        </fieldset>
        <fieldset className="field">
          <legend>Follow-up inquiry</legend>
          <div className="inline-row">
            <NumberField
              id="inquiry-queries"
              label="Follow-up searches"
              min={0}
              max={5}
              value={queries}
              onChange={setQueries}
            />
            <NumberField
              id="inquiry-per-query"
              label="Passages each"
              min={1}
              max={10}
              value={perQuery}
              onChange={setPerQuery}
            />
          </div>
          <p className="muted">
            When the first passages leave a question unresolved (they disagree, miss part of it, or point to a record
            they do not contain), Evident searches for the record that would settle it, and answers only when that
            record is found. 0 searches turns it off. Default {settings.defaults.inquiry.budget} searches,{' '}
            {settings.defaults.inquiry.topR} passages each.
          </p>
        </fieldset>
        <button type="submit" disabled={saving}>
          Save selection settings
        </button>
      </form>
    </section>
  );
}

/** A labelled whole-number input of the selection form. */
function NumberField({
  id,
  label,
  min,
  max,
  value,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}

/** OCR of scanned PDF pages: on by default; its files load only when a page without text is met. */
function OcrSection({ settings, store, saving }: FormSectionProps) {
  const on = settings.values.ocr;
  return (
    <section className="panel" aria-labelledby="ocr-heading">
      <h2 id="ocr-heading">Scanned PDFs</h2>
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid="ocr-setting"
          checked={on}
          disabled={saving}
          onChange={(e) => void store.update({ values: { ocr: e.target.checked } })}
        />{' '}
        Read pages without a text layer with OCR (text recognition)
      </label>
      <p className="muted">
        English only, in this tab: the recognizer (about 14 MB) loads from this site the first time a scanned page is
        met, then works offline. Passages from OCR&apos;d pages are marked “OCR”, and pages it was unsure of are
        flagged. Off: scanned pages are skipped, as before. Default {settings.defaults.ocr ? 'on' : 'off'}.
      </p>
    </section>
  );
}
