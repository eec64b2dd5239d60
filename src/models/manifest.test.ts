import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TINY_MODEL_NAMES,
  buildTinyModels,
  describeTinyModel,
  type TinyModelName,
} from '../../scripts/make-tiny-models';
import { MODELS_DIR } from '../../test/tiny-models';
import { MODEL_ROLES, PROFILE_NAMES, downloadBytes, modelPath, parseManifest } from './manifest';

async function raw(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(MODELS_DIR, 'manifest.json'), 'utf8')) as Record<string, unknown>;
}

/** A deep copy of the committed manifest with `edit` applied. */
async function edited(
  edit: (m: { profiles: Record<string, { roles: Record<string, Record<string, unknown> | null> }> }) => void,
) {
  const m = await raw();
  edit(m as never);
  return m;
}

describe('models/manifest.json', () => {
  it('parses, with every profile and role', async () => {
    const manifest = parseManifest(await raw());
    expect(Object.keys(manifest.profiles)).toEqual([...PROFILE_NAMES]);
    for (const p of PROFILE_NAMES) expect(Object.keys(manifest.profiles[p].roles)).toEqual([...MODEL_ROLES]);
  });

  it('embedded ships USE lite and falls back model-free for the other roles', async () => {
    const { roles } = parseManifest(await raw()).profiles.embedded;
    expect(roles.embedder).toMatchObject({ id: 'use-lite', runtime: 'tfjs', source: 'bundled', license: 'Apache-2.0' });
    expect([roles['cross-encoder'], roles.nli, roles.generator]).toEqual([null, null, null]);
  });

  it('enhanced names the agreed Hub models, dtypes and pooling', async () => {
    const { roles } = parseManifest(await raw()).profiles.enhanced;
    expect(roles.embedder).toMatchObject({
      id: 'Xenova/bge-small-en-v1.5',
      pooling: 'cls',
      normalize: true,
      source: 'hub',
    });
    // BGE v1.5's retrieval instruction goes before queries; passages get none.
    expect(roles.embedder?.queryPrefix).toBe('Represent this sentence for searching relevant passages: ');
    expect(roles.embedder?.passagePrefix).toBeUndefined();
    expect(roles['cross-encoder']?.id).toBe('Xenova/ms-marco-MiniLM-L-6-v2');
    expect(roles.nli?.id).toBe('Xenova/nli-deberta-v3-xsmall');
    expect(roles.generator).toMatchObject({ id: 'onnx-community/Qwen2.5-0.5B-Instruct', dtype: 'q4' });
    expect(roles.generator?.files.map((f) => f.path)).toContain('onnx/model_q4.onnx');
    // Sizes are unknown until fetched; the estimate stands in.
    expect(roles.generator?.bytes).toBeNull();
    expect(downloadBytes(roles.generator!)).toBeGreaterThan(100e6);
  });

  it('pins the tiny models byte for byte (the generator is deterministic)', async () => {
    const { roles } = parseManifest(await raw()).profiles.tiny;
    const once = buildTinyModels();
    const twice = buildTinyModels();
    for (const spec of Object.values(roles)) {
      expect(spec?.source).toBe('self-hosted');
      const name = modelPath(spec!).replace('tiny/', '') as TinyModelName;
      expect(TINY_MODEL_NAMES).toContain(name);
      expect(spec!.files).toEqual(describeTinyModel(once, name));
      expect(describeTinyModel(twice, name)).toEqual(describeTinyModel(once, name));
      // Each tiny model stays well under 1 MB.
      expect(spec!.bytes).toBeLessThan(1_000_000);
    }
  });
});

describe('parseManifest rejects what it does not know, naming it', () => {
  it('an unknown role', async () => {
    const m = await edited((m) => {
      m.profiles.tiny!.roles.reranker = null;
    });
    expect(() => parseManifest(m)).toThrow(
      /profiles\.tiny\.roles: unknown field "reranker"\. Allowed: embedder, cross-encoder, nli, generator/,
    );
  });

  it('an unknown field on a model', async () => {
    const m = await edited((m) => {
      m.profiles.enhanced!.roles.nli!.quantized = true;
    });
    expect(() => parseManifest(m)).toThrow(/profiles\.enhanced\.roles\.nli: unknown field "quantized"/);
  });

  it('an unknown profile, a missing role, a bad enum, a wrong task, inconsistent sizes', async () => {
    const base = await raw();
    expect(() => parseManifest({ ...base, version: 2 })).toThrow(/unsupported version 2/);
    const cases: [(m: never) => void, RegExp][] = [
      [
        (m: { profiles: Record<string, unknown> }) => (m.profiles.custom = m.profiles.tiny),
        /profile name must be one of embedded, enhanced, tiny/,
      ],
      [
        (m: { profiles: { tiny: { roles: Record<string, unknown> } } }) => delete m.profiles.tiny.roles.nli,
        /missing role "nli"/,
      ],
      [
        (m: { profiles: { tiny: { roles: { embedder: Record<string, unknown> } } } }) =>
          (m.profiles.tiny.roles.embedder.pooling = 'max'),
        /pooling must be one of mean, cls/,
      ],
      [
        (m: { profiles: { tiny: { roles: { embedder: Record<string, unknown> } } } }) =>
          (m.profiles.tiny.roles.embedder.queryPrefix = 7),
        /queryPrefix must be a string, got 7/,
      ],
      [
        (m: { profiles: { tiny: { roles: { nli: Record<string, unknown> } } } }) =>
          (m.profiles.tiny.roles.nli.passagePrefix = 'passage: '),
        /passagePrefix applies to Transformers\.js embedders only/,
      ],
      [
        (m: { profiles: { embedded: { roles: { embedder: Record<string, unknown> } } } }) =>
          (m.profiles.embedded.roles.embedder.queryPrefix = 'query: '),
        /queryPrefix applies to Transformers\.js embedders only/,
      ],
      [
        (m: { profiles: { tiny: { roles: { nli: Record<string, unknown> } } } }) =>
          (m.profiles.tiny.roles.nli.task = 'zero-shot-classification'),
        /task must be "text-classification" for role nli/,
      ],
      [
        (m: { profiles: { tiny: { roles: { nli: Record<string, unknown> } } } }) =>
          (m.profiles.tiny.roles.nli.bytes = 1),
        /must equal the sum of the file sizes/,
      ],
      [
        (m: { profiles: { tiny: { roles: { nli: Record<string, unknown> } } } }) =>
          (m.profiles.tiny.roles.nli.source = 'cdn'),
        /source must be one of bundled, self-hosted, hub/,
      ],
      [
        (m: { profiles: { tiny: { roles: { nli: { files: Record<string, unknown>[] } } } } }) =>
          (m.profiles.tiny.roles.nli.files[0]!.path = '../x'),
        /must stay inside the model folder/,
      ],
    ];
    for (const [edit, message] of cases) {
      const m = JSON.parse(JSON.stringify(await raw()));
      edit(m as never);
      expect(() => parseManifest(m)).toThrow(message);
    }
  });
});
