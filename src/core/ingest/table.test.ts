import { describe, expect, it } from 'vitest';
import { blockUnits } from './chunk';
import { parseMarkdown } from './markdown';
import { contextTitleLines, isHeaderRow, isValueCell, tableCells, tableLayout } from './table';

/** The layout of the first table of a one-section Markdown text. */
function layoutOf(md: string): ReturnType<typeof tableLayout> & { rows: string[] } {
  const section = parseMarkdown(md).at(-1)!;
  const index = section.blocks.findIndex((b) => b.kind === 'table');
  const rows = blockUnits(md, section.blocks[index]!);
  return { ...tableLayout(md, section.blocks, index, rows), rows: rows.map((r) => md.slice(r.start, r.end)) };
}

describe('table cells and header rows', () => {
  it('splits cells on unescaped pipes, without the outer ones', () => {
    expect(tableCells('| a | b \\| c |  |')).toEqual(['a', 'b | c', '']);
    expect(tableCells('a | b')).toEqual(['a', 'b']);
  });

  it("takes a context's title lines, not its header rows", () => {
    expect(contextTitleLines('Years ended December 31 — (In millions)\n| | 2018 | 2017 |')).toEqual([
      'Years ended December 31 — (In millions)',
    ]);
    expect(contextTitleLines('| | 2018 |')).toEqual([]);
    expect(contextTitleLines(undefined)).toEqual([]);
  });

  it('reads numbers as values and years as labels', () => {
    for (const v of ['1,200', '(300)', '$4.5', '12%', '−7', '0.25', '$ (1,577)']) expect(isValueCell(v)).toBe(true);
    for (const l of ['2018', 'FY2018', 'December 31, 2018', '12/31/2018', '—', '', 'Q1', 'Note 12']) {
      expect(isValueCell(l)).toBe(false);
    }
    expect(isHeaderRow(['', '2018', '2017', '2016'])).toBe(true);
    expect(isHeaderRow(['(Millions)', 'Dec. 31, 2018', 'Dec. 31, 2017'])).toBe(true);
    expect(isHeaderRow(['Revenue', '1,200', '980'])).toBe(false);
    expect(isHeaderRow(['', ''])).toBe(false);
  });
});

describe('tableLayout', () => {
  it('takes the first row as the header of a table without a delimiter row when it holds no values', () => {
    const layout = layoutOf('| | 2018 | 2017 |\n| Revenue | 1,200 | 980 |');
    expect(layout).toMatchObject({ headerRows: 1, header: '| | 2018 | 2017 |', title: '', titleSpan: null });
    expect(layoutOf('| Revenue | 1,200 | 980 |\n| Costs | 5 | 6 |')).toMatchObject({ headerRows: 0, header: '' });
    // One row is no header of anything.
    expect(layoutOf('| | 2018 | 2017 |')).toMatchObject({ headerRows: 0 });
  });

  it('takes the rows before a delimiter row as the header, the delimiter included in the header rows', () => {
    const layout = layoutOf('| Segment | Years | |\n| | 2019 | 2018 |\n|---|--:|--:|\n| A | 1 | 2 |');
    expect(layout.headerRows).toBe(3);
    expect(layout.header).toBe('| Segment | Years | |\n| | 2019 | 2018 |');
  });

  it('takes period rows right below the header into it, wherever the delimiter row is', () => {
    const md =
      '|  | December 31, |  | December 31, |\n| --- | --- | --- | --- |\n|  | 2018 |  | 2017 |\n| ASSETS |  |  |  |\n| Cash | $1,526 |  | $1,499 |';
    const layout = layoutOf(md);
    expect(layout.headerRows).toBe(3);
    expect(layout.header).toBe('|  | December 31, |  | December 31, |\n|  | 2018 |  | 2017 |');
    // A label row without a year ("ASSETS") is data; so is the last row, whatever it holds.
    expect(layoutOf('| | Year ended | |\n| | 2019 | 2018 |\n| Sales | 5 | 6 |').headerRows).toBe(2);
    expect(layoutOf('| | Year ended | |\n| | 2019 | 2018 |').headerRows).toBe(1);
  });

  it('takes short paragraphs directly above as the title, not long ones or a rule', () => {
    const md = [
      '# Statements',
      '',
      'A long paragraph of prose that explains the table at length. '.repeat(5),
      '',
      'Years ended December 31',
      '',
      '(In millions, except per share data)',
      '',
      '| | 2018 | 2017 |',
      '| Net income | 5 | 6 |',
    ].join('\n');
    const layout = layoutOf(md);
    expect(layout.title).toBe('Years ended December 31 — (In millions, except per share data)');
    expect(md.slice(layout.titleSpan!.start, layout.titleSpan!.end)).toBe(
      'Years ended December 31\n\n(In millions, except per share data)',
    );
    expect(layoutOf('# T\n\nSome prose.\n\n---\n\n| a | b |\n| 1 | 2 |').title).toBe('');
    expect(layoutOf('# Just a heading\n\n| a | b |\n| 1 | 2 |').title).toBe('');
  });
});
