import { describe, expect, it } from 'vitest';
import { extractValues } from '../verify/values';
import { qualifiedFigure } from './figures';

describe('qualifiedFigure', () => {
  it.each([
    ['Hospitalisation lasted a median of 13 days (range: 8-23 days).', '13 days', 'a median of 13 days'],
    ['Up to 81% of severe pneumonia deaths occur outside hospital.', '81%', 'Up to 81%'],
    ['The fund has more than 5,000 members.', '5,000', 'more than 5,000'],
    ['Symptoms last approximately 20 days.', '20 days', 'approximately 20 days'],
    ['The trial enrolled 52500 adults.', '52500', '52500'],
    ['The median was reported in Table 2 as 7 days.', '7 days', '7 days'],
    [
      'During the fourth quarter of fiscal year 2018, the Board approved a plan.',
      '2018',
      'the fourth quarter of fiscal year 2018',
    ],
    ['The plant opened at the end of 2019.', '2019', 'the end of 2019'],
    ['Revenue for fiscal 2019 rose.', '2019', 'fiscal 2019'],
    ['The plan was approved in 2018.', '2018', '2018'],
  ])('%s', (sentence, raw, shown) => {
    const value = extractValues(sentence).find((v) => v.raw === raw);
    if (!value) throw new Error(`no value "${raw}" in "${sentence}"`);
    expect(qualifiedFigure(sentence, value)).toBe(shown);
  });
  it('leaves a name as it is', () => {
    const sentence = 'About Hoesung Lee little is said.';
    const value = extractValues(sentence).find((v) => v.kind === 'entity');
    if (!value) throw new Error('no name');
    expect(qualifiedFigure(sentence, value)).toBe(value.raw);
  });
});
