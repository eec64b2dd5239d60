import { describe, expect, it } from 'vitest';
import type { DocStatus, DocumentMeta } from '../types';
import { titleStem, versionFamilies } from './versions';

const doc = (id: string, title: string, status: DocStatus = 'current'): DocumentMeta => ({
  id,
  title,
  sourceType: 'internal_policy',
  status,
});

describe('titleStem', () => {
  it.each([
    ['Remote Work Policy v3.0', 'remote work policy'],
    ['Remote Work Policy v2.1', 'remote work policy'],
    ['Remote work policy (draft, rev. 2)', 'remote work policy'],
    ['remote-work-policy-2022.md', 'remote work policy'],
    ['Pricing — March 2024', 'pricing'],
    ['3M Company — Form 10-K, fiscal year ended December 31, 2022', 'company form k fiscal year ended'],
    ['Travel and Expenses Policy v1.4', 'travel and expenses policy'],
    ['v2', ''],
    ['2024', ''],
  ])('%s → %s', (title, stem) => {
    expect(titleStem(title)).toBe(stem);
  });
});

describe('versionFamilies', () => {
  it('joins a superseded and a draft version to the one current document with their title', () => {
    const f = versionFamilies([
      doc('v3', 'Remote Work Policy v3.0'),
      doc('v2', 'Remote Work Policy v2.1', 'superseded'),
      doc('v4', 'Remote Work Policy v4.0 (draft)', 'draft'),
      doc('travel', 'Travel and Expenses Policy v1.4'),
      doc('blog', 'Why we are going fully remote (blog)'),
    ]);
    expect(Object.fromEntries(f)).toEqual({ v3: 'v3', v2: 'v3', v4: 'v3' });
  });

  it('makes no family of current documents alone, nor where two current ones share the title', () => {
    // Annual reports of one company share a title once the year is set aside; each is current.
    expect(
      versionFamilies([
        doc('a', '3M Company — Form 10-K, fiscal year ended December 31, 2018'),
        doc('b', '3M Company — Form 10-K, fiscal year ended December 31, 2022'),
      ]).size,
    ).toBe(0);
    expect(
      versionFamilies([
        doc('a', 'Office Policy 2023'),
        doc('b', 'Office Policy 2024'),
        doc('c', 'Office Policy 2019', 'superseded'),
      ]).size,
    ).toBe(0);
    expect(versionFamilies([doc('a', 'v1', 'superseded'), doc('b', 'v2')]).size).toBe(0);
  });
});
