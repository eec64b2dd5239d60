import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fnv1a64, stableId } from './hash';

/** Plain reference: BigInt FNV-1a 64 over the UTF-8 bytes from TextEncoder. */
function referenceFnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64 test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('hashes UTF-8 bytes: multi-byte, astral and lone surrogates (as U+FFFD)', () => {
    for (const s of ['é', '日本語', '😀', '\ud800', 'a\udc00b', '\ufffd']) {
      expect(fnv1a64(s)).toBe(referenceFnv1a64(s));
    }
    expect(fnv1a64('\ud800')).toBe(fnv1a64('\ufffd'));
  });

  it('equals the BigInt reference on arbitrary strings', () => {
    const unit = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((c) => String.fromCharCode(c)) }),
    );
    fc.assert(
      fc.property(unit, (s) => {
        expect(fnv1a64(s)).toBe(referenceFnv1a64(s));
      }),
      { numRuns: 500 },
    );
  });

  it('always returns 16 hex digits', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(fnv1a64(s)).toMatch(/^[0-9a-f]{16}$/);
      }),
    );
  });
});

describe('stableId', () => {
  it('is deterministic and separates part boundaries', () => {
    expect(stableId('doc', 'a.md')).toBe(stableId('doc', 'a.md'));
    expect(stableId('ab', 'c')).not.toBe(stableId('a', 'bc'));
    expect(stableId('abc')).not.toBe(stableId('ab', 'c'));
    expect(stableId()).toMatch(/^[0-9a-f]{16}$/);
  });
});
