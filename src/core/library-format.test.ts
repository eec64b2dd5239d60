import { describe, expect, it } from 'vitest';
import { createPriorState } from './select/priors';
import type { Chunk } from './types';
import { fnv1a64 } from './util/hash';
import {
  LIBRARY_MAGIC,
  applyMetaPatch,
  decodeLibrary,
  encodeLibrary,
  validateMetaPatch,
  vectorStateOf,
  type DocumentRecord,
  type LibrarySnapshot,
  type VectorRecord,
} from './library-format';

function doc(id: string, chunkCount: number, extra: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id,
    title: `Title ${id}`,
    sourceType: 'internal_policy',
    status: 'current',
    effectiveDate: '2025-03-01',
    fileName: `${id}.md`,
    format: 'markdown',
    size: 100,
    bytesHash: 'ab'.repeat(32),
    addedAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    chunkCount,
    pageCount: null,
    vectorState: 'pending',
    ...extra,
  };
}

/** Chunks of a source text split on blank lines, as the chunker would link them. */
function chunksOf(docId: string, source: string): Chunk[] {
  const parts: { start: number; end: number }[] = [];
  const re = /\S[^\n]*/g;
  for (let m = re.exec(source); m; m = re.exec(source)) parts.push({ start: m.index, end: m.index + m[0].length });
  return parts.map((p, i) => {
    const text = source.slice(p.start, p.end);
    return {
      id: `${docId}#${i}`,
      docId,
      ordinal: i,
      text,
      headings: ['Policy'],
      start: p.start,
      end: p.end,
      prevId: i > 0 ? `${docId}#${i - 1}` : null,
      nextId: i < parts.length - 1 ? `${docId}#${i + 1}` : null,
      hash: fnv1a64(text),
      tokens: text.split(' ').length,
    };
  });
}

function vectorsOf(d: DocumentRecord, chunks: readonly Chunk[], rows: number, dim = 4): VectorRecord {
  const data = new Float32Array(rows * dim);
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i + 1);
  return {
    docId: d.id,
    embedderId: 'hash-4',
    dim,
    encoding: 'f32',
    chunkIds: chunks.slice(0, rows).map((c) => c.id),
    data,
    docAddedAt: d.addedAt,
  };
}

function sample(): LibrarySnapshot {
  const a = chunksOf('a', 'Employees may work remotely.\n\nThree days per week. Ünïcode ✓ 𝄞.\n\nEUR 600.');
  const b = chunksOf('b', 'Travel is booked centrally.');
  const docA = doc('a', a.length, { vectorState: 'complete' });
  const docB = doc('b', b.length, { language: 'en' });
  return {
    documents: [docA, docB],
    chunks: [...a, ...b],
    vectors: [vectorsOf(docA, a, a.length), vectorsOf(docB, b, 0)],
    priors: createPriorState({ blog: 0.4 }),
    feedback: [{ docId: 'a', sourceType: 'internal_policy', verdict: 'helpful', at: 5, query: 'remote days?' }],
  };
}

/** Re-encodes a file whose header JSON was edited (the binary part kept). */
function withHeader(bytes: Uint8Array, edit: (h: Record<string, unknown>) => void): Uint8Array {
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + len))) as Record<string, unknown>;
  const oldStart = (12 + len + 3) & ~3;
  edit(header);
  return rawFile(new TextEncoder().encode(JSON.stringify(header)), bytes.subarray(oldStart));
}

function rawFile(json: Uint8Array, body: Uint8Array): Uint8Array {
  const start = (12 + json.length + 3) & ~3;
  const out = new Uint8Array(start + body.length);
  out.set(LIBRARY_MAGIC, 0);
  new DataView(out.buffer).setUint32(8, json.length, true);
  out.set(json, 12);
  out.set(body, start);
  return out;
}

function rawHeader(text: string, body = new Uint8Array(0)): Uint8Array {
  return rawFile(new TextEncoder().encode(text), body);
}

