/**
 * Passphrase-protected library files: an export file (`library-format.ts`) sealed with
 * AES-256-GCM under a key derived from the passphrase with PBKDF2-SHA-256, through WebCrypto
 * (the browser's and Node's `crypto.subtle`). Runtime-neutral: no DOM types; unit-tested in Node.
 *
 * Protected file, version 1 (integers little-endian unless said):
 *
 * ```
 * offset 0    8 bytes  magic 89 'E' 'V' 'E' 'N' 'C' 0D 0A  (not the plain file's: each is told apart by it)
 * offset 8    u32      H, byte length of the header
 * offset 12   H bytes  UTF-8 JSON header: { format: "evident-library-encrypted", version: 1,
 *                      kdf: { name: "PBKDF2", hash: "SHA-256", iterations, salt (16 bytes, hex) },
 *                      cipher: { name: "AES-GCM", keyBits: 256, tagBytes: 16, noncePrefix (8 bytes, hex) },
 *                      recordBytes, records, plainBytes }
 *             16 bytes key check: the GCM tag of the empty message, nonce = prefix ‖ FFFFFFFF,
 *                      AAD = bytes [0, 12 + H) ‖ "key-check"
 *             records  record i (0-based): GCM(plain[i·R, min((i+1)·R, plainBytes))) ‖ its 16-byte tag,
 *                      nonce = noncePrefix ‖ u32 big-endian i, AAD = bytes [0, 12 + H) ‖ u32 big-endian i ‖ final (1 byte)
 * ```
 *
 * Why each piece:
 * - PBKDF2-SHA-256 with 600,000 iterations: OWASP's Password Storage Cheat Sheet figure for
 *   PBKDF2-HMAC-SHA256 (2023). WebCrypto has no Argon2; a WASM one would be a dependency to keep.
 *   A fresh random salt per file makes every file's key its own, so the counter nonces below
 *   never repeat under one key.
 * - Records of 1 MiB (a 150 MB library is ~150 records) rather than one 150 MB GCM call: each
 *   call's buffers stay small and WebCrypto's per-call limits are never near.
 * - The whole header is in every record's AAD, and so are the record's index and a final flag:
 *   a changed header field, records swapped, dropped or a file cut at a record boundary all fail
 *   authentication. The total length is also checked against the header before any decryption.
 * - The key check tells a wrong passphrase apart from a damaged file: a passphrase that fails it
 *   is wrong (or the header was changed); one that passes it and then fails a record means the
 *   file was changed or cut after it was saved.
 *
 * Nothing is returned before every record has authenticated: a caller never sees (or stores)
 * part of a damaged file.
 */
import { EvidentError, assertKnownOptions } from './errors';
import { checkInt } from './util/stage';

export const ENCRYPTED_LIBRARY_FORMAT = 'evident-library-encrypted';
export const ENCRYPTED_LIBRARY_VERSION = 1;
export const ENCRYPTED_LIBRARY_MAGIC: readonly number[] = Object.freeze([
  0x89, 0x45, 0x56, 0x45, 0x4e, 0x43, 0x0d, 0x0a,
]);
const PREFIX_BYTES = ENCRYPTED_LIBRARY_MAGIC.length + 4;
const TAG_BYTES = 16;
const SALT_BYTES = 16;
const NONCE_PREFIX_BYTES = 8;
const KEY_CHECK_INDEX = 0xffffffff;
/** The largest plain file a protected one may hold (the plain format's own limit). */
const MAX_PLAIN_BYTES = 2 ** 31 - 1;
/** Larger than a header of this version can be; keeps a forged length from allocating much. */
const MAX_HEADER_BYTES = 4096;

/** OWASP Password Storage Cheat Sheet (2023): PBKDF2-HMAC-SHA256, 600,000 iterations. */
export const MIN_PBKDF2_ITERATIONS = 600_000;
/** A forged header cannot make an import derive for minutes (~15 s at this count on a laptop). */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;
/** Shortest passphrase accepted for a new protected file (the UI asks for it, this enforces it). */
export const MIN_PASSPHRASE_CHARS = 8;

