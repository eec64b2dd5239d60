import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import { zip } from '../../test/fixtures/documents';
import {
  checkZipLimits,
  DEFAULT_ZIP_LIMITS,
  inflateEntry,
  readZipDirectory,
  verifyDeclaredSizes,
  type ZipEntry,
} from './zip-guard';

function entries(b: Uint8Array): readonly ZipEntry[] {
  const dir = readZipDirectory(b);
  if (!dir.ok) throw new Error(`not a zip: ${dir.reason}`);
  return dir.entries;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as EvidentError).code;
  }
  return undefined;
}

describe('readZipDirectory', () => {
  it('lists names, methods and sizes from the central directory', async () => {
    const text = 'hello '.repeat(1000);
    const b = await zip([
      { name: 'a.txt', data: text },
      { name: 'dir/b.bin', data: new Uint8Array([1, 2, 3]), method: 'store' },
    ]);
    const list = entries(b);
    expect(list.map((e) => e.name)).toEqual(['a.txt', 'dir/b.bin']);
    expect(list[0]).toMatchObject({ method: 8, uncompressedSize: text.length });
    expect(list[0]!.compressedSize).toBeLessThan(text.length / 10);
    expect(list[1]).toMatchObject({ method: 0, uncompressedSize: 3, compressedSize: 3 });
  });

  it('reads an empty archive as zero entries', () => {
    const eocdOnly = new Uint8Array(22);
    eocdOnly.set([0x50, 0x4b, 0x05, 0x06]);
    expect(readZipDirectory(eocdOnly)).toEqual({ ok: true, entries: [] });
  });

  it('answers ok: false for bytes that are not a ZIP, a truncated ZIP or a damaged directory', async () => {
    expect(readZipDirectory(new TextEncoder().encode('just some text, no zip here at all')).ok).toBe(false);
    expect(readZipDirectory(new Uint8Array(5)).ok).toBe(false);
    const b = await zip([{ name: 'a.txt', data: 'abc' }]);
    expect(readZipDirectory(b.subarray(0, b.length - 30)).ok).toBe(false);
    const damaged = b.slice();
    const cd = damaged.length - 22 - (46 + 'a.txt'.length); // one central entry before the EOCD
    damaged[cd] = 0; // break the central directory signature
    expect(readZipDirectory(damaged).ok).toBe(false);
  });
});

describe('checkZipLimits', () => {
  it('refuses a declared 1 GB entry from a tiny archive in well under a second, before inflating', async () => {
    // 1 KB of zeros that claims to inflate to 1 GiB: the ratio check fires on the directory alone.
    const b = await zip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: new Uint8Array(1024), declaredSize: 1024 * 1024 * 1024 },
    ]);
    const t0 = performance.now();
    const err = (() => {
      try {
        checkZipLimits(entries(b));
      } catch (e) {
        return e as EvidentError;
      }
      return null;
    })();
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(err?.code).toBe('zip_bomb');
    expect(err?.message).toMatch(/word\/document\.xml/);
    expect(err?.message).toMatch(/1024 MB/);
  });

  it('refuses a total over the limit even when every ratio is modest', async () => {
    const many = await zip(
      Array.from({ length: 3 }, (_, i) => ({
        name: `p${i}.bin`,
        data: new Uint8Array(10),
        method: 'store' as const,
        declaredSize: 10,
      })),
    );
    const list = entries(many).map((e) => ({
      ...e,
      uncompressedSize: 90 * 1024 * 1024,
      compressedSize: 10 * 1024 * 1024,
    }));
    expect(codeOf(() => checkZipLimits(list))).toBe('zip_bomb');
    expect(codeOf(() => checkZipLimits(list.slice(0, 2)))).toBeUndefined();
  });

  it('refuses too many entries and accepts small highly compressible parts', async () => {
    const b = await zip([{ name: 'styles.xml', data: '<a/>'.repeat(50_000) }]); // 200 KB, ratio > 100
    expect(codeOf(() => checkZipLimits(entries(b)))).toBeUndefined();
    const fake = Array.from({ length: 11 }, (_, i) => ({ ...entries(b)[0]!, name: `f${i}` }));
    expect(codeOf(() => checkZipLimits(fake, { ...DEFAULT_ZIP_LIMITS, maxEntries: 10 }))).toBe('zip_bomb');
  });
});

describe('inflateEntry and verifyDeclaredSizes', () => {
  it('inflates deflated and stored entries to their bytes', async () => {
    const text = 'Evident '.repeat(500);
    const b = await zip([
      { name: 'd.txt', data: text },
      { name: 's.txt', data: 'stored', method: 'store' },
    ]);
    const [d, s] = entries(b);
    expect(new TextDecoder().decode(await inflateEntry(b, d!))).toBe(text);
    expect(new TextDecoder().decode(await inflateEntry(b, s!))).toBe('stored');
  });

  it('stops an entry that inflates past its declared size (a lying directory) with zip_bomb', async () => {
    // 4 MB of zeros declared as 1 KB: the declared ratio looks harmless, the inflation is not.
    const b = await zip([{ name: 'word/document.xml', data: new Uint8Array(4 * 1024 * 1024), declaredSize: 1024 }]);
    const list = entries(b);
    expect(() => checkZipLimits(list)).not.toThrow();
    await expect(verifyDeclaredSizes(b, list, () => true)).rejects.toMatchObject({ code: 'zip_bomb' });
  });

  it('passes honest archives and skips entries the filter leaves out', async () => {
    const b = await zip([
      { name: 'a.xml', data: '<a>ok</a>' },
      { name: 'media/big.bin', data: new Uint8Array(4096), declaredSize: 1 },
    ]);
    await expect(verifyDeclaredSizes(b, entries(b), (e) => e.name.endsWith('.xml'))).resolves.toBeUndefined();
    await expect(verifyDeclaredSizes(b, entries(b), () => true)).rejects.toBeInstanceOf(EvidentError);
  });

  it('honours an aborted signal', async () => {
    const b = await zip([{ name: 'a.xml', data: '<a/>' }]);
    const ac = new AbortController();
    ac.abort();
    await expect(verifyDeclaredSizes(b, entries(b), () => true, ac.signal)).rejects.toMatchObject({ code: 'aborted' });
  });
});
