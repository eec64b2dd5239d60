/**
 * FNV-1a 64-bit content hashes (Fowler–Noll–Vo, http://www.isthe.com/chongo/tech/comp/fnv/).
 *
 * The hash is over the UTF-8 bytes of the string, so it matches every other FNV-1a 64
 * implementation (`fnv1a64('a') === 'af63dc4c8601ec8c'`). Lone surrogates are encoded as U+FFFD,
 * as `TextEncoder` does. The 64-bit state is kept in two unsigned 32-bit halves: BigInt
 * arithmetic is an order of magnitude slower and hashing runs once per chunk.
 */

/** FNV-1a 64 offset basis 0xcbf29ce484222325, as two halves. */
const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
/** FNV 64 prime is 2^40 + 0x1b3: multiplying is a shift of the low half plus a small product. */
const PRIME_LOW = 0x1b3;
const TWO_POW_32 = 4294967296;

/** FNV-1a 64 of the string's UTF-8 bytes, as 16 lower-case hex digits. */
export function fnv1a64(text: string): string {
  let hi = OFFSET_HI;
  let lo = OFFSET_LO;

  // One byte step: state ^= byte; state *= prime (mod 2^64).
  // (hi·2^32 + lo)·(2^40 + 0x1b3) mod 2^64 = lo·0x1b3 + (hi·0x1b3 + lo·2^8)·2^32: the hi·2^40 term
  // overflows entirely. lo·0x1b3 < 2^41 is exact in a double, so its carry is exact too.
  const step = (byte: number): void => {
    lo = (lo ^ byte) >>> 0;
    const product = lo * PRIME_LOW;
    const carry = Math.floor(product / TWO_POW_32);
    hi = (Math.imul(hi, PRIME_LOW) + carry + (lo << 8)) >>> 0;
    lo = product >>> 0;
  };

  const n = text.length;
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    if (cp < 0x80) {
      step(cp);
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        cp = 0xfffd;
      }
    }
    if (cp < 0x800) {
      step(0xc0 | (cp >> 6));
      step(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      step(0xe0 | (cp >> 12));
      step(0x80 | ((cp >> 6) & 0x3f));
      step(0x80 | (cp & 0x3f));
    } else {
      step(0xf0 | (cp >> 18));
      step(0x80 | ((cp >> 12) & 0x3f));
      step(0x80 | ((cp >> 6) & 0x3f));
      step(0x80 | (cp & 0x3f));
    }
  }
  return hex8(hi) + hex8(lo);
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/**
 * A deterministic id from parts, e.g. `stableId('doc', fileName, contentHash)`. Each part is
 * length-prefixed before hashing, so `['ab', 'c']` and `['a', 'bc']` give different ids.
 */
export function stableId(...parts: readonly string[]): string {
  let key = '';
  for (const part of parts) key += `${part.length}:${part}`;
  return fnv1a64(key);
}
