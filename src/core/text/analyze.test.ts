import { describe, expect, it } from 'vitest';
import { analyze, analyzerTokens, createAnalyzer, LUCENE_ENGLISH_STOPWORDS } from './analyze';

describe('analyzerTokens (UAX #29 words, as Lucene StandardTokenizer)', () => {
  it('splits hyphenated compounds and keeps numbers', () => {
    expect(analyzerTokens('IL-6 and TNF-α')).toEqual(['il', '6', 'and', 'tnf', 'α']);
  });

  it('keeps digit groups and letter-joined words together', () => {
    expect(analyzerTokens('1,000 cells at 3.5mg, e.g. CD4+ H1N1')).toEqual([
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
    expect(analyzerTokens("the patient's cells' Alzheimer’s")).toEqual(['the', 'patient', 'cells', 'alzheimer']);
  });

  it('normalises compatibility forms (ligatures, full width)', () => {
    expect(analyzerTokens('ﬁbrosis ＡＢＣ')).toEqual(['fibrosis', 'abc']);
  });

  it('emits Han characters one by one and keeps other scripts whole', () => {
    expect(analyzerTokens('東京 naïve Москва')).toEqual(['東', '京', 'naïve', 'москва']);
  });

  it('returns nothing for text without words', () => {
    expect(analyzerTokens('  -- ... !? ')).toEqual([]);
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