export interface EncryptOptions {
  /** PBKDF2 iterations, `MIN_PBKDF2_ITERATIONS`…`MAX_PBKDF2_ITERATIONS`. Default 600,000. */
  readonly iterations?: number;
  /** Plain bytes per record, 4 KiB…16 MiB. Default 1 MiB. */
  readonly recordBytes?: number;
}

export const DEFAULT_ENCRYPT_OPTIONS: Readonly<Required<EncryptOptions>> = Object.freeze({
  iterations: MIN_PBKDF2_ITERATIONS,
  recordBytes: 2 ** 20,
});

const MIN_RECORD_BYTES = 4096;
const MAX_RECORD_BYTES = 16 * 2 ** 20;

/** The header's known fields (what `decryptLibrary` reads back and checks). */
export interface EncryptedHeader {
  readonly format: typeof ENCRYPTED_LIBRARY_FORMAT;
  readonly version: number;
  readonly kdf: {
    readonly name: 'PBKDF2';
    readonly hash: 'SHA-256';
    readonly iterations: number;
    readonly salt: string;
  };
  readonly cipher: {
    readonly name: 'AES-GCM';
    readonly keyBits: 256;
    readonly tagBytes: 16;
    readonly noncePrefix: string;
  };
  readonly recordBytes: number;
  readonly records: number;
  readonly plainBytes: number;
}

// The WebCrypto subset used here, declared structurally (core is compiled without DOM types).
type CryptoKeyHandle = object;
interface GcmParams {
  readonly name: 'AES-GCM';
  readonly iv: Uint8Array;
  readonly additionalData: Uint8Array;
  readonly tagLength: 128;
}
interface Subtle {
  importKey(
    format: 'raw',
    key: Uint8Array,
    algorithm: 'PBKDF2',
    extractable: false,
    usages: string[],
  ): Promise<CryptoKeyHandle>;
  deriveKey(
    algorithm: { name: 'PBKDF2'; hash: 'SHA-256'; salt: Uint8Array; iterations: number },
    baseKey: CryptoKeyHandle,
    derived: { name: 'AES-GCM'; length: 256 },
    extractable: false,
    usages: string[],
  ): Promise<CryptoKeyHandle>;
  encrypt(params: GcmParams, key: CryptoKeyHandle, data: Uint8Array): Promise<ArrayBuffer>;
  decrypt(params: GcmParams, key: CryptoKeyHandle, data: Uint8Array): Promise<ArrayBuffer>;
}
interface WebCrypto {
  readonly subtle?: Subtle;
  getRandomValues(bytes: Uint8Array): Uint8Array;
}

function webCrypto(): { subtle: Subtle; random: (n: number) => Uint8Array } {
  const c = (globalThis as unknown as { crypto?: WebCrypto }).crypto;
  if (!c?.subtle) {
    throw new EvidentError(
      'internal',
      'This browser offers no encryption here (WebCrypto needs the page served over HTTPS), so a protected file cannot be made or opened.',
    );
  }
  return { subtle: c.subtle, random: (n) => c.getRandomValues(new Uint8Array(n)) };
}

const encoder = (): { encode(s: string): Uint8Array } =>
  new (globalThis as unknown as { TextEncoder: new () => { encode(s: string): Uint8Array } }).TextEncoder();

/** True when `bytes` start with the protected file's signature (a plain export does not). */
export function isEncryptedLibrary(bytes: Uint8Array): boolean {
  return bytes.length >= ENCRYPTED_LIBRARY_MAGIC.length && ENCRYPTED_LIBRARY_MAGIC.every((b, i) => bytes[i] === b);
}

