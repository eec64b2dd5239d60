import { describe, expect, it } from 'vitest';
import { groupRows, lineOf } from './lines';
import { item, linesOf, words } from './testing';

describe('lines from positions', () => {
  it('groups items by baseline and orders them by x, whatever the stream order', () => {
    const lines = linesOf([item('world', 40, 700), item('second', 10, 686), item('hello', 10, 700.5)]);
    expect(lines.map((l) => l.text)).toEqual(['hello world', 'second']);
  });

  it('puts a space only where the gap says so', () => {
    // "Evi" and "dent" touch (kerning split); "is" starts a word-space later.
    const evi = item('Evi', 10, 700);
    const dent = item('dent', 10 + evi.width + 0.3, 700);
    const is = item('is', dent.x + dent.width + 2.5, 700);
    expect(linesOf([evi, dent, is])[0]?.text).toBe('Evident is');
  });

  it('joins small capitals split across sizes into words ("MGM R" + "ESORTS" → "MGM RESORTS")', () => {
    const a = { str: 'MGM R', x: 178, y: 574, size: 19.4, width: 70.4 };
    const b = { str: 'ESORTS', x: 253.4, y: 574, size: 13.4, width: 52.6 };
    const c = { str: 'I', x: 311, y: 574, size: 19.4, width: 7.5 };
    const d = { str: 'NTERNATIONAL', x: 323.3, y: 574, size: 13.4, width: 109 };
    expect(linesOf([a, b, c, d])[0]?.text).toBe('MGM RESORTS INTERNATIONAL');
  });

  it('keeps a raised footnote marker apart from the word it follows, on the same line', () => {
    const total = item('Total', 10, 700);
    const marker = item('(a)', 10 + total.width, 703.5, 6);
    const rows = groupRows([total, marker, item('next line', 10, 686)]);
    expect(rows).toHaveLength(2);
    expect(lineOf(rows[0]!.items, -1).text).toBe('Total (a)');
    expect(rows[0]!.items.find((i) => i.str === '(a)')?.raised).toBe(true);
  });

  it('cuts a line into segments at wide gaps and keeps its x-extent, size and weight', () => {
    const items = [...words('Accounts payable', 30, 500), item('302,578', 460, 500), item('255,028', 555, 500)];
    const line = linesOf(items)[0]!;
    expect(line.segments.map((s) => s.text)).toEqual(['Accounts payable', '302,578', '255,028']);
    expect(line.x).toBe(30);
    expect(line.xEnd).toBeCloseTo(555 + 35);
    expect(line.size).toBe(10);
    const bold = linesOf([{ ...item('Heading', 10, 700), fontName: 'Helvetica-Bold' }])[0]!;
    expect(bold.bold).toBe(true);
    expect(line.bold).toBe(false);
  });

  it('drops whitespace-only items, whose widths pdf.js sometimes gives absurdly', () => {
    const items = [item('Cash', 30, 600), { str: ' ', x: 52, y: 600, size: 10, width: 14000 }, item('1,526', 460, 600)];
    const line = linesOf(items)[0]!;
    expect(line.xEnd).toBeCloseTo(460 + 25);
    expect(line.segments).toHaveLength(2);
  });
});
