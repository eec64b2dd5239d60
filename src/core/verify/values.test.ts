import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { answerTypeOf, caseFolded, compatibleKeys, dateParts, extractValues, hasNegation } from './values';

const keys = (text: string): string[] => extractValues(text).map((v) => `${v.kind}:${v.key}`);

describe('extractValues', () => {
  it('reads dates in their common spellings into one key', () => {
    for (const t of ['July 21, 2017', '21 July 2017', 'Jul. 21, 2017', '2017-07-21', 'July 21st, 2017']) {
      expect(keys(`It was released on ${t}.`)).toContain('date:2017-07-21');
    }
    expect(keys('It premiered in June 2020.')).toEqual(['date:2020-06']);
    expect(keys('Founded in 2015 in San Francisco.')).toEqual(['date:2015', 'entity:san francisco']);
  });

  it('reads amounts with currency, scale and unit', () => {
    expect(keys('Revenue was $10.4 billion.')).toEqual(['number:10400000000usd']);
    expect(keys('Hotels are capped at 180 EUR per night.')).toEqual(['number:180eur']);
    expect(keys('Up 74% from 10,389 cars.')).toEqual(['number:74%', 'number:10389']);
    expect(keys('Employees get ten days of leave.')).toEqual(['number:10day']);
  });

  it('reads no section or list number as a value, and keeps figures that merely start a line', () => {
    const keys = (t: string): string[] =>
      extractValues(t)
        .filter((v) => v.kind !== 'entity')
        .map((v) => v.key);
    expect(keys('## 2. Daily allowances\n\nMeals are covered up to 60 EUR per day.')).toEqual(['60eur']);
    expect(keys('### 2.1 Core hours')).toEqual([]);
    expect(keys('1. Book travel 14 days ahead.\n2) Submit claims within 30 days.')).toEqual(['14day', '30day']);
    expect(keys('- 3. Mileage')).toEqual([]);
    expect(keys('2020 was the first year.\n3.5 million people applied.')).toEqual(['2020', '3500000people']);
  });

  it('reads names as runs of capitalised words, not sentence-initial function words', () => {
    expect(keys('The game was played in Tampa, Florida.')).toEqual(['entity:tampa', 'entity:florida']);
    expect(keys('Niels B. Christiansen leads the LEGO Group.')).toEqual([
      'entity:niels b christiansen',
      'entity:lego group',
    ]);
    expect(keys('Tadej Pogačar won. Chloé Zhao made history.')).toEqual(['entity:tadej pogacar', 'entity:chloe zhao']);
  });

  it('never returns overlapping values or offsets outside the text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'July',
            '21,',
            '2017',
            '$5',
            'million',
            'Ada',
            'Lovelace',
            'the',
            'of',
            'ten',
            'days',
            '.',
            'B.',
          ),
          {
            maxLength: 30,
          },
        ),
        (words) => {
          const text = words.join(' ');
          const vs = extractValues(text);
          for (let i = 0; i < vs.length; i++) {
            const v = vs[i]!;
            expect(v.start).toBeGreaterThanOrEqual(0);
            expect(v.end).toBeLessThanOrEqual(text.length);
            expect(text.slice(v.start, v.end)).toBe(v.raw);
            if (i > 0) expect(v.start).toBeGreaterThanOrEqual(vs[i - 1]!.end);
          }
        },
      ),
    );
  });
});

describe('compatibleKeys', () => {
  it('treats a less specific value as compatible, a different one as not', () => {
    expect(compatibleKeys('date', '2017-07', '2017-07-21')).toBe(true);
    expect(compatibleKeys('date', '2017-07-21', '2007-07-01')).toBe(false);
    expect(compatibleKeys('entity', 'barty', 'ashleigh barty')).toBe(true);
    expect(compatibleKeys('entity', 'simona halep', 'ashleigh barty')).toBe(false);
    expect(compatibleKeys('number', '180', '180eur')).toBe(true);
    expect(compatibleKeys('number', '180eur', '250eur')).toBe(false);
    expect(dateParts('--07-21')).toEqual({ y: null, m: '07', d: '21' });
  });
});