/** Seals a plain export file with `passphrase`; `decryptLibrary` with the same passphrase gives it back. */
export async function encryptLibrary(
  plain: Uint8Array,
  passphrase: string,
  options: EncryptOptions = {},
): Promise<Uint8Array> {
  assertKnownOptions(options, DEFAULT_ENCRYPT_OPTIONS, 'encryptLibrary');
  const opts = { ...DEFAULT_ENCRYPT_OPTIONS, ...options };
  checkInt('encryptLibrary', 'iterations', opts.iterations, MIN_PBKDF2_ITERATIONS, MAX_PBKDF2_ITERATIONS);
  checkInt('encryptLibrary', 'recordBytes', opts.recordBytes, MIN_RECORD_BYTES, MAX_RECORD_BYTES);
  if (typeof passphrase !== 'string' || [...passphrase.normalize('NFC')].length < MIN_PASSPHRASE_CHARS) {
    throw new EvidentError(
      'invalid_option',
      `A passphrase needs at least ${MIN_PASSPHRASE_CHARS} characters (a few unrelated words are best).`,
    );
  }
  if (plain.length > MAX_PLAIN_BYTES) {
    throw new EvidentError('file_too_large', 'The library is larger than a library file can be (2 GB).');
  }
  const { subtle, random } = webCrypto();
  const salt = random(SALT_BYTES);
  const noncePrefix = random(NONCE_PREFIX_BYTES);
  const records = recordCount(plain.length, opts.recordBytes);
  const header: EncryptedHeader = {
    format: ENCRYPTED_LIBRARY_FORMAT,
    version: ENCRYPTED_LIBRARY_VERSION,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: opts.iterations, salt: toHex(salt) },
    cipher: { name: 'AES-GCM', keyBits: 256, tagBytes: TAG_BYTES, noncePrefix: toHex(noncePrefix) },
    recordBytes: opts.recordBytes,
    records,
    plainBytes: plain.length,
  };
  const json = encoder().encode(JSON.stringify(header));
  const prefix = new Uint8Array(PREFIX_BYTES + json.length);
  prefix.set(ENCRYPTED_LIBRARY_MAGIC, 0);
  new DataView(prefix.buffer).setUint32(ENCRYPTED_LIBRARY_MAGIC.length, json.length, true);
  prefix.set(json, PREFIX_BYTES);

  const key = await deriveKey(subtle, passphrase, salt, opts.iterations);
  const out = new Uint8Array(prefix.length + TAG_BYTES + plain.length + records * TAG_BYTES);
  out.set(prefix, 0);
  const check = await subtle.encrypt(gcm(noncePrefix, KEY_CHECK_INDEX, keyCheckAad(prefix)), key, new Uint8Array(0));
  out.set(new Uint8Array(check), prefix.length);
  let at = prefix.length + TAG_BYTES;
  for (let i = 0; i < records; i++) {
    const start = i * opts.recordBytes;
    const part = plain.subarray(start, Math.min(start + opts.recordBytes, plain.length));
    const sealed = await subtle.encrypt(gcm(noncePrefix, i, recordAad(prefix, i, i === records - 1)), key, part);
    out.set(new Uint8Array(sealed), at);
    at += sealed.byteLength;
  }
  return out;
}

/**
 * Opens a protected file. Throws `wrong_passphrase` when the passphrase does not open it, and
 * `invalid_input` when the file is not a protected library file, is cut off, or was changed
 * after it was saved. Returns the plain export file only when every record authenticated.
 */
