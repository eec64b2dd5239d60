import { describe, expect, it } from 'vitest';
import { displayBlocks } from './chunk-text';

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

  it('keeps the lines of tables, lists and code', () => {
    const table = '| a | b |\n|---|---|\n| 1 | 2 |';
    const list = '- one\n- two';
    expect(displayBlocks(`${table}\n\n${list}`, [])).toEqual([
      { text: table, preserveLines: true },
      { text: list, preserveLines: true },
    ]);
  });

  it('returns nothing for a heading-only chunk or blank text', () => {
    expect(displayBlocks('## Limits', ['Limits'])).toEqual([]);
    expect(displayBlocks('  \n\n ', [])).toEqual([]);
  });
});
