import { describe, expect, it } from 'vitest';
import { EvidentError } from './errors';
import {
  DEFAULT_ENCRYPT_OPTIONS,
  MIN_PBKDF2_ITERATIONS,
  decryptLibrary,
  encryptLibrary,
  isEncryptedLibrary,
  readEncryptedHeader,
} from './library-crypto';
import { decodeLibrary, encodeLibrary, type LibrarySnapshot } from './library-format';
import { fnv1a64 } from './util/hash';

const PASS = 'correct horse battery staple';
const RECORD = 4096;

/** Seeded bytes that do not compress (a stand-in for a plain export of 3.5 records). */
function plainBytes(n = RECORD * 3 + RECORD / 2, seed = 7): Uint8Array {
  let a = seed >>> 0;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    out[i] = a & 0xff;
  }
  return out;
}

function snapshot(): LibrarySnapshot {
  const text = 'Remote work allowance is 40 euros a month.';
  return {
    documents: [
      {
        id: 'doc:a',
        title: 'Allowances',
        sourceType: 'internal_policy',
        status: 'current',
        fileName: 'a.md',
        format: 'markdown',
        size: text.length,
        bytesHash: 'ab'.repeat(32),
        addedAt: 1_700_000_000_000,
        updatedAt: 1_700_000_000_000,
        chunkCount: 1,
        pageCount: null,
        vectorState: 'complete',
      },
    ],
    chunks: [
      {
        id: 'doc:a#0',
        docId: 'doc:a',
        ordinal: 0,
        text,
        headings: [],
        start: 0,
        end: text.length,
        prevId: null,
        nextId: null,
        hash: fnv1a64(text),
        tokens: 8,
      },
    ],
    vectors: [
      {
        docId: 'doc:a',
        embedderId: 'test',
        dim: 2,
        encoding: 'f32',
        chunkIds: ['doc:a#0'],
        data: new Float32Array([0.6, 0.8]),
        docAddedAt: 1_700_000_000_000,
      },
    ],
    priors: null,
    feedback: [],
  };
}

/** Where record `i` starts in a sealed file (after the header and the 16-byte key check). */
function recordStart(sealed: Uint8Array, i: number): number {
  const h = readEncryptedHeader(sealed);
  const headerLength = new DataView(sealed.buffer, sealed.byteOffset).getUint32(8, true);
  return 12 + headerLength + 16 + i * (h.recordBytes + 16);
}

async function rejection(p: Promise<unknown>): Promise<EvidentError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EvidentError);
  return err as EvidentError;
}

