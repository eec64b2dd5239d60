/**
 * The text shapes packing writes (shared by whole-chunk packing, pack.ts, and packing by document,
 * pack-document.ts): the separator between sources, the elision between quoted sentences, and a
 * source's header line.
 */
import type { EvidenceLookup } from './common';
import { headingLine } from './common';

/** Separator between packed sources in the prompt. */
export const SOURCE_SEPARATOR = '\n\n';

/** Separator between two kept sentences that are not adjacent in the chunk. */
export const ELISION = ' … ';

/**
 * A source's header line: citation id, document title, heading trail (without a first heading that
 * repeats the title: a Markdown "# Title", a paper's title as its section), page, and the chunk's
 * context when it has one (a table chunk's title and column header, its lines joined by spaces), so
 * a reader sees a row with the header of its columns: "[S2] 10-K › Item 8 (p. 70) — (In millions)
 * | | 2018 | 2017 |". One line: the source's body after it stays the chunk text.
 */
export function header(
  citationId: string,
  title: string,
  headings: readonly string[],
  page: number | undefined,
  context?: string,
): string {
  const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
  const rest = headings.length > 0 && same(headings[0] as string, title) ? headings.slice(1) : headings;
  const trail = rest.length > 0 ? ` › ${headingLine(rest)}` : '';
  const ctx = context ? ` — ${context.replace(/\s*\n\s*/g, ' ')}` : '';
  return `[${citationId}] ${title}${trail}${page !== undefined ? ` (p. ${page})` : ''}${ctx}`;
}

/** The header line of a source whose heading trail and page come from chunk `chunkId`. */
export function sourceHeader(citationId: string, title: string, chunkId: string, lookup: EvidenceLookup): string {
  const chunk = lookup.chunks.get(chunkId);
  return header(citationId, title, chunk?.headings ?? [], chunk?.page);
}
