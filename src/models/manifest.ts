/**
 * The model manifest (`models/manifest.json`): which model fills which role in each profile, with
 * what it costs to download and where its files come from. `parseManifest` validates the JSON
 * strictly — an unknown profile, role or field throws naming it and the allowed set — so a typo
 * in the manifest fails at load, not as a silent default. Runtime-neutral (worker, Node).
 */
import { EvidentError } from '../core/errors';

export const MANIFEST_VERSION = 1;
export const MODEL_ROLES = ['embedder', 'cross-encoder', 'nli', 'generator'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];
export const PROFILE_NAMES = ['embedded', 'enhanced', 'tiny'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];
/**
 * - `bundled`: shipped inside the app build (USE lite); never downloaded separately.
 * - `self-hosted`: only ever loaded from the app's own `models/` folder (the tiny test models).
 * - `hub`: from the self-hosted `models/<id>/` folder when present, otherwise from the Hugging
 *   Face Hub — and only after the user agreed.
 */
export const MODEL_SOURCES = ['bundled', 'self-hosted', 'hub'] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];
export const MODEL_RUNTIMES = ['transformers', 'tfjs'] as const;
export type ModelRuntime = (typeof MODEL_RUNTIMES)[number];
/** Transformers.js dtypes we ship (the file suffix follows: fp32 → model.onnx, q8 → model_quantized.onnx, q4 → model_q4.onnx). */
export const MODEL_DTYPES = ['fp32', 'fp16', 'q8', 'q4', 'q4f16'] as const;
export type ModelDtype = (typeof MODEL_DTYPES)[number];
export const POOLINGS = ['mean', 'cls'] as const;
export type Pooling = (typeof POOLINGS)[number];

/** The task each role's model must declare. */
export const ROLE_TASKS: Readonly<Record<ModelRole, string>> = Object.freeze({
  embedder: 'feature-extraction',
  'cross-encoder': 'text-classification',
  nli: 'text-classification',
  generator: 'text-generation',
});

export interface ModelFile {
  /** Path inside the model folder, e.g. `onnx/model_quantized.onnx`. */
  readonly path: string;
  /** Exact size when known (null until fetched for Hub models). */
  readonly bytes: number | null;
  /** Lower-case hex SHA-256 when known; `models:fetch` verifies it. */
  readonly sha256?: string;
}

export interface ModelSpec {
  /** Hugging Face id (`Xenova/bge-small-en-v1.5`) or a local name (`tiny/encoder`, `use-lite`). */
  readonly id: string;
  readonly runtime: ModelRuntime;
  readonly task: string;
  readonly dtype: ModelDtype;
  readonly license: string;
  readonly source: ModelSource;
  /** Folder under `models/` (self-hosted) — defaults to `id`. */
  readonly path?: string;
  /** Hub revision (branch, tag or commit); defaults to `main`. */
  readonly revision?: string;
  /** Exact total of `files` when every size is known, else null. */
  readonly bytes: number | null;
  /** Estimate shown before a first download when `bytes` is null. */
  readonly approxBytes?: number;
  /** Embedders only: how token vectors become one vector. */
  readonly pooling?: Pooling;
  /** Embedders only: whether the model's vectors are meant to be L2-normalised (cosine). */
  readonly normalize?: boolean;
  /**
   * Transformers.js embedders only: text put before a search query (BGE v1.5: "Represent this
   * sentence for searching relevant passages: "; e5: "query: "). Absent: queries are embedded as is.
   */
  readonly queryPrefix?: string;
  /** Transformers.js embedders only: text put before every passage (e5: "passage: "). Absent: none. */
  readonly passagePrefix?: string;
  readonly files: readonly ModelFile[];
  readonly notes?: string;
}

export interface Profile {
  readonly description: string;
  /** `null`: the role falls back to its model-free method. */
  readonly roles: Readonly<Record<ModelRole, ModelSpec | null>>;
}

export interface Manifest {
  readonly version: typeof MANIFEST_VERSION;
  readonly profiles: Readonly<Record<ProfileName, Profile>>;
}

const SPEC_FIELDS = [
  'id',
  'runtime',
  'task',
  'dtype',
  'license',
  'source',
  'path',
  'revision',
  'bytes',
  'approxBytes',
  'pooling',
  'normalize',
  'queryPrefix',
  'passagePrefix',
  'files',
  'notes',
] as const;
const FILE_FIELDS = ['path', 'bytes', 'sha256'] as const;