describe('library export format', () => {
  it('round-trips documents, chunks, vectors (bit-exact), priors and feedback', () => {
    const snap = sample();
    const bytes = encodeLibrary(snap, new Date(0));
    expect(Array.from(bytes.subarray(0, 8))).toEqual(LIBRARY_MAGIC);
    const back = decodeLibrary(bytes);
    expect(back.documents).toEqual(
      snap.documents.map((d) => ({ ...d, vectorState: d.id === 'a' ? 'complete' : 'pending' })),
    );
    expect(back.chunks).toEqual(snap.chunks);
    expect(back.vectors).toHaveLength(2);
    expect(Array.from(back.vectors[0]!.data)).toEqual(Array.from(snap.vectors[0]!.data));
    expect(back.vectors[0]!.chunkIds).toEqual(snap.vectors[0]!.chunkIds);
    expect(back.vectors[1]!.data.length).toBe(0);
    expect(back.priors).toEqual(snap.priors);
    expect(back.feedback).toEqual(snap.feedback);
  });

  it("round-trips a table chunk's context, checked by the hash over context and text", () => {
    const snap = sample();
    const withContext = (c: Chunk, context: string): Chunk => ({
      ...c,
      context,
      hash: fnv1a64(`${context}\n${c.text}`),
    });
    const chunks = snap.chunks.map((c, i) => (i === 1 ? withContext(c, '(In millions)\n| | 2018 |') : c));
    const bytes = encodeLibrary({ ...snap, chunks });
    const back = decodeLibrary(bytes);
    expect(back.chunks).toEqual(chunks);
    expect(back.chunks[1]!.context).toBe('(In millions)\n| | 2018 |');
    expect('context' in back.chunks[0]!).toBe(false);
    const edited = (edit: (c: Record<string, unknown>) => void): Uint8Array =>
      withHeader(bytes, (h) => edit((h.chunks as Record<string, unknown>[])[1]!));
    expect(() => decodeLibrary(edited((c) => (c.context = '(In thousands)\n| | 2018 |')))).toThrow(/hash/);
    expect(() => decodeLibrary(edited((c) => delete c.context))).toThrow(/hash/);
    expect(() => decodeLibrary(edited((c) => (c.context = 7)))).toThrow(/chunks\[1\]\.context is not text/);
    expect(() => decodeLibrary(edited((c) => (c.context = 'x'.repeat(4001))))).toThrow(/context is longer than 4000/);
    expect(() => decodeLibrary(edited((c) => (c.context = '')))).toThrow(/context is empty/);
  });

  it('decodes a file that sits at an unaligned offset of a larger buffer', () => {
    const bytes = encodeLibrary(sample());
    const big = new Uint8Array(bytes.length + 3);
    big.set(bytes, 3);
    expect(decodeLibrary(big.subarray(3)).chunks).toHaveLength(4);
  });

  it('derives vectorState from the rows present, never from the file', () => {
    const bytes = withHeader(encodeLibrary(sample()), (h) => {
      (h.documents as Record<string, unknown>[])[1]!.vectorState = 'complete';
    });
    expect(decodeLibrary(bytes).documents[1]!.vectorState).toBe('pending');
  });

  const cases: [string, (h: Record<string, unknown>) => void, RegExp][] = [
    ['another version', (h) => (h.version = 0), /has version 0; this version of Evident reads versions 1 and 2/],
    ['a newer version', (h) => (h.version = 3), /made by a newer Evident \(file version 3; .*update Evident/],
    ['another format', (h) => (h.format = 'zip'), /format/],
    [
      'a chunk of an unknown document',
      (h) => ((h.chunks as Record<string, unknown>[])[0]!.docId = 'zz'),
      /not in the file|docId|linked/,
    ],
    [
      'a duplicate document id',
      (h) => ((h.documents as Record<string, unknown>[])[1]!.id = 'a'),
      /appears twice|announces/,
    ],
    [
      'a wrong chunk count',
      (h) => ((h.documents as Record<string, unknown>[])[0]!.chunkCount = 5),
      /announces 5 chunks/,
    ],
    ['offsets that do not match the text', (h) => ((h.chunks as Record<string, unknown>[])[0]!.end = 3), /offsets/],
    ['a negative offset', (h) => ((h.chunks as Record<string, unknown>[])[0]!.start = -1), /start/],
    [
      'a hash that does not match',
      (h) => ((h.chunks as Record<string, unknown>[])[0]!.text = 'Employees may work remotelx.'),
      /hash/,
    ],
    [
      'a chunk id that is not docId#ordinal',
      (h) => ((h.chunks as Record<string, unknown>[])[3]!.id = 'a#0x'),
      /should have the id|linked/,
    ],
    ['broken neighbour links', (h) => ((h.chunks as Record<string, unknown>[])[0]!.nextId = null), /neighbours/],
    [
      'an unknown source type',
      (h) => ((h.documents as Record<string, unknown>[])[0]!.sourceType = 'oracle'),
      /sourceType/,
    ],
    ['a bad date', (h) => ((h.documents as Record<string, unknown>[])[0]!.effectiveDate = '2025-13-01'), /date/],
    ['a non-string title', (h) => ((h.documents as Record<string, unknown>[])[0]!.title = { x: 1 }), /title/],
    ['vectors past the end', (h) => ((h.vectors as Record<string, unknown>[])[0]!.offset = 10), /past the end/],
    [
      'rows for the wrong chunks',
      (h) => ((h.vectors as Record<string, unknown>[])[0]!.chunkIds = ['a#1', 'a#0', 'a#2']),
      /not for chunk/,
    ],
    ['rows and ids that disagree', (h) => ((h.vectors as Record<string, unknown>[])[0]!.rows = 2), /rows/],
    [
      'vectors of another version',
      (h) => ((h.vectors as Record<string, unknown>[])[0]!.docAddedAt = 1),
      /another version/,
    ],
    ['a dimension of zero', (h) => ((h.vectors as Record<string, unknown>[])[0]!.dim = 0), /dim/],
    ['invalid priors', (h) => (h.priors = { version: 9 }), /priors/],
    [
      'feedback about an unknown document',
      (h) => ((h.feedback as Record<string, unknown>[])[0]!.docId = 'zz'),
      /unknown document/,
    ],
    ['a floats count that disagrees with the size', (h) => (h.floats = 3), /vector section/],
  ];
  for (const [name, edit, message] of cases) {
    it(`rejects ${name} as invalid_input`, () => {
      const bytes = withHeader(encodeLibrary(sample()), edit);
      expect(() => decodeLibrary(bytes)).toThrow(message);
      try {
        decodeLibrary(bytes);
      } catch (err) {
        expect(err).toMatchObject({ code: 'invalid_input' });
      }
    });
  }

  it('rejects prototype-pollution keys anywhere in the header', () => {
    const good = JSON.stringify({
      format: 'evident-library',
      version: 1,
      documents: [],
      chunks: [],
      vectors: [],
      priors: null,
      feedback: [],
      floats: 0,
    });
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const bad = good.replace('"documents":[]', `"documents":[{"${key}":{"polluted":true}}]`);
      expect(() => decodeLibrary(rawHeader(bad))).toThrow(new RegExp(`forbidden key "${key}"`));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(decodeLibrary(rawHeader(good)).documents).toEqual([]);
  });

  it('rejects a wrong signature, truncation, a non-JSON header and non-finite vectors', () => {
    const bytes = encodeLibrary(sample());
    expect(() => decodeLibrary(new Uint8Array([1, 2, 3]))).toThrow(/signature/);
    const wrongMagic = bytes.slice();
    wrongMagic[1] = 0x58;
    expect(() => decodeLibrary(wrongMagic)).toThrow(/signature/);
    expect(() => decodeLibrary(bytes.subarray(0, 40))).toThrow(/truncated/);
    expect(() => decodeLibrary(bytes.subarray(0, bytes.length - 4))).toThrow(/vector section/);
    expect(() => decodeLibrary(rawHeader('{not json'))).toThrow(/not valid UTF-8 JSON/);
    expect(() => decodeLibrary(rawHeader('[1,2]'))).toThrow(/not an object/);
    const nan = bytes.slice();
    new DataView(nan.buffer).setFloat32(nan.length - 4, Number.NaN, true);
    expect(() => decodeLibrary(nan)).toThrow(/non-finite/);
  });

  it('enforces limits', () => {
    const bytes = encodeLibrary(sample());
    expect(() => decodeLibrary(bytes, { maxChunks: 3 })).toThrow(/more than 3/);
    expect(() => decodeLibrary(bytes, { maxBytes: 100 })).toThrow(/larger than 100 bytes/);
    expect(() => decodeLibrary(bytes, { maxDim: 2 })).toThrow(/dim/);
    expect(() => decodeLibrary(bytes, { maxChunkChars: 10 })).toThrow(/longer than 10/);
    expect(() => decodeLibrary(bytes, { maxNothing: 1 } as never)).toThrow(/unknown option "maxNothing"/);
  });
});

describe('metadata patches', () => {
  it('accepts editable fields, clears with null, and rejects unknown keys and bad values', () => {
    const d = doc('a', 1);
    const patch = validateMetaPatch({ status: 'superseded', effectiveDate: null, sourceType: 'government' });
    const next = applyMetaPatch(d, patch, 42);
    expect(next).toMatchObject({ status: 'superseded', sourceType: 'government', updatedAt: 42, title: d.title });
    expect('effectiveDate' in next).toBe(false);
    expect(applyMetaPatch(next, validateMetaPatch({ effectiveDate: '2020-01-31' }), 43).effectiveDate).toBe(
      '2020-01-31',
    );
    expect(() => validateMetaPatch({ chunkCount: 3 })).toThrow(/unknown option "chunkCount"/);
    expect(() => validateMetaPatch({ status: 'final' })).toThrow(/status/);
    expect(() => validateMetaPatch({ title: '   ' })).toThrow(/empty/);
    expect(() => validateMetaPatch(null)).toThrow(/object/);
    expect(d.status).toBe('current');
  });

  it('names vector states by rows present', () => {
    expect(vectorStateOf(0, 3)).toBe('pending');
    expect(vectorStateOf(2, 3)).toBe('partial');
    expect(vectorStateOf(3, 3)).toBe('complete');
  });
});

describe('library export format: hidden-text marks', () => {
  it('round-trips a chunk’s hidden spans, reads a chunk without them as visible, and refuses bad ones', () => {
    const snap = sample();
    const first = snap.chunks[0]!;
    const marked: Chunk = { ...first, hidden: [{ start: 0, end: 9, kind: 'white_text' }] };
    const withMark: LibrarySnapshot = { ...snap, chunks: [marked, ...snap.chunks.slice(1)] };
    const back = decodeLibrary(encodeLibrary(withMark, new Date(0)));
    // Dropped on import, hidden text would become evidence in the imported library.
    expect(back.chunks[0]!.hidden).toEqual([{ start: 0, end: 9, kind: 'white_text' }]);
    expect(back.chunks[1]!.hidden).toBeUndefined();
    const bytes = encodeLibrary(withMark, new Date(0));
    const edited = (f: (h: Record<string, unknown>) => void): Uint8Array =>
      withHeader(bytes, (h) => f((h.chunks as Record<string, unknown>[])[0]!));
    expect(() => decodeLibrary(edited((c) => (c.hidden = [{ start: 0, end: 9, kind: 'magic' }])))).toThrow(
      /hidden\[0\]\.kind/,
    );
    expect(() => decodeLibrary(edited((c) => (c.hidden = [{ start: 0, end: 1e6, kind: 'vanish' }])))).toThrow(
      /hidden\[0\]\.end/,
    );
  });
});
