import { describe, expect, it } from 'vitest';
import { displayBlocks, tableOf } from './chunk-text';

describe('displayBlocks', () => {
  it('drops a leading heading that the trail already shows, and unwraps prose', () => {
    const text = '## 2. Limits\n\nEmployees may work remotely\nfor up to three days.\n\nSecond paragraph.';
    expect(displayBlocks(text, ['Policy', '2. Limits'])).toEqual([
      { text: 'Employees may work remotely for up to three days.', preserveLines: false },
      { text: 'Second paragraph.', preserveLines: false },
    ]);
  });

  it('keeps a heading that differs from the trail', () => {
    expect(displayBlocks('# Other\nText', ['Policy'])).toEqual([{ text: '# Other Text', preserveLines: false }]);
  });

  it('keeps the lines of lists and code; a table becomes cells', () => {
    const table = '| a | b |\n|---|---|\n| 1 | 2 |';
    const list = '- one\n- two';
    expect(displayBlocks(`${table}\n\n${list}`, [])).toEqual([
      { text: table, preserveLines: true, table: { header: [['a', 'b']], rows: [['1', '2']] } },
      { text: list, preserveLines: true },
    ]);
  });

  it('shows a table without pipes: the header once, the delimiter row gone, a title line above it apart', () => {
    const text = [
      '(In millions)',
      '| | 2022 | 2021 |',
      '|---|---:|---:|',
      '| Net sales | 34,229 | 35,355 |',
      '| | 2022 | 2021 |',
      '| Operating income | 6,539 | 7,369 |',
    ].join('\n');
    const blocks = displayBlocks(text, []);
    expect(blocks.map((b) => b.text.split('\n')[0])).toEqual(['(In millions)', '| | 2022 | 2021 |']);
    expect(blocks[1]?.table).toEqual({
      header: [['', '2022', '2021']],
      rows: [
        ['Net sales', '34,229', '35,355'],
        ['Operating income', '6,539', '7,369'],
      ],
    });
    expect(JSON.stringify(blocks[1]?.table)).not.toContain('|');
  });

  it("shows a later chunk of a table under its column header, from the chunk's context", () => {
    const context = 'Consolidated Balance Sheet — (In millions)\n| | 2022 | 2021 |';
    expect(displayBlocks('| Accounts payable | 3,183 | 2,994 |', [], context)[0]?.table).toEqual({
      header: [['', '2022', '2021']],
      rows: [['Accounts payable', '3,183', '2,994']],
    });
    // A chunk that holds its own header keeps it (shown once).
    expect(displayBlocks('| | 2020 |\n|---|---|\n| Cash | 1 |', [], context)[0]?.table?.header).toEqual([['', '2020']]);
  });

  it('reads a first row of labels as the header without a delimiter row (DOCX, HTML), and rows of values as rows', () => {
    expect(tableOf(['| Country | Rate |', '| France | 25 % |'])).toEqual({
      header: [['Country', 'Rate']],
      rows: [['France', '25 %']],
    });
    expect(tableOf(['| Revenue | 1,200 |', '| Costs | (300) |'])).toEqual({
      header: [],
      rows: [
        ['Revenue', '1,200'],
        ['Costs', '(300)'],
      ],
    });
  });

  it('returns nothing for a heading-only chunk or blank text', () => {
    expect(displayBlocks('## Limits', ['Limits'])).toEqual([]);
    expect(displayBlocks('  \n\n ', [])).toEqual([]);
  });
});
