import { describe, expect, it } from 'vitest';
import { extractValues } from '../verify/values';
import { answerExtractive } from './extractive';
import { questionSide, sidesOf } from './roles';
import { source } from './testing';

const sides = (text: string): Record<string, string | null> => {
  const values = extractValues(text).filter((v) => v.kind === 'entity');
  const s = sidesOf(text, values);
  return Object.fromEntries(values.map((v, i) => [v.raw, s[i] ?? null]));
};

describe('questionSide', () => {
  it('reads the side of a contest a question asks for', () => {
    expect(questionSide('Who was the runner-up of the 2010 World Cup?')).toBe('lose');
    expect(questionSide('Which team lost the 2019 final?')).toBe('lose');
    expect(questionSide('Who finished second in the 2021 Masters?')).toBe('lose');
    expect(questionSide('Who won the 2019 Wimbledon final?')).toBe('win');
    expect(questionSide('Who was the champion in 2018?')).toBe('win');
    // "second" without a place is no contest; a question about no contest has no side.
    expect(questionSide('When does the second season premiere?')).toBeNull();
    expect(questionSide('Who directed Titanic?')).toBeNull();
  });
});

describe('sidesOf', () => {
  it('marks the name beside a role noun, on either side', () => {
    expect(sides('Match Centre · Teams. The Netherlands. Runner-up. 11. Goals.')).toMatchObject({
      Netherlands: 'lose',
    });
    expect(sides('World Cup 2010 winner - Spain. EURO 2012 top scorer - Mario Gomez.')).toMatchObject({
      Spain: 'win',
      'Mario Gomez': null,
    });
  });

  it('reads a contest verb: subject wins, object loses; passive and "lost to" the other way round', () => {
    expect(sides('In the final, Spain defeated the Netherlands after extra time.')).toEqual({
      Spain: 'win',
      Netherlands: 'lose',
    });
    expect(sides('The Netherlands were beaten by Spain in the final.')).toEqual({ Netherlands: 'lose', Spain: 'win' });
    expect(sides('The Netherlands lost to Spain in Johannesburg.')).toMatchObject({
      Netherlands: 'lose',
      Spain: 'win',
    });
  });

  it('gives no side to a value marked both ways, or marked by nothing', () => {
    expect(sides('The champions Spain lost to Germany in the final.')).toEqual({ Spain: null, Germany: 'win' });
    expect(sides('Andres Iniesta scored in Johannesburg.')).toEqual({ 'Andres Iniesta': null, Johannesburg: null });
  });
});

describe('answerExtractive on a contest question', () => {
  it('answers "runner-up" with the loser the passages name, not the winner they put first', () => {
    const sources = [
      source(1, 'Jul 14, 2021 ... World Cup 2010 winner - Spain. EURO 2012 top scorer - Mario Gomez.'),
      source(2, 'Spain, the European champions, defeated the Netherlands 1-0 in the 2010 World Cup final.'),
      source(
        3,
        '2010 FIFA World Cup South Africa. Back to FIFA+ · Match Centre · Teams. Netherlands. Runner-up. 11. Goals.',
      ),
    ];
    const a = answerExtractive({ question: 'Who was the runner-up of the 2010 World Cup?', sources });
    expect(a.short).toMatchObject({ text: 'Netherlands', kind: 'entity' });
    // The same passages answer the opposite question the other way.
    const w = answerExtractive({ question: 'Who won the 2010 World Cup?', sources });
    expect(w.short).toMatchObject({ text: 'Spain' });
  });
});
