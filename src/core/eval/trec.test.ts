import { describe, expect, it } from 'vitest';
import { formatQrels, formatRun, parseQrels, parseRun } from './trec';

describe('TREC run format', () => {
  it('formats "qid Q0 docid rank score tag" with ranks from 1', () => {
    const run = new Map([
      [
        'q1',
        [
          { id: 'd7', score: 2.5 },
          { id: 'd3', score: 1.25 },
        ],
      ],
      ['q2', [{ id: 'd1', score: 0.5 }]],
    ]);
    expect(formatRun(run, 'bm25')).toBe(
      'q1 Q0 d7 1 2.500000 bm25\nq1 Q0 d3 2 1.250000 bm25\nq2 Q0 d1 1 0.500000 bm25\n',
    );
  });

  it('parses what it formats', () => {
    const run = new Map([
      [
        '12',
        [
          { id: 'a', score: 3 },
          { id: 'b', score: -1.5 },
        ],
      ],
    ]);
    expect(parseRun(formatRun(run, 'x'))).toEqual(run);
  });

  it('rejects malformed lines and whitespace in tags', () => {
    expect(() => parseRun('q1 Q0 d1 1 notanumber tag\n')).toThrow(/line 1/);
    expect(() => parseRun('q1 Q0 d1 1\n')).toThrow(/line 1/);
    expect(() => formatRun(new Map([['q', [{ id: 'd', score: 1 }]]]), 'two words')).toThrow(/tag/);
  });
});

describe('qrels', () => {
  it('reads BEIR TSV with its header', () => {
    const q = parseQrels('query-id\tcorpus-id\tscore\n1\t31715818\t1\n1\t42\t2\n3\t14717500\t1\n');
    expect(q.get('1')).toEqual(
      new Map([
        ['31715818', 1],
        ['42', 2],
      ]),
    );
    expect(q.get('3')?.get('14717500')).toBe(1);
    expect(q.size).toBe(2);
  });

  it('reads TREC qrels and round-trips them', () => {
    const q = parseQrels('301 0 FT-1 1\n301 0 FT-2 0\n');
    expect(q.get('301')?.get('FT-2')).toBe(0);
    expect(parseQrels(formatQrels(q))).toEqual(q);
  });

  it('rejects a wrong column count or a non-integer grade', () => {
    expect(() => parseQrels('1 2 3 4 5\n')).toThrow(/columns/);
    expect(() => parseQrels('1\td\tyes\n')).toThrow(/grade/);
  });
});
