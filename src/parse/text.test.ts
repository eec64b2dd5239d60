import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSections } from '../core/ingest/markdown';
import { newNormalizeStats, normalizeText } from './normalize';
import { decodeText, decodeWindows1252, parseText } from './text';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const isControl = (c: string): boolean => {
  const n = c.charCodeAt(0);
  return c.length === 1 && (n < 0x20 || (n >= 0x7f && n <= 0x9f));
};
const isTag = (c: string): boolean =>
  (c.codePointAt(0) as number) >= 0xe0000 && (c.codePointAt(0) as number) <= 0xe007f;
/** A string's code points as single bytes (what a Latin-1 editor writes). */
const latin1 = (s: string): Uint8Array => Uint8Array.from([...s].map((c) => c.codePointAt(0) as number));

/** Strings without lone surrogates (UTF-8 cannot carry those) nor NUL (NUL-interleaved bytes read as UTF-16). */
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 200 }).filter((s) => !s.includes('\u0000'));

describe('decodeText', () => {
  it('round-trips any well-formed string through UTF-8, with no warning', () => {
    fc.assert(
      fc.property(wellFormed, (s) => {
        const d = decodeText(utf8(s));
        expect(d.text).toBe(s);
        expect(d.warnings).toEqual([]);
      }),
    );
  });

  it('follows a byte-order mark: UTF-8, UTF-16LE, UTF-16BE', () => {
    const s = 'Grüße, 世界';
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(s)])).text).toBe(s);
    const le = new Uint8Array(2 + s.length * 2);
    const be = new Uint8Array(2 + s.length * 2);
    le.set([0xff, 0xfe]);
    be.set([0xfe, 0xff]);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      le.set([c & 0xff, c >> 8], 2 + 2 * i);
      be.set([c >> 8, c & 0xff], 2 + 2 * i);
    }
    expect(decodeText(le)).toMatchObject({ text: s, encoding: 'utf-16le' });
    expect(decodeText(be)).toMatchObject({ text: s, encoding: 'utf-16be' });
  });

  it('reads Latin-1 bytes (invalid as UTF-8) as Windows-1252 and says so', () => {
    const d = decodeText(latin1('## können\n\nÄrger über Öl, Straße'));
    expect(d.text).toBe('## können\n\nÄrger über Öl, Straße');
    expect(d.encoding).toBe('windows-1252');
    expect(d.warnings.map((w) => w.code)).toEqual(['decoded_as_windows_1252']);
  });

  it('maps the Windows-1252 punctuation block (0x80–0x9F), not C1 controls', () => {
    expect(decodeWindows1252(Uint8Array.from([0x80, 0x93, 0x94, 0x96, 0x99]))).toBe('€“”–™');
  });

  it('replaces invalid sequences in otherwise UTF-8 text and counts them', () => {
    // Valid multi-byte UTF-8 plus three bad spots: a lone continuation byte, 0xFF, a truncated sequence.
    const bytes = Uint8Array.from([...utf8('café '), 0x80, ...utf8(' naïve '), 0xff, ...utf8(' end '), 0xf0, 0x9f]);
    const d = decodeText(bytes);
    expect(d.encoding).toBe('utf-8');
    expect(d.text.startsWith('café \uFFFD naïve \uFFFD end ')).toBe(true);
    const w = d.warnings.find((x) => x.code === 'invalid_bytes_replaced');
    expect(w?.count).toBe((d.text.match(/\uFFFD/g) ?? []).length);
    expect(w?.count).toBeGreaterThanOrEqual(3);
  });

  it('does not count a U+FFFD that was already in valid UTF-8 source', () => {
    const bytes = Uint8Array.from([...utf8('already \uFFFD here, café '), 0xff]);
    expect(decodeText(bytes).warnings.find((x) => x.code === 'invalid_bytes_replaced')?.count).toBe(1);
  });

  it('honours a declared charset when the bytes are not UTF-8', () => {
    expect(decodeText(latin1('Müller'), 'iso-8859-1').text).toBe('Müller');
    // Valid UTF-8 wins over a wrong declaration.
    expect(decodeText(utf8('Müller'), 'iso-8859-1').text).toBe('Müller');
  });

  it('recognises UTF-16 without a BOM by its NUL bytes', () => {
    const s = 'Plain ASCII text saved as UTF-16LE without a byte-order mark.';
    const le = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i++) le[2 * i] = s.charCodeAt(i);
    expect(decodeText(le)).toMatchObject({ text: s, encoding: 'utf-16le' });
  });
});

describe('normalizeText', () => {
  it('turns CRLF, CR, form feed and vertical tab into LF', () => {
    expect(normalizeText('a\r\nb\rc\fd\ve', newNormalizeStats())).toBe('a\nb\nc\nd\ne');
  });

  it('removes NUL, other C0/C1 controls and whole ANSI escape sequences, counting them', () => {
    const stats = newNormalizeStats();
    expect(normalizeText('x\u0000y\u0001\u0007 \u001b[31mred\u001b[0m \u0085z', stats)).toBe('xy red z');
    expect(stats.controls).toBe(6);
  });

  it('removes Unicode tag characters and keeps (but counts) zero-width characters', () => {
    const tags = [...'ignore'].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) as number))).join('');
    const stats = newNormalizeStats();
    expect(normalizeText(`ok${tags}.`, stats)).toBe('ok.');
    expect(stats.tags).toBe(6);
    expect(normalizeText('I\u200bg\u200bn', stats)).toBe('I\u200bg\u200bn');
    expect(stats.invisible).toBe(2);
  });

  it('is idempotent, leaves no control characters and keeps every other character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const once = normalizeText(s, newNormalizeStats());
        expect(normalizeText(once, newNormalizeStats())).toBe(once);
        expect([...once].some((c) => isControl(c) && c !== '\t' && c !== '\n')).toBe(false);
        // Everything but controls and tag characters survives, in order.
        const kept = (t: string): string => [...t].filter((c) => !isControl(c) && !isTag(c)).join('');
        expect(kept(once)).toBe(kept(s).replace(/^\uFEFF/, ''));
      }),
    );
  });

  it('returns the same string object when nothing changes (no copy of a 4 MB text)', () => {
    const s = 'plain text\n'.repeat(1000);
    expect(normalizeText(s, newNormalizeStats())).toBe(s);
  });
});

describe('parseText', () => {
  it('finds Markdown headings exactly where the chunker finds sections', () => {
    const md = '# Title\n\nIntro.\n\n## Part A\n\nText.\n\nSetext\n------\n\n```\n# not a heading\n```\n';
    const parsed = parseText(utf8(md), 'markdown');
    expect(parsed.headings).toEqual(['Title', 'Part A', 'Setext']);
    expect(parsed.title).toBe('Title');
    const trails = parseSections(parsed.text, 'markdown').map((s) => s.headings.at(-1));
    expect(trails).toEqual(['Title', 'Part A', 'Setext']);
  });

  it('takes the title from YAML front matter when there is one', () => {
    expect(parseText(utf8('---\ntitle: "Leave policy"\n---\n# Other\n'), 'markdown').title).toBe('Leave policy');
  });

  it('gives plain text no headings and no title of its own', () => {
    const parsed = parseText(utf8('# looks like a heading\n\nbut this is a .txt file'), 'text');
    expect(parsed.headings).toEqual([]);
    expect(parsed.title).toBeUndefined();
  });

  it('reads a 4 MB single line', () => {
    const line = 'word '.repeat(600_000) + 'x'.repeat(1_000_000);
    const parsed = parseText(utf8(line), 'text');
    expect(parsed.text.length).toBe(line.length);
  });
});
