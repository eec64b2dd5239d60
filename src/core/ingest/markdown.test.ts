import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseMarkdown, parsePlainText, parseSections, type Section } from './markdown';

const FIXTURE = [
  '---',
  'title: Leave policy',
  'owner: HR',
  '---',
  'Preamble before any heading.',
  '',
  '# Policy',
  'Intro to the policy.',
  '',
  '## Leave',
  'General leave rules.',
  '',
  '```bash',
  '# this is a shell comment, not a heading',
  '## neither is this',
  '```',
  '',
  '### Sick leave ###',
  'Call in sick before 9.',
  '',
  '~~~~',
  '# still code',
  '~~~',
  '# still code: a shorter fence does not close',
  '~~~~',
  '',
  '| Days | Pay |',
  '|------|----:|',
  '| 1-3  | 100% |',
  '| 4+   | 80% |',
  '',
  'Annual leave',
  '------------',
  'Book two weeks ahead.',
  '',
  'Benefits',
  '========',
  'Separate top-level part.',
  '',
  '---',
  '',
  '    # indented four spaces: not a heading',
  '#hashtag is not a heading',
  '#### Deep',
  'Deep text.',
  '## Pensions',
  'Pension text.',
].join('\n');

function describeSections(
  text: string,
  sections: readonly Section[],
): { headings: readonly string[]; first: string }[] {
  return sections.map((s) => ({ headings: s.headings, first: text.slice(s.blocks[0]!.start, s.blocks[0]!.end) }));
}

describe('parseMarkdown', () => {
  it('builds heading trails from ATX and setext headings, ignoring fenced code', () => {
    const sections = parseMarkdown(FIXTURE);
    expect(describeSections(FIXTURE, sections)).toEqual([
      { headings: [], first: '---\ntitle: Leave policy\nowner: HR\n---' },
      { headings: ['Policy'], first: '# Policy' },
      { headings: ['Policy', 'Leave'], first: '## Leave' },
      { headings: ['Policy', 'Leave', 'Sick leave'], first: '### Sick leave ###' },
      { headings: ['Policy', 'Annual leave'], first: 'Annual leave\n------------' },
      { headings: ['Benefits'], first: 'Benefits\n========' },
      { headings: ['Benefits', 'Deep'], first: '#### Deep' },
      { headings: ['Benefits', 'Pensions'], first: '## Pensions' },
    ]);
    expect(sections.map((s) => s.level)).toEqual([0, 1, 2, 3, 2, 1, 4, 2]);
  });

  it('keeps code fences, tables and paragraphs as blocks of their section', () => {
    const sections = parseMarkdown(FIXTURE);
    const kinds = (i: number): string[] =>
      sections[i]!.blocks.map((b) => `${b.kind}:${FIXTURE.slice(b.start, b.end).split('\n')[0]}`);
    expect(kinds(2)).toEqual(['heading:## Leave', 'paragraph:General leave rules.', 'code:```bash']);
    expect(kinds(3)).toEqual([
      'heading:### Sick leave ###',
      'paragraph:Call in sick before 9.',
      'code:~~~~',
      'table:| Days | Pay |',
    ]);
    const table = sections[3]!.blocks[3]!;
    expect(FIXTURE.slice(table.start, table.end).split('\n')).toHaveLength(4);
    expect(kinds(5)).toEqual([
      'heading:Benefits',
      'paragraph:Separate top-level part.',
      'paragraph:---',
      'paragraph:    # indented four spaces: not a heading',
    ]);
  });

  it('gives every section a range from its heading to the next heading', () => {
    const sections = parseMarkdown(FIXTURE);
    expect(sections[0]!.start).toBe(0);
    expect(sections.at(-1)!.end).toBe(FIXTURE.length);
    for (let i = 1; i < sections.length; i++) expect(sections[i]!.start).toBe(sections[i - 1]!.end);
    expect(FIXTURE.slice(sections[1]!.start, sections[1]!.end)).toBe('# Policy\nIntro to the policy.\n\n');
  });

  it('reads heading details as CommonMark does', () => {
    const trail = (md: string): (readonly string[])[] => parseMarkdown(md).map((s) => s.headings);
    expect(trail('# Title #\n')).toEqual([['Title']]);
    expect(trail('# C# tips\n')).toEqual([['C# tips']]);
    expect(trail('#\tTab\n')).toEqual([['Tab']]);
    expect(trail('   ### Three spaces\n')).toEqual([['Three spaces']]);
    expect(trail('####### seven\n')).toEqual([[]]);
    // A multi-line paragraph under "===" is one heading.
    expect(trail('Line one\nline two\n===\n')).toEqual([['Line one line two']]);
    // "---" after a blank line or a list item is a thematic break, not a heading.
    expect(trail('Para\n\n---\n')).toEqual([[]]);
    expect(trail('- item\n---\n')).toEqual([[]]);
    // An empty heading closes deeper sections but adds nothing to the trail.
    expect(trail('# A\n## B\n#\ntext\n')).toEqual([['A'], ['A', 'B'], []]);
    // An unclosed fence runs to the end of the document.
    expect(trail('# A\n```\n# B\n')).toEqual([['A']]);
    // "```a```" is inline code, not a fence.
    expect(trail('```a```\n# B\n')).toEqual([[], ['B']]);
  });

  it('reads "| a | b |" rows as a table even without a delimiter row', () => {
    const md = 'Text before\n| a | b |\n| c | d |\nafter';
    const blocks = parseMarkdown(md)[0]!.blocks.map((b) => `${b.kind}:${md.slice(b.start, b.end)}`);
    expect(blocks).toEqual(['paragraph:Text before', 'table:| a | b |\n| c | d |', 'paragraph:after']);
  });

  it('returns no sections for empty or whitespace-only text', () => {
    expect(parseMarkdown('')).toEqual([]);
    expect(parseMarkdown('  \n\n\t\n')).toEqual([]);
  });
});

