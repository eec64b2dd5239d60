import { describe, expect, it } from 'vitest';
import { answerParagraphs, citationIds, highlightSegments, inlineSegments, plainText } from './rich-text';

describe('inlineSegments', () => {
  it('turns **bold** spans into strong segments and leaves the rest as text', () => {
    expect(inlineSegments('up to **three days per week**, with approval')).toEqual([
      { kind: 'text', text: 'up to ' },
      { kind: 'strong', text: 'three days per week' },
      { kind: 'text', text: ', with approval' },
    ]);
    expect(inlineSegments('2 ** 3 and a * b')).toEqual([{ kind: 'text', text: '2 ** 3 and a * b' }]);
  });

  it('keeps markup-looking text as text (React escapes it)', () => {
    expect(inlineSegments('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)>' },
    ]);
  });
});

describe('citationIds', () => {
  it('reads lists and expands ranges', () => {
    expect(citationIds('S1, S3')).toEqual(['S1', 'S3']);
    expect(citationIds('S2–S4')).toEqual(['S2', 'S3', 'S4']);
    expect(citationIds('S7')).toEqual(['S7']);
  });
});

describe('answerParagraphs', () => {
  it('splits paragraphs and turns citation groups into citation segments', () => {
    const ps = answerParagraphs(
      'three days [S1]\n\nYou may work **three days**. [S1] The allowance is EUR 600. [S2, S3]',
    );
    expect(ps).toHaveLength(2);
    expect(ps[0]).toEqual([
      { kind: 'text', text: 'three days ' },
      { kind: 'cite', id: 'S1' },
    ]);
    expect(ps[1]!.filter((s) => s.kind === 'cite').map((s) => (s as { id: string }).id)).toEqual(['S1', 'S2', 'S3']);
    expect(ps[1]!.some((s) => s.kind === 'strong' && s.text === 'three days')).toBe(true);
  });

  it('drops a heading marker that opens a paragraph', () => {
    expect(answerParagraphs('### 2.2 Working abroad [S3]')[0]![0]).toEqual({
      kind: 'text',
      text: '2.2 Working abroad ',
    });
  });
});

describe('highlightSegments', () => {
  const passage = 'Employees may work remotely for up to **three days per\nweek**. Remote work is not a right.';

  it('marks the sentences found in the passage, ignoring bold markers and line wraps', () => {
    const segs = highlightSegments(passage, ['Employees may work remotely for up to **three days per week**.']);
    expect(segs).toEqual([
      { kind: 'mark', text: 'Employees may work remotely for up to three days per week.' },
      { kind: 'text', text: ' Remote work is not a right.' },
    ]);
  });

  it('returns plain text when nothing matches, and merges overlapping marks', () => {
    expect(highlightSegments(passage, ['not in the passage at all'])).toEqual([
      { kind: 'text', text: plainText(passage) },
    ]);
    const merged = highlightSegments('abcdefghij klmnopqrst', ['abcdefghij kl', 'ghij klmnop']);
    expect(merged).toEqual([
      { kind: 'mark', text: 'abcdefghij klmnop' },
      { kind: 'text', text: 'qrst' },
    ]);
  });
});
