/**
 * Display blocks of a chunk's text. The text itself stays the exact source slice (citations point
 * into it); this only decides how to show it:
 * - a leading Markdown heading line equal to the last heading of the trail is dropped, since the
 *   trail already shows it;
 * - blank lines separate blocks; inside a prose block, hard line wraps of the source become
 *   spaces, while list items and fenced code keep their lines;
 * - Markdown table rows become a table (`tableOf`): cells, the header once, no pipes.
 */
import { isHeaderRow, tableCells } from '../core/ingest/table';
import { isDelimiterRow } from '../core/text/markdown-table';

export interface DisplayBlock {
  readonly text: string;
  /** Keep line breaks (tables, lists, code). */
  readonly preserveLines: boolean;
  /** A Markdown table's rows as cells: shown as a table, not as pipes. `text` keeps the source lines. */
  readonly table?: DisplayTable;
}

export interface DisplayTable {
  /** Header rows (above the delimiter row, or a first row of labels only); shown once, as the table's head. */
  readonly header: readonly (readonly string[])[];
  readonly rows: readonly (readonly string[])[];
}

const TABLE_ROW = /^\s*\|/;

/**
 * A run of table lines as cells: the rows above a GFM delimiter row are the header; without one,
 * a first row with labels and no value (`isHeaderRow`, as the chunker reads it) is. The delimiter
 * row itself is not shown, and a header row repeated further down (a page break inside the
 * table) is dropped: the header is shown once.
 */
export function tableOf(lines: readonly string[]): DisplayTable {
  const delimiter = lines.findIndex((l) => isDelimiterRow(l));
  let header: string[][];
  let body: readonly string[];
  if (delimiter > 0) {
    header = lines.slice(0, delimiter).map(tableCells);
    body = lines.slice(delimiter + 1);
  } else {
    const first = lines[0] === undefined ? [] : tableCells(lines[0]);
    const labels = delimiter < 0 && lines.length > 1 && isHeaderRow(first);
    header = labels ? [first] : [];
    body = lines.slice(labels ? 1 : delimiter === 0 ? 1 : 0);
  }
  const seen = new Set(header.map((r) => r.join('\u0000')));
  const rows = body
    .filter((l) => !isDelimiterRow(l))
    .map(tableCells)
    .filter((cells) => !seen.has(cells.join('\u0000')) && cells.some((c) => c !== ''));
  return { header, rows };
}

const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const LINE_STRUCTURED = /^\s*(\||[-*+][ \t]|\d+[.)][ \t]|```|~~~)/;

/**
 * @param context a table chunk's context (`Chunk.context`: its title lines and column header, for
 *   a chunk of a table that does not hold them): a table without a header of its own is shown
 *   under the context's header rows.
 */
export function displayBlocks(text: string, headings: readonly string[], context?: string): DisplayBlock[] {
  const contextHeader = (context ?? '')
    .split('\n')
    .filter((l) => TABLE_ROW.test(l) && !isDelimiterRow(l))
    .map(tableCells);
  let body = text;
  const firstBreak = body.indexOf('\n');
  const firstLine = firstBreak < 0 ? body : body.slice(0, firstBreak);
  const heading = ATX_HEADING.exec(firstLine);
  if (heading && heading[1]?.trim() === headings.at(-1)?.trim())
    body = firstBreak < 0 ? '' : body.slice(firstBreak + 1);
  return body
    .split(/\n[ \t]*\n/)
    .map((block) => block.replace(/^\s*\n|\s+$/g, ''))
    .filter((block) => block.trim() !== '')
    .flatMap(splitTables)
    .map((block): DisplayBlock => {
      const lines = block.split('\n');
      if (lines.every((l) => TABLE_ROW.test(l))) {
        const table = tableOf(lines);
        const header = table.header.length > 0 ? table.header : contextHeader;
        return { text: block, preserveLines: true, table: { header, rows: table.rows } };
      }
      const preserveLines = lines.length > 1 && lines.some((l) => LINE_STRUCTURED.test(l));
      return { text: preserveLines ? block : lines.map((l) => l.trim()).join(' '), preserveLines };
    });
}

/** A block's runs of table rows and of other lines, in order (a title line right above a table). */
function splitTables(block: string): string[] {
  const runs: string[][] = [];
  let table: boolean | null = null;
  for (const line of block.split('\n')) {
    const row = TABLE_ROW.test(line);
    if (row !== table) runs.push([]);
    table = row;
    (runs.at(-1) as string[]).push(line);
  }
  return runs.map((r) => r.join('\n'));
}