describe('parsePlainText', () => {
  it('is one section with an empty trail and paragraphs at blank lines', () => {
    const text = '# not a heading\nline two\n\n  \nSecond paragraph\n';
    const sections = parsePlainText(text);
    expect(sections).toHaveLength(1);
    expect(sections[0]!.headings).toEqual([]);
    expect(sections[0]!.blocks.map((b) => text.slice(b.start, b.end))).toEqual([
      '# not a heading\nline two',
      'Second paragraph',
    ]);
    expect(parseSections(' \n ', 'text')).toEqual([]);
  });
});

describe('sections (property)', () => {
  const line = fc.oneof(
    fc.constantFrom(
      '# H1',
      '## H2',
      '### H3',
      '###### H6',
      '#',
      'Title',
      '===',
      '---',
      '```',
      '~~~',
      '| a | b |',
      '|---|---|',
      '- item',
      '1. item',
      '',
      '   ',
      '    # code',
      'Plain sentence. Another one!',
      '\ufffd\ud800 odd',
    ),
    fc.string({ maxLength: 12 }),
  );

  it('partition the text: ordered, contiguous, and every non-whitespace character is in a block', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.constantFrom('markdown' as const, 'text' as const),
        (lines, format) => {
          const text = lines.join('\n');
          const sections = parseSections(text, format);
          let covered = 0;
          let sectionEnd = sections.length > 0 ? sections[0]!.start : text.length;
          expect(text.slice(0, sectionEnd).trim()).toBe('');
          for (const section of sections) {
            expect(section.start).toBe(sectionEnd);
            expect(section.blocks.length).toBeGreaterThan(0);
            for (const block of section.blocks) {
              expect(block.start).toBeGreaterThanOrEqual(Math.max(covered, section.start));
              expect(block.end).toBeLessThanOrEqual(section.end);
              expect(text.slice(covered, block.start).trim()).toBe('');
              covered = block.end;
            }
            sectionEnd = section.end;
          }
          expect(text.slice(covered).trim()).toBe('');
          if (sections.length > 0) expect(sectionEnd).toBe(text.length);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