export async function decryptLibrary(sealed: Uint8Array, passphrase: string): Promise<Uint8Array> {
  const header = readEncryptedHeader(sealed);
  const prefixLength = PREFIX_BYTES + headerLength(sealed);
  const prefix = sealed.slice(0, prefixLength);
  const expected = prefixLength + TAG_BYTES + header.plainBytes + header.records * TAG_BYTES;
  if (sealed.length !== expected) {
    throw new EvidentError(
      'invalid_input',
      sealed.length < expected
        ? `This protected library file is incomplete: it has ${sealed.length} bytes, its header announces ${expected}. It was probably cut off while being downloaded or copied; use a complete copy.`
        : `This protected library file has ${sealed.length - expected} bytes more than its header announces: it was changed after it was saved.`,
    );
  }
  if (typeof passphrase !== 'string' || passphrase === '') {
    throw new EvidentError('passphrase_required', 'This library file is protected: enter its passphrase to import it.');
  }
  const { subtle } = webCrypto();
  const salt = fromHex(header.kdf.salt);
  const noncePrefix = fromHex(header.cipher.noncePrefix);
  const key = await deriveKey(subtle, passphrase, salt, header.kdf.iterations);
  try {
    await subtle.decrypt(
      gcm(noncePrefix, KEY_CHECK_INDEX, keyCheckAad(prefix)),
      key,
      sealed.subarray(prefixLength, prefixLength + TAG_BYTES),
    );
  } catch {
    throw new EvidentError(
      'wrong_passphrase',
      'This passphrase does not open the file. Check it (capitals count) and try again; if it is right, the file was changed or damaged.',
    );
  }
  const plain = new Uint8Array(header.plainBytes);
  let at = prefixLength + TAG_BYTES;
  for (let i = 0; i < header.records; i++) {
    const start = i * header.recordBytes;
    const length = Math.min(header.recordBytes, header.plainBytes - start);
    const record = sealed.subarray(at, at + length + TAG_BYTES);
    at += length + TAG_BYTES;
    let opened: ArrayBuffer;
    try {
      opened = await subtle.decrypt(gcm(noncePrefix, i, recordAad(prefix, i, i === header.records - 1)), key, record);
    } catch {
      throw new EvidentError(
        'invalid_input',
        `This protected library file was changed or damaged after it was saved (part ${i + 1} of ${header.records} does not match its seal). Nothing was imported; use another copy.`,
      );
    }
    plain.set(new Uint8Array(opened), start);
  }
  return plain;
}

/** Reads and checks a protected file's header (no passphrase needed): what the file says it holds. */
export function readEncryptedHeader(sealed: Uint8Array): EncryptedHeader {
  const bad = (why: string): never => {
    throw new EvidentError('invalid_input', `This is not a valid protected Evident library file: ${why}.`);
  };
  if (!(sealed instanceof Uint8Array)) bad('expected bytes');
  if (!isEncryptedLibrary(sealed) || sealed.length < PREFIX_BYTES) {
    bad('it does not start with the protected library signature');
  }
  const length = headerLength(sealed);
  if (length > MAX_HEADER_BYTES) bad(`its header is larger than ${MAX_HEADER_BYTES} bytes`);
  if (PREFIX_BYTES + length > sealed.length) bad('it is cut off inside its header');
  let raw: unknown;
  try {
    const dec = new (
      globalThis as unknown as {
        TextDecoder: new (l: string, o: { fatal: boolean }) => { decode(b: Uint8Array): string };
      }
    ).TextDecoder('utf-8', { fatal: true });
    raw = JSON.parse(dec.decode(sealed.subarray(PREFIX_BYTES, PREFIX_BYTES + length)));
  } catch {
    bad('its header is not valid UTF-8 JSON');
  }
  const h = obj(raw, 'its header', bad);
  if (h.format !== ENCRYPTED_LIBRARY_FORMAT) bad(`the format is ${JSON.stringify(h.format)}`);
  if (h.version !== ENCRYPTED_LIBRARY_VERSION) {
    if (typeof h.version === 'number' && h.version > ENCRYPTED_LIBRARY_VERSION) {
      bad(
        `it was made by a newer Evident (protected file version ${h.version}; this one reads version ${ENCRYPTED_LIBRARY_VERSION}): update Evident (reload the page) and import it again`,
      );
    }
    bad(`it has version ${String(h.version)}`);
  }
  const kdf = obj(h.kdf, 'kdf', bad);
  if (kdf.name !== 'PBKDF2' || kdf.hash !== 'SHA-256') bad('its key derivation is not PBKDF2-SHA-256');
  const iterations = intIn(kdf.iterations, 'kdf.iterations', MIN_PBKDF2_ITERATIONS, MAX_PBKDF2_ITERATIONS, bad);
  const salt = hexOf(kdf.salt, SALT_BYTES, 'kdf.salt', bad);
  const cipher = obj(h.cipher, 'cipher', bad);
  if (cipher.name !== 'AES-GCM' || cipher.keyBits !== 256 || cipher.tagBytes !== TAG_BYTES) {
    bad('its cipher is not AES-256-GCM with 16-byte tags');
  }
  const noncePrefix = hexOf(cipher.noncePrefix, NONCE_PREFIX_BYTES, 'cipher.noncePrefix', bad);
  const recordBytes = intIn(h.recordBytes, 'recordBytes', MIN_RECORD_BYTES, MAX_RECORD_BYTES, bad);
  const plainBytes = intIn(h.plainBytes, 'plainBytes', 0, MAX_PLAIN_BYTES, bad);
  const records = intIn(h.records, 'records', 1, MAX_PLAIN_BYTES, bad);
  if (records !== recordCount(plainBytes, recordBytes)) {
    bad(`it announces ${records} parts for ${plainBytes} bytes in parts of ${recordBytes}`);
  }
  return {
    format: ENCRYPTED_LIBRARY_FORMAT,
    version: ENCRYPTED_LIBRARY_VERSION,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt },
    cipher: { name: 'AES-GCM', keyBits: 256, tagBytes: TAG_BYTES, noncePrefix },
    recordBytes,
    records,
    plainBytes,
  };
}