describe('protected library files', () => {
  it('round-trips an export: the same bytes back, the library decodes, no plain text in the file', async () => {
    const plain = encodeLibrary(snapshot(), new Date('2025-03-07T00:00:00Z'));
    const sealed = await encryptLibrary(plain, PASS);
    expect(isEncryptedLibrary(sealed)).toBe(true);
    expect(isEncryptedLibrary(plain)).toBe(false);
    expect(Buffer.from(sealed).includes('allowance')).toBe(false);
    expect(Buffer.from(plain).includes('allowance')).toBe(true);
    const opened = await decryptLibrary(sealed, PASS);
    expect(opened).toEqual(plain);
    expect(decodeLibrary(opened).chunks[0]?.text).toBe(snapshot().chunks[0]?.text);
  });

  it('writes a versioned header: PBKDF2-SHA-256 at ≥ 600,000 iterations, a fresh salt and nonce prefix per file', async () => {
    const plain = plainBytes();
    const a = await encryptLibrary(plain, PASS, { recordBytes: RECORD });
    const b = await encryptLibrary(plain, PASS, { recordBytes: RECORD });
    const ha = readEncryptedHeader(a);
    const hb = readEncryptedHeader(b);
    expect(ha.version).toBe(1);
    expect(ha.kdf).toMatchObject({ name: 'PBKDF2', hash: 'SHA-256' });
    expect(ha.kdf.iterations).toBeGreaterThanOrEqual(600_000);
    expect(DEFAULT_ENCRYPT_OPTIONS.iterations).toBe(600_000);
    expect(ha.records).toBe(4);
    expect(ha.plainBytes).toBe(plain.length);
    expect(ha.kdf.salt).not.toBe(hb.kdf.salt);
    expect(ha.cipher.noncePrefix).not.toBe(hb.cipher.noncePrefix);
    // Same input, same passphrase: different ciphertext (no two files share a key).
    expect(Buffer.from(a.subarray(recordStart(a, 0), recordStart(a, 1)))).not.toEqual(
      Buffer.from(b.subarray(recordStart(b, 0), recordStart(b, 1))),
    );
    // Size: the plain bytes, one tag per record, the key check and the header.
    expect(a.length).toBe(recordStart(a, 0) + plain.length + 4 * 16);
    expect(await decryptLibrary(a, PASS)).toEqual(plain);
  });

  it('a wrong passphrase is told as such; an empty one asks for it', async () => {
    const sealed = await encryptLibrary(plainBytes(), PASS, { recordBytes: RECORD });
    const wrong = await rejection(decryptLibrary(sealed, 'correct horse battery stapler'));
    expect(wrong.code).toBe('wrong_passphrase');
    expect(wrong.message).toMatch(/^This passphrase does not open the file\. Check it/);
    expect((await rejection(decryptLibrary(sealed, ''))).code).toBe('passphrase_required');
  });

  it('opens with the same passphrase typed in another Unicode form (NFC)', async () => {
    const composed = 'caf\u00e9 au lait, s\u00fbrement';
    const decomposed = 'cafe\u0301 au lait, su\u0302rement';
    expect(composed).not.toBe(decomposed);
    const sealed = await encryptLibrary(plainBytes(100), composed);
    expect(await decryptLibrary(sealed, decomposed)).toEqual(plainBytes(100));
  });

  it('refuses a file with one byte of any record changed, naming the part, after the key check passed', async () => {
    const plain = plainBytes();
    const sealed = await encryptLibrary(plain, PASS, { recordBytes: RECORD });
    for (const [i, offset] of [
      [0, 0],
      [1, 100],
      [3, 5], // the last, short record
      [3, RECORD / 2 + 3], // the last record's tag
    ] as const) {
      const tampered = sealed.slice();
      tampered[recordStart(sealed, i) + offset]! ^= 0x01;
      const err = await rejection(decryptLibrary(tampered, PASS));
      expect(err.code).toBe('invalid_input');
      expect(err.message).toMatch(new RegExp(`changed or damaged after it was saved \\(part ${i + 1} of 4 `));
    }
  });

  it('refuses records swapped (same length) and a header changed', async () => {
    const sealed = await encryptLibrary(plainBytes(RECORD * 3), PASS, { recordBytes: RECORD });
    const swapped = sealed.slice();
    const r0 = sealed.subarray(recordStart(sealed, 0), recordStart(sealed, 1));
    const r1 = sealed.subarray(recordStart(sealed, 1), recordStart(sealed, 2));
    swapped.set(r1, recordStart(sealed, 0));
    swapped.set(r0, recordStart(sealed, 1));
    expect((await rejection(decryptLibrary(swapped, PASS))).message).toMatch(/part 1 of 3/);

    // A header field changed in place (the nonce prefix's first hex digit): the key check fails.
    const header = sealed.slice();
    const at = Buffer.from(header).indexOf('"noncePrefix":"') + '"noncePrefix":"'.length;
    header[at] = header[at] === 0x30 ? 0x31 : 0x30;
    expect(readEncryptedHeader(header).cipher.noncePrefix).not.toBe(readEncryptedHeader(sealed).cipher.noncePrefix);
    expect((await rejection(decryptLibrary(header, PASS))).code).toBe('wrong_passphrase');
  });

  it('refuses a truncated or extended file before deriving a key', async () => {
    const sealed = await encryptLibrary(plainBytes(), PASS, { recordBytes: RECORD });
    for (const cut of [sealed.length - 1, recordStart(sealed, 3), recordStart(sealed, 1), 40]) {
      const err = await rejection(decryptLibrary(sealed.subarray(0, cut), PASS));
      expect(err.code).toBe('invalid_input');
      expect(err.message).toMatch(/incomplete|cut off inside its header/);
    }
    const longer = new Uint8Array(sealed.length + 16);
    longer.set(sealed);
    expect((await rejection(decryptLibrary(longer, PASS))).message).toMatch(/16 bytes more than its header announces/);
  });

  it('a file cut at a record boundary with its header rewritten to match is refused', async () => {
    const sealed = await encryptLibrary(plainBytes(RECORD * 2), PASS, { recordBytes: RECORD });
    const h = readEncryptedHeader(sealed);
    // Rewrite the header as if the file held one record of 4096 bytes, and drop the second record.
    const json = new TextEncoder().encode(JSON.stringify({ ...h, records: 1, plainBytes: RECORD }));
    const keyCheckAndFirst = sealed.subarray(recordStart(sealed, 0) - 16, recordStart(sealed, 1));
    const forged = new Uint8Array(12 + json.length + keyCheckAndFirst.length);
    forged.set(sealed.subarray(0, 8));
    new DataView(forged.buffer).setUint32(8, json.length, true);
    forged.set(json, 12);
    forged.set(keyCheckAndFirst, 12 + json.length);
    expect(readEncryptedHeader(forged).records).toBe(1);
    const err = await rejection(decryptLibrary(forged, PASS));
    expect(['wrong_passphrase', 'invalid_input']).toContain(err.code);
  });

  it('refuses headers out of bounds without deriving (an iteration count that would hang the tab)', async () => {
    const sealed = await encryptLibrary(plainBytes(100), PASS);
    const h = readEncryptedHeader(sealed);
    const forge = (patch: object): Uint8Array => {
      const json = new TextEncoder().encode(JSON.stringify({ ...h, ...patch }));
      const out = new Uint8Array(12 + json.length);
      out.set(sealed.subarray(0, 8));
      new DataView(out.buffer).setUint32(8, json.length, true);
      out.set(json, 12);
      return out;
    };
    const t0 = performance.now();
    expect(() => readEncryptedHeader(forge({ kdf: { ...h.kdf, iterations: 2 ** 31 } }))).toThrow(
      /kdf\.iterations must be an integer in 600000…10000000/,
    );
    expect(() => readEncryptedHeader(forge({ kdf: { ...h.kdf, iterations: 1000 } }))).toThrow(/kdf\.iterations/);
    expect(() => readEncryptedHeader(forge({ version: 2 }))).toThrow(/made by a newer Evident/);
    expect(() => readEncryptedHeader(forge({ records: 5 }))).toThrow(/announces 5 parts/);
    expect(() => readEncryptedHeader(forge({ cipher: { ...h.cipher, name: 'AES-CBC' } }))).toThrow(/AES-256-GCM/);
    expect(() => readEncryptedHeader(plainBytes(64))).toThrow(/protected library signature/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('refuses weak settings for a new file: short passphrase, too few iterations, unknown options', async () => {
    const plain = plainBytes(100);
    expect((await rejection(encryptLibrary(plain, 'short'))).message).toMatch(/at least 8 characters/);
    expect((await rejection(encryptLibrary(plain, PASS, { iterations: MIN_PBKDF2_ITERATIONS - 1 }))).code).toBe(
      'invalid_option',
    );
    expect(
      (await rejection(encryptLibrary(plain, PASS, { rounds: 1 } as unknown as { iterations: number }))).message,
    ).toMatch(/unknown option "rounds"/);
  });

  it('seals an empty input as one final record', async () => {
    const sealed = await encryptLibrary(new Uint8Array(0), PASS);
    expect(readEncryptedHeader(sealed).records).toBe(1);
    expect((await decryptLibrary(sealed, PASS)).length).toBe(0);
  });
});