describe('answerTypeOf and hasNegation', () => {
  it('maps wh-words to the kind of value asked for', () => {
    expect(answerTypeOf('Who acquired Instagram?')).toBe('entity');
    expect(answerTypeOf('Who approved the budget?')).toBe('entity');
    expect(answerTypeOf('When was Splatoon 2 released?')).toBe('date');
    expect(answerTypeOf('What is the release date of Cyberpunk 2077?')).toBe('date');
    expect(answerTypeOf('How much did Google pay for YouTube?')).toBe('number');
    expect(answerTypeOf("What was Tesla's revenue in Q1 2021?")).toBe('number');
    expect(answerTypeOf('Is sick leave paid?')).toBe('yesno');
    expect(answerTypeOf('Super Bowl 2021 location')).toBe('any');
    // The asked phrase's head names a figure, singular or plural.
    expect(answerTypeOf('What are the respective values of raw materials in 2018 and 2019?')).toBe('number');
    expect(answerTypeOf("What are the company's respective gross profit in 2019 and 2018?")).toBe('number');
  });
  it('reads a request for an explanation as a description, and keeps factoid "what" questions', () => {
    for (const q of [
      'What is trace-based compilation?',
      'What is a tracing JIT?',
      'Why does the recorder abort on deep recursion?',
      'How does type specialization work?',
      'Explain trace trees.',
      'What does SSA stand for?',
      'What is the purpose of the trace monitor?',
    ]) {
      expect(answerTypeOf(q), q).toBe('description');
    }
    expect(answerTypeOf("What is the name of Microsoft's AR headset?")).toBe('entity');
    expect(answerTypeOf("What is Amazon's assistant called?")).toBe('entity');
    expect(answerTypeOf("What is women's year-end No 1 in tennis in 2020?")).toBe('entity');
    expect(answerTypeOf('What is the hotel cap per night?')).toBe('number');
    expect(answerTypeOf('How many days of sick leave are paid?')).toBe('number');
  });
  it('finds negations', () => {
    expect(hasNegation('Sick leave is not paid out.')).toBe(true);
    expect(hasNegation("It isn't paid.")).toBe(true);
    expect(hasNegation('Sick leave is paid out.')).toBe(false);
  });
});

describe('caseFolded (the text the case-insensitive gates read)', () => {
  it('rests on the only non-ASCII characters that case-insensitive patterns read as ASCII letters', () => {
    // Under `iu`: U+017F LONG S and U+212A KELVIN SIGN match letters and are word characters; lower
    // casing turns only U+212A and U+0130 (into "i" + U+0307) into ASCII word characters.
    const readAsLetter: number[] = [];
    const lowersToWord: number[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (/^[a-z]$/iu.test(ch) || /^\w$/iu.test(ch)) readAsLetter.push(cp);
      if (/[a-z0-9_]/u.test(ch.toLowerCase())) lowersToWord.push(cp);
    }
    expect(readAsLetter).toEqual([0x17f, 0x212a]);
    expect(lowersToWord).toEqual([0x130, 0x212a]);
    expect(caseFolded('\u017fEPT \u212aM İx')).toBe('sept km i\u0307x');
  });

  it('reads a run of number words as one number, with its unit', () => {
    const numbers = (t: string): string[] =>
      extractValues(t)
        .filter((v) => v.kind === 'number')
        .map((v) => `${v.raw}=${v.key}`);
    expect(numbers('The repair costs three hundred thousand euros.')).toEqual([
      'three hundred thousand euros=300000eur',
    ]);
    expect(numbers('forty-two cubic metres')).toEqual(['forty-two=42']);
    expect(numbers('one hundred and five days')).toEqual(['one hundred and five days=105day']);
    expect(numbers('Two million people')).toEqual(['Two million people=2000000people']);
    expect(numbers('fifteen weeks')).toEqual(['fifteen weeks=15week']);
    // "one" opens a number only before a scale word.
    expect(numbers('One million dollars')).toEqual(['One million dollars=1000000usd']);
    // Not one number: each word that is a number by itself; "one" alone and a bare scale are none.
    expect(numbers('two or three')).toEqual(['two=2', 'three=3']);
    expect(numbers('nineteen ninety')).toEqual(['nineteen=19', 'ninety=90']);
    expect(numbers('one of the thousands of fans')).toEqual([]);
  });

  it('lets every month and number word through in any case', () => {
    const months = [
      'January',
      'Feb',
      'March',
      'Apr',
      'May',
      'June',
      'Jul',
      'August',
      'Sept',
      'Sep',
      'Oct',
      'November',
      'Dec',
    ];
    for (const m of months) {
      for (const t of [`on 3 ${m} 2019`, `on ${m} 3, 2019`, `in ${m} 2019`, `on ${m} 3`, `on 3rd ${m}`]) {
        const dates = (x: string): string[] => keys(x).filter((k) => k.startsWith('date:'));
        expect(dates(t), t).not.toEqual(dates(t.replace(/\D+/gu, ' ')));
        expect(dates(t.toUpperCase()), t).toEqual(dates(t));
      }
    }
    for (const w of ['two', 'seven', 'ten', 'twelve', 'twenty', 'ninety', 'hundred']) {
      expect(keys(`${w} days`).length, w).toBe(1);
      expect(keys(`${w.toUpperCase()} DAYS`)).toEqual(keys(`${w} days`));
    }
  });
});