function fail(where: string, message: string): never {
  throw new EvidentError('invalid_input', `models/manifest.json: ${where}: ${message}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkKeys(where: string, value: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(where, `unknown field "${key}". Allowed: ${allowed.join(', ')}.`);
  }
}

function oneOf<T extends string>(where: string, field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(where, `${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}.`);
  }
  return value as T;
}

function str(where: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) fail(where, `${field} must be a non-empty string.`);
  return value;
}

function byteCount(where: string, field: string, value: unknown, nullable: boolean): number | null {
  if (value === null && nullable) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    fail(where, `${field} must be a non-negative integer${nullable ? ' or null' : ''}, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function parseFile(where: string, raw: unknown): ModelFile {
  if (!isObject(raw)) fail(where, 'must be an object.');
  checkKeys(where, raw, FILE_FIELDS);
  const path = str(where, 'path', raw.path);
  if (path.startsWith('/') || path.split('/').includes('..'))
    fail(where, `path must stay inside the model folder: ${path}.`);
  const bytes = byteCount(where, 'bytes', raw.bytes, true);
  if (raw.sha256 !== undefined && !(typeof raw.sha256 === 'string' && /^[0-9a-f]{64}$/.test(raw.sha256))) {
    fail(where, 'sha256 must be 64 lower-case hex digits.');
  }
  return raw.sha256 === undefined ? { path, bytes } : { path, bytes, sha256: raw.sha256 as string };
}

function parseSpec(where: string, role: ModelRole, raw: unknown): ModelSpec {
  if (!isObject(raw)) fail(where, 'must be an object or null.');
  checkKeys(where, raw, SPEC_FIELDS);
  const runtime = oneOf(where, 'runtime', raw.runtime, MODEL_RUNTIMES);
  const task = str(where, 'task', raw.task);
  if (task !== ROLE_TASKS[role]) fail(where, `task must be "${ROLE_TASKS[role]}" for role ${role}, got "${task}".`);
  if (runtime === 'tfjs' && role !== 'embedder') fail(where, 'only the embedder may use the tfjs runtime.');
  const source = oneOf(where, 'source', raw.source, MODEL_SOURCES);
  if (!Array.isArray(raw.files) || raw.files.length === 0) fail(where, 'files must be a non-empty array.');
  const files = raw.files.map((f, i) => parseFile(`${where}.files[${i}]`, f));
  const bytes = byteCount(where, 'bytes', raw.bytes, true);
  const sizes = files.map((f) => f.bytes);
  if (sizes.every((b) => b !== null)) {
    const total = sizes.reduce((a: number, b) => a + (b as number), 0);
    if (bytes !== total) fail(where, `bytes (${bytes}) must equal the sum of the file sizes (${total}).`);
  } else if (bytes !== null) {
    fail(where, 'bytes must be null while a file size is unknown.');
  }
  const spec: Record<string, unknown> = {
    id: str(where, 'id', raw.id),
    runtime,
    task,
    dtype: oneOf(where, 'dtype', raw.dtype, MODEL_DTYPES),
    license: str(where, 'license', raw.license),
    source,
    bytes,
    files,
  };
  if (raw.path !== undefined) spec.path = str(where, 'path', raw.path);
  if (raw.revision !== undefined) spec.revision = str(where, 'revision', raw.revision);
  if (raw.approxBytes !== undefined) spec.approxBytes = byteCount(where, 'approxBytes', raw.approxBytes, false);
  if (raw.notes !== undefined) spec.notes = str(where, 'notes', raw.notes);
  if (role === 'embedder' && runtime === 'transformers') {
    spec.pooling = oneOf(where, 'pooling', raw.pooling, POOLINGS);
    if (typeof raw.normalize !== 'boolean')
      fail(where, 'normalize must be true or false for a Transformers.js embedder.');
    spec.normalize = raw.normalize;
    for (const field of ['queryPrefix', 'passagePrefix'] as const) {
      const v = raw[field];
      if (v === undefined) continue;
      if (typeof v !== 'string') fail(where, `${field} must be a string, got ${JSON.stringify(v)}.`);
      if (v !== '') spec[field] = v;
    }
  } else {
    for (const field of ['queryPrefix', 'passagePrefix'] as const) {
      if (raw[field] !== undefined) fail(where, `${field} applies to Transformers.js embedders only.`);
    }
    if (raw.pooling !== undefined && role !== 'embedder') fail(where, 'pooling applies to embedders only.');
    if (raw.normalize !== undefined && role !== 'embedder') fail(where, 'normalize applies to embedders only.');
    if (raw.pooling !== undefined) spec.pooling = oneOf(where, 'pooling', raw.pooling, POOLINGS);
    if (raw.normalize !== undefined) spec.normalize = Boolean(raw.normalize);
  }
  return spec as unknown as ModelSpec;
}

/** Validates a parsed manifest; throws `invalid_input` naming the first problem. */
export function parseManifest(raw: unknown): Manifest {
  if (!isObject(raw)) fail('root', 'must be an object.');
  checkKeys('root', raw, ['version', 'profiles', '$comment']);
  if (raw.version !== MANIFEST_VERSION)
    fail('root', `unsupported version ${JSON.stringify(raw.version)} (expected ${MANIFEST_VERSION}).`);
  if (!isObject(raw.profiles)) fail('root', 'profiles must be an object.');
  const profiles: Partial<Record<ProfileName, Profile>> = {};
  for (const [name, p] of Object.entries(raw.profiles)) {
    const where = `profiles.${name}`;
    const profile = oneOf('profiles', 'profile name', name, PROFILE_NAMES);
    if (!isObject(p)) fail(where, 'must be an object.');
    checkKeys(where, p, ['description', 'roles']);
    if (!isObject(p.roles)) fail(where, 'roles must be an object.');
    checkKeys(`${where}.roles`, p.roles, MODEL_ROLES);
    const roles = {} as Record<ModelRole, ModelSpec | null>;
    for (const role of MODEL_ROLES) {
      if (!(role in p.roles)) fail(`${where}.roles`, `missing role "${role}" (use null for the model-free fallback).`);
      const spec = p.roles[role];
      roles[role] = spec === null ? null : parseSpec(`${where}.roles.${role}`, role, spec);
    }
    profiles[profile] = { description: str(where, 'description', p.description), roles };
  }
  for (const name of PROFILE_NAMES) {
    if (!profiles[name]) fail('profiles', `missing profile "${name}".`);
  }
  return { version: MANIFEST_VERSION, profiles: profiles as Record<ProfileName, Profile> };
}

/** Folder of a model under `models/` (self-hosted layout `models/<id>/`). */
export function modelPath(spec: ModelSpec): string {
  return spec.path ?? spec.id;
}

/** Bytes to download for a spec: exact when known, else the estimate, else null. */
export function downloadBytes(spec: ModelSpec): number | null {
  return spec.bytes ?? spec.approxBytes ?? null;
}

/** One role of a profile as the Settings page lists it. */
export interface ProfileRoleSummary {
  readonly role: ModelRole;
  /** null: the role's model-free method. */
  readonly id: string | null;
  readonly source: ModelSource | null;
  readonly runtime: ModelRuntime | null;
  readonly task: string | null;
  readonly dtype: ModelDtype | null;
  readonly license: string | null;
  /** Exact download size when known, else the manifest's estimate, else null. */
  readonly bytes: number | null;
  readonly estimated: boolean;
}

export interface ProfileSummary {
  readonly name: ProfileName;
  readonly description: string;
  readonly roles: readonly ProfileRoleSummary[];
  readonly totalBytes: number;
  /** Some role comes from the Hugging Face Hub unless self-hosted (asks for consent first). */
  readonly fromHub: boolean;
}

/** The profiles named, in that order, with per-role sizes and licenses from the manifest. */
export function summarizeProfiles(manifest: Manifest, names: readonly ProfileName[]): ProfileSummary[] {
  return names.map((name) => {
    const profile = manifest.profiles[name];
    const roles = MODEL_ROLES.map((role): ProfileRoleSummary => {
      const spec = profile.roles[role];
      if (!spec) {
        return {
          role,
          id: null,
          source: null,
          runtime: null,
          task: null,
          dtype: null,
          license: null,
          bytes: null,
          estimated: false,
        };
      }
      return {
        role,
        id: spec.id,
        source: spec.source,
        runtime: spec.runtime,
        task: spec.task,
        dtype: spec.dtype,
        license: spec.license,
        bytes: downloadBytes(spec),
        estimated: spec.bytes === null,
      };
    });
    return {
      name,
      description: profile.description,
      roles,
      totalBytes: roles.reduce((s, r) => s + (r.bytes ?? 0), 0),
      fromHub: roles.some((r) => r.source === 'hub'),
    };
  });
}