/** At least one record, so an empty input still carries a final one. */
function recordCount(plainBytes: number, recordBytes: number): number {
  return Math.max(1, Math.ceil(plainBytes / recordBytes));
}

function headerLength(sealed: Uint8Array): number {
  return new DataView(sealed.buffer, sealed.byteOffset, sealed.byteLength).getUint32(
    ENCRYPTED_LIBRARY_MAGIC.length,
    true,
  );
}

async function deriveKey(
  subtle: Subtle,
  passphrase: string,
  salt: Uint8Array,
  iterations: number,
): Promise<CryptoKeyHandle> {
  // NFC: the same passphrase typed on another keyboard or system gives the same bytes.
  const base = await subtle.importKey('raw', encoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function gcm(noncePrefix: Uint8Array, index: number, additionalData: Uint8Array): GcmParams {
  const iv = new Uint8Array(NONCE_PREFIX_BYTES + 4);
  iv.set(noncePrefix, 0);
  new DataView(iv.buffer).setUint32(NONCE_PREFIX_BYTES, index, false);
  return { name: 'AES-GCM', iv, additionalData, tagLength: 128 };
}

function recordAad(prefix: Uint8Array, index: number, final: boolean): Uint8Array {
  const aad = new Uint8Array(prefix.length + 5);
  aad.set(prefix, 0);
  new DataView(aad.buffer).setUint32(prefix.length, index, false);
  aad[prefix.length + 4] = final ? 1 : 0;
  return aad;
}

function keyCheckAad(prefix: Uint8Array): Uint8Array {
  const label = encoder().encode('key-check');
  const aad = new Uint8Array(prefix.length + label.length);
  aad.set(prefix, 0);
  aad.set(label, prefix.length);
  return aad;
}

function obj(x: unknown, where: string, bad: (why: string) => never): Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) bad(`${where} is not an object`);
  return x as Record<string, unknown>;
}

function intIn(x: unknown, where: string, min: number, max: number, bad: (why: string) => never): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
    bad(`${where} must be an integer in ${min}…${max}`);
  }
  return x as number;
}

function hexOf(x: unknown, bytes: number, where: string, bad: (why: string) => never): string {
  if (typeof x !== 'string' || !new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(x))
    bad(`${where} is not ${bytes} bytes of hex`);
  return x as string;
}

function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function fromHex(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}
