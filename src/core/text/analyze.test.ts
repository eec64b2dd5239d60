import { describe, expect, it } from 'vitest';
import { analyze, createAnalyzer, LUCENE_ENGLISH_STOPWORDS, tokenize } from './analyze';

describe('tokenize (UAX #29 words, as Lucene StandardTokenizer)', () => {
  it('splits hyphenated compounds and keeps numbers', () => {
    expect(tokenize('IL-6 and TNF-α')).toEqual(['il', '6', 'and', 'tnf', 'α']);
  });

  it('keeps digit groups and letter-joined words together', () => {
    expect(tokenize('1,000 cells at 3.5mg, e.g. CD4+ H1N1')).toEqual([
      '1,000',
      'cells',
      'at',
      '3.5mg',
      'e.g',
      'cd4',
      'h1n1',
    ]);
  });

  it('drops the English possessive', () => {
    expect(tokenize("the patient's cells' Alzheimer’s")).toEqual(['the', 'patient', 'cells', 'alzheimer']);
  });

  it('normalises compatibility forms (ligatures, full width)', () => {
    expect(tokenize('ﬁbrosis ＡＢＣ')).toEqual(['fibrosis', 'abc']);
  });

  it('emits Han characters one by one and keeps other scripts whole', () => {
    expect(tokenize('東京 naïve Москва')).toEqual(['東', '京', 'naïve', 'москва']);
  });

  it('returns nothing for text without words', () => {
    expect(tokenize('  -- ... !? ')).toEqual([]);
  });
});

describe('analyze', () => {
  it('removes Lucene stop words and stems with Porter', () => {
    expect(analyze('The effects of running are studied in these mice')).toEqual(['effect', 'run', 'studi', 'mice']);
  });

  it('can keep surface forms', () => {
    expect(analyze('The effects of running', { stem: false })).toEqual(['effects', 'running']);
    expect(analyze('The effects', { stem: false, stopwords: 'none' })).toEqual(['the', 'effects']);
  });

  it('uses the 33-word Lucene English stop set', () => {
    expect(LUCENE_ENGLISH_STOPWORDS.size).toBe(33);
    expect(analyze([...LUCENE_ENGLISH_STOPWORDS].join(' '))).toEqual([]);
  });

  it('is deterministic across calls (the stem cache does not change results)', () => {
    const a = createAnalyzer();
    const first = a.analyze('generalizations generalization relational');
    expect(a.analyze('generalizations generalization relational')).toEqual(first);
    expect(first).toEqual(['gener', 'gener', 'relat']);
  });

  it('rejects unknown options', () => {
    expect(() => createAnalyzer({ stemming: true } as never)).toThrow(/unknown option "stemming"/);
    expect(() => createAnalyzer({ stopwords: 'french' } as never)).toThrow(/stopwords must be one of/);
  });
});
