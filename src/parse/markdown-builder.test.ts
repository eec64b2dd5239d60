import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSections } from '../core/ingest/markdown';
import { looksLikeStructure, MarkdownBuilder } from './markdown-builder';

/** Lines that stress Markdown's block syntax. */
const markdownish = fc.array(
  fc.oneof(
    fc.constantFrom(
      '# h',
      '## two',
      '---',
      '===',
      '-',
      '=',
      '***',
      '___',
      '```',
      '~~~',
      '| a | b |',
      '|---|',
      '   # indented',
      'text',
    ),
    fc.string({ maxLength: 20 }),
  ),
  { minLength: 1, maxLength: 8 },
);

describe('MarkdownBuilder', () => {
  it('never turns paragraph text into headings, tables or code', () => {
    fc.assert(
      fc.property(fc.array(markdownish, { maxLength: 5 }), (paragraphs) => {
        const b = new MarkdownBuilder();
        for (const lines of paragraphs) b.paragraph(lines.join('\n'));
        const text = b.toString();
        const sections = parseSections(text, 'markdown');
        expect(sections.flatMap((s) => s.headings)).toEqual([]);
        expect(sections.flatMap((s) => s.blocks).every((block) => block.kind === 'paragraph')).toBe(true);
      }),
    );
  });

  it('writes headings the section parser reads back, in order, whatever their text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.string({ minLength: 1, maxLength: 30 })), {
          maxLength: 6,
        }),
        (heads) => {
          const b = new MarkdownBuilder();
          for (const [level, title] of heads) {
            b.heading(level, title);
            b.paragraph('Body.');
          }
          const text = b.toString();
          const found = parseSections(text, 'markdown')
            .filter((s) => s.level > 0)
            .map((s) => s.level);
          expect(b.headings.length).toBe(found.length);
          expect(found).toEqual(heads.filter(([, t]) => t.trim() !== '').map(([level]) => level));
        },
      ),
    );
  });

  it('records page ranges that cover exactly each page’s blocks', () => {
    const b = new MarkdownBuilder();
    b.startPage(1);
    b.heading(1, 'One');
    b.paragraph('First page.');
    b.startPage(2); // closes page 1
    b.startPage(3);
    b.paragraph('Third page.');
    const text = b.toString();
    const [p1, p2, p3] = b.pages;
    expect(text.slice(p1!.start, p1!.end)).toBe('# One\n\nFirst page.');
    expect(p2!.end - p2!.start).toBe(0);
    expect(text.slice(p3!.start, p3!.end)).toBe('Third page.');
  });

  it('escapes table cells and skips empty rows', () => {
    const b = new MarkdownBuilder();
    b.table([
      ['a|b', ' c\n d '],
      ['', ''],
    ]);
    expect(b.toString()).toBe('| a\\|b | c d |');
  });

  it('fences code with a fence longer than any backtick run inside', () => {
    const b = new MarkdownBuilder();
    b.code('x\n```\ny');
    expect(b.toString()).toBe('````\nx\n```\ny\n````');
    expect(parseSections(b.toString(), 'markdown')[0]!.blocks.map((k) => k.kind)).toEqual(['code']);
  });

  it('classifies structure-like lines', () => {
    expect(['# a', '   ## b', '---', '- - -', '==', '```js', '~~~', '| x'].every(looksLikeStructure)).toBe(true);
    expect(['a # b', '    # four spaces', '-- dashes and words', '`inline`', 'plain'].some(looksLikeStructure)).toBe(
      false,
    );
  });
});
