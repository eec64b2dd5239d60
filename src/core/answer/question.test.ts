import { describe, expect, it } from 'vitest';
import { extractValues } from '../verify/values';
import { fitFamily, fitsAskedNoun, unitFamilyOf } from './question';

describe('unitFamilyOf', () => {
  it.each([
    ['What is the incubation period of the virus?', { family: 'duration', strict: true }],
    ['How long does the virus survive on surfaces?', { family: 'duration', strict: false }],
    ['What percentage of patients recovered?', { family: 'share', strict: true }],
    ['What is the price of the licence?', { family: 'money', strict: false }],
    ['How much did the company pay?', { family: 'money', strict: false }],
    ['Who wrote the report?', null],
    ['How many patients recovered?', null],
    ['How many years is the minimum lifespan of the building?', { family: 'duration', strict: false }],
    ['How many days a week can staff work from home?', { family: 'duration', strict: false }],
  ])('%s', (question, ask) => {
    expect(unitFamilyOf(question)).toEqual(ask);
  });
});

describe('fitFamily', () => {
  const values = extractValues('The median was 5 days in 7 patients, 12% of the cohort.');
  it('keeps the values of the asked family when one fits', () => {
    expect(fitFamily(values, { family: 'duration', strict: true }).map((v) => v.raw)).toEqual(['5 days']);
    expect(fitFamily(values, { family: 'share', strict: true }).map((v) => v.raw)).toEqual(['12%']);
  });
  it('keeps no bare number for a strict family none fits, all for a loose one', () => {
    const bare = extractValues('It was 7 in all.');
    expect(fitFamily(bare, { family: 'duration', strict: true })).toEqual([]);
    expect(fitFamily(bare, { family: 'duration', strict: false }).map((v) => v.raw)).toEqual(['7']);
  });
});

describe('fitsAskedNoun', () => {
  const nameIn = (sentence: string, name: string) => {
    const value = extractValues(sentence).find((v) => v.raw === name);
    if (!value) throw new Error(`no value "${name}" in "${sentence}"`);
    return value;
  };
  it.each([
    ['What gorge is between Bingen and Bonn?', 'The Rhine Gorge runs from Bingen to Bonn.', 'Rhine Gorge', true],
    ['Which museum receives the loans?', 'Items go on loan to the Horniman Museum in London.', 'Horniman Museum', true],
    ['What organ produces hepcidin?', 'Hepcidin, made by the liver, binds Fe in plasma.', 'Fe', false],
    [
      'What test indicates special care?',
      'PCR detected viral RNA outside the airways of those who needed special care.',
      'PCR',
      false,
    ],
    ['Who chairs the IPCC?', 'The IPCC is chaired by Hoesung Lee.', 'Hoesung Lee', true],
    ['Where is Energiprojekt AB based?', 'Energiprojekt AB is based in Sweden.', 'Sweden', true],
  ])('%s — %s', (question, sentence, name, fits) => {
    expect(fitsAskedNoun(sentence, nameIn(sentence, name), question)).toBe(fits);
  });
  it('holds for values other than names', () => {
    const sentence = 'The median was 5 days.';
    expect(fitsAskedNoun(sentence, nameIn(sentence, '5 days'), 'What organ produces hepcidin?')).toBe(true);
  });
});
