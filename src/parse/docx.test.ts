import { describe, expect, it } from 'vitest';
import { parseSections } from '../core/ingest/markdown';
import { docx, w, zip } from '../../test/fixtures/documents';
import { parseDocx } from './docx';

describe('parseDocx on documents built in the test', () => {
  it('turns Word headings into "#" sections and tables into atomic rows', async () => {
    const bytes = await docx(
      w.heading(1, 'Travel policy') +
        w.para('Economy class is required for flights under six hours.') +
        w.heading(2, 'Hotels') +
        w.table([
          ['City', 'Cap per night'],
          ['Berlin', '180 EUR'],
        ]) +
        w.para('# Not a heading, just text that starts with a hash.'),
      { title: 'Acme travel policy', created: '2024-03-01T09:00:00Z' },
    );
    const parsed = await parseDocx(bytes);
    expect(parsed.headings).toEqual(['Travel policy', 'Hotels']);
    expect(parsed.text).toContain('| City | Cap per night |\n| Berlin | 180 EUR |');
    const sections = parseSections(parsed.text, 'markdown');
    expect(sections.map((s) => s.headings)).toEqual([['Travel policy'], ['Travel policy', 'Hotels']]);
    expect(sections[1]!.blocks.map((b) => b.kind)).toEqual(['heading', 'table', 'paragraph']);
    expect(parsed.title).toBe('Acme travel policy');
    expect(parsed.created).toBe('2024-03-01T09:00:00.000Z');
  });

  it('refuses a ZIP bomb from its directory, before mammoth sees it', async () => {
    const bomb = await zip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: new Uint8Array(2048), declaredSize: 1_500_000_000 },
    ]);
    await expect(parseDocx(bomb)).rejects.toMatchObject({ code: 'zip_bomb' });
  });

  it('refuses an entry that inflates past what it declares', async () => {
    const liar = await zip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: new Uint8Array(3 * 1024 * 1024), declaredSize: 500 },
    ]);
    await expect(parseDocx(liar)).rejects.toMatchObject({ code: 'zip_bomb' });
  });

  it('says not_docx for non-ZIP bytes, an empty ZIP and a ZIP without a Word document', async () => {
    await expect(parseDocx(new TextEncoder().encode('plain text renamed to .docx'))).rejects.toMatchObject({
      code: 'not_docx',
      message: expect.stringMatching(/^This is not a Word \.docx file/),
    });
    const empty = new Uint8Array(22);
    empty.set([0x50, 0x4b, 0x05, 0x06]);
    await expect(parseDocx(empty)).rejects.toMatchObject({
      code: 'not_docx',
      message: expect.stringMatching(/empty ZIP/),
    });
    const other = await zip([{ name: 'xl/workbook.xml', data: '<workbook/>' }]);
    await expect(parseDocx(other)).rejects.toMatchObject({
      code: 'not_docx',
      message: expect.stringMatching(/word\/document\.xml/),
    });
  });
});
