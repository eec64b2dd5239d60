import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatMs,
  formatScore,
  formatTimeLeft,
  percent,
  plural,
  searchedWords,
} from './format';

describe('format', () => {
  it('formats bytes with binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(28 * 1024 * 1024)).toBe('28.0 MB');
    expect(formatBytes(-1)).toBe('–');
  });

  it('clamps percent and guards a zero or unknown total', () => {
    expect(percent(50, 200)).toBe(25);
    expect(percent(199, 200)).toBe(99);
    expect(percent(300, 200)).toBe(100);
    expect(percent(5, 0)).toBe(0);
    expect(percent(5, NaN)).toBe(0);
  });

  it('formats milliseconds and scores', () => {
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(2345)).toBe('2.35 s');
    expect(formatScore(0.016393)).toBe('0.0164');
    expect(formatScore(12.3456)).toBe('12.35');
    expect(formatScore(undefined)).toBe('–');
    expect(formatScore(NaN)).toBe('–');
  });
});

describe('counts in words', () => {
  it('agrees the noun with the count, and groups thousands', () => {
    expect(plural(1, 'page')).toBe('1 page');
    expect(plural(0, 'page')).toBe('0 pages');
    expect(plural(2, 'page')).toBe('2 pages');
    expect(plural(3804, 'chunk')).toBe('3,804 chunks');
    expect(plural(1, 'match', 'matches')).toBe('1 match');
    expect(plural(5, 'match', 'matches')).toBe('5 matches');
    expect(formatCount(276)).toBe('276');
    expect(formatCount(Number.NaN)).toBe('–');
  });

  it('says a time left in whole minutes, rounded up', () => {
    expect(formatTimeLeft(12_000)).toBe('under a minute');
    expect(formatTimeLeft(60_000)).toBe('about 1 min');
    expect(formatTimeLeft(8 * 60_000 + 1)).toBe('about 9 min');
    expect(formatTimeLeft(80 * 60_000)).toBe('about 1 h 20 min');
    expect(formatTimeLeft(120 * 60_000)).toBe('about 2 h');
    expect(formatTimeLeft(-1)).toBe('–');
    expect(formatTimeLeft(Number.POSITIVE_INFINITY)).toBe('–');
  });
});

describe('searchedWords', () => {
  it.each([
    [
      'Organization much has changed between FY2021 FY2022',
      ['Organization', 'much', 'has', 'changed', 'between', 'FY2021', 'FY2022'],
    ],
    ['the allocation notice of the Harbour Board', ['allocation', 'notice', 'Harbour', 'Board']],
    ['Note 12 note 12 AN-9512-G', ['Note', '12', 'AN-9512-G']],
    ['', []],
  ])('%s', (query, words) => {
    expect(searchedWords(query)).toEqual(words);
  });
});
