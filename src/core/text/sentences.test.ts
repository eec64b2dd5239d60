import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isListMarkerAt, isSpace, splitSentences } from './sentences';

const sentences = (text: string): string[] => splitSentences(text).map((s) => text.slice(s.start, s.end));

describe('splitSentences', () => {
  it('splits after . ! ? followed by whitespace or the end', () => {
    expect(sentences('One. Two! Three? Four')).toEqual(['One.', 'Two!', 'Three?', 'Four']);
    expect(sentences('Really?! Yes!!')).toEqual(['Really?!', 'Yes!!']);
  });

  it('keeps abbreviations inside the sentence', () => {
    expect(sentences('Use a tool, e.g. a hammer. Or i.e. not. Next.')).toEqual([
      'Use a tool, e.g. a hammer.',
      'Or i.e. not.',
      'Next.',
    ]);
    expect(sentences('Dr. Who met Mr. Smith. See Fig. 2 vs. Fig. 3. Smith et al. agree.')).toEqual([
      'Dr. Who met Mr. Smith.',
      'See Fig. 2 vs. Fig. 3.',
      'Smith et al. agree.',
    ]);
    expect(sentences('(e.g. This one) stays.')).toEqual(['(e.g. This one) stays.']);
  });

  it('reads "No." as an abbreviation only before a number', () => {
    expect(sentences('See No. 5 below. The answer is no. Next.')).toEqual([
      'See No. 5 below.',
      'The answer is no.',
      'Next.',
    ]);
  });

  it('keeps decimals, initials, dotted acronyms and ellipses', () => {
    expect(sentences('Pi is 3.14 today. J. K. Rowling wrote it. The U.S. Army left. Wait... What now? Ok…')).toEqual([
      'Pi is 3.14 today.',
      'J. K. Rowling wrote it.',
      'The U.S. Army left.',
      'Wait... What now?',
      'Ok…',
    ]);
  });

  it('does not split before a lower-case word (an unknown abbreviation)', () => {
    expect(sentences('It weighs approx. ten kg. Then stop.')).toEqual(['It weighs approx. ten kg.', 'Then stop.']);
    expect(sentences('Call the dept. of health. Done.')).toEqual(['Call the dept. of health.', 'Done.']);
  });

  it('keeps closing quotes, brackets and emphasis with the sentence', () => {
    expect(sentences('He said "Stop." Then left. (It rained.) **Note.** End')).toEqual([
      'He said "Stop."',
      'Then left.',
      '(It rained.)',
      '**Note.**',
      'End',
    ]);
    expect(sentences('“Quoted.” Next')).toEqual(['“Quoted.”', 'Next']);
  });

  it('splits CJK full stops without whitespace', () => {
    expect(sentences('你好。我很好！你呢？好的')).toEqual(['你好。', '我很好！', '你呢？', '好的']);
    expect(sentences('「終わり。」次')).toEqual(['「終わり。」', '次']);
  });

  it('ends a sentence at a blank line, not at a single newline', () => {
    expect(sentences('A line that\nwraps here.\n\nNew paragraph\n \t\nAnother')).toEqual([
      'A line that\nwraps here.',
      'New paragraph',
      'Another',
    ]);
    expect(sentences('Windows\r\n\r\nlines')).toEqual(['Windows', 'lines']);
  });

  it('starts a new unit at every list item', () => {
    expect(sentences('Intro:\n- one\n* two. Three\n  + four\n1. five\n12) six')).toEqual([
      'Intro:',
      '- one',
      '* two.',
      'Three',
      '+ four',
      '1. five',
      '12) six',
    ]);
  });

  it('returns nothing for empty or whitespace-only text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\t\u3000 ')).toEqual([]);
  });

  it('respects a sub-range', () => {
    const text = 'Skip me. Take one. Take two. Skip too.';
    const from = text.indexOf('Take');
    const to = text.indexOf('Skip too');
    const spans = splitSentences(text, from, to);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Take one.', 'Take two.']);
  });

  it('handles a 4 MB single line with and without sentence breaks', () => {
    const solid = 'x'.repeat(4 * 1024 * 1024);
    expect(splitSentences(solid)).toEqual([{ start: 0, end: solid.length }]);
    const many = 'Aa bb. '.repeat(600_000);
    const spans = splitSentences(many);
    expect(spans).toHaveLength(600_000);
    expect(spans[1]).toEqual({ start: 7, end: 13 });
  });

  it('partitions the non-whitespace of any text into ordered, trimmed spans', () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        'word',
        'Word',
        ' ',
        '  ',
        '\n',
        '\n\n',
        '\r\n',
        '.',
        '!',
        '?',
        '...',
        '…',
        '。',
        '"',
        ')',
        'e.g.',
        'Dr.',
        'No.',
        '3.5',
        'J.',
        '- ',
        '1. ',
        '\ufffd',
        '\ud800',
        '\udc00',
        '😀',
        '\u00a0',
        '\u3000',
      ),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        const spans = splitSentences(text);
        let prev = 0;
        for (const s of spans) {
          expect(s.end).toBeGreaterThan(s.start);
          expect(s.start).toBeGreaterThanOrEqual(prev);
          const body = text.slice(s.start, s.end);
          expect(body.trim()).toBe(body);
          expect(text.slice(prev, s.start).trim()).toBe('');
          prev = s.end;
        }
        expect(text.slice(prev).trim()).toBe('');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('isSpace', () => {
  it('agrees with String.prototype.trim on every BMP code unit', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      expect(isSpace(c), `U+${c.toString(16)}`).toBe(ch.trim() === '');
    }
  });
});

describe('isListMarkerAt', () => {
  it('recognises bullets and numbers followed by a space', () => {
    expect(isListMarkerAt('- a', 0)).toBe(true);
    expect(isListMarkerAt('10. a', 0)).toBe(true);
    expect(isListMarkerAt('3) a', 0)).toBe(true);
    expect(isListMarkerAt('-a', 0)).toBe(false);
    expect(isListMarkerAt('3.5 a', 0)).toBe(false);
    expect(isListMarkerAt('1234567890. a', 0)).toBe(false);
  });
});
