/**
 * Writes structured text the chunker's Markdown section parser (`src/core/ingest/markdown.ts`)
 * reads back exactly: `#` headings, paragraphs separated by blank lines, `- ` list items,
 * `| a | b |` table rows (one atomic chunking unit each), fenced code.
 *
 * Text that came from the document is never allowed to become structure by accident: a body
 * line that would read as a heading (`# …`), a setext underline (`---`, `===`), a fence
 * (```` ``` ````, `~~~`) or a thematic break is indented by four spaces, which CommonMark (and
 * the section parser) never reads as any of those. Chunk text trims the indent away.
 */
import { isDelimiterRow } from '../core/text/markdown-table';

export interface PageMark {
  readonly page: number;
  readonly start: number;
  readonly end: number;
}

/** Whitespace runs (any, including newlines) collapsed to one space, trimmed. */
export function collapseSpaces(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** True when `line`, placed alone in Markdown, would be block structure rather than text. */
export function looksLikeStructure(line: string): boolean {
  let i = 0;
  while (i < line.length && i < 4 && line.charCodeAt(i) === 0x20) i++;
  if (i >= 4 || i >= line.length) return false;
  const c = line[i];
  if (c === '#' || c === '|') return true;
  if (c === '`' || c === '~') return line.startsWith(c.repeat(3), i);
  if (c === '=' || c === '-' || c === '*' || c === '_') {
    // Setext underlines and thematic breaks: only that character and spaces.
    for (let k = i; k < line.length; k++) {
      const d = line[k];
      if (d !== c && d !== ' ' && d !== '\t') return false;
    }
    return true;
  }
  return false;
}

function escapeLine(line: string): string {
  // An indent cannot stop a delimiter row from making the line above a table header (GFM allows
  // any indent there), so it gets a backslash, Markdown's own escape.
  if (isDelimiterRow(line)) return `\\${line.trim()}`;
  return looksLikeStructure(line) ? `    ${line.trimStart()}` : line;
}

/** A table cell: one line, "|" escaped so it cannot split the row. */
function cell(text: string): string {
  return collapseSpaces(text).replace(/\|/g, '\\|');
}

export class MarkdownBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly headingTitles: string[] = [];
  private readonly pageMarks: PageMark[] = [];
  private openPage: { page: number; start: number } | null = null;

  /** Heading titles written so far, in order. */
  get headings(): readonly string[] {
    return this.headingTitles;
  }

  get pages(): readonly PageMark[] {
    return this.pageMarks;
  }

  private push(s: string): void {
    this.parts.push(s);
    this.length += s.length;
  }

  /** Starts a block: a blank line after the previous one. Returns where the block begins. */
  private begin(): number {
    if (this.length > 0) this.push('\n\n');
    return this.length;
  }

  heading(level: number, title: string): void {
    const t = collapseSpaces(title);
    if (t === '') return;
    const l = Math.min(6, Math.max(1, Math.round(level)));
    this.begin();
    this.push(`${'#'.repeat(l)} ${t}`);
    this.headingTitles.push(t);
  }

  /** A paragraph; its line breaks are kept, each line escaped. Blank input writes nothing. */
  paragraph(text: string): void {
    const lines: string[] = [];
    for (const raw of text.includes('\n') ? text.split('\n') : [text]) {
      const line = raw.replace(/[ \t]+/g, ' ').trim();
      if (line !== '') lines.push(escapeLine(line));
    }
    if (lines.length === 0) return;
    this.begin();
    this.push(lines.join('\n'));
  }

  /** List items, already prefixed with their indent and marker ("- ", "  1. "). */
  list(items: readonly { readonly depth: number; readonly marker: string; readonly text: string }[]): void {
    const lines: string[] = [];
    for (const item of items) {
      const text = collapseSpaces(item.text);
      if (text === '') continue;
      lines.push(`${'  '.repeat(Math.min(item.depth, 8))}${item.marker} ${text}`);
    }
    if (lines.length === 0) return;
    this.begin();
    this.push(lines.join('\n'));
  }

  /** Table rows as `| a | b |`; rows whose cells are all empty are skipped. */
  table(rows: readonly (readonly string[])[]): void {
    const lines: string[] = [];
    for (const row of rows) {
      const cells = row.map(cell);
      if (cells.every((c) => c === '')) continue;
      lines.push(`| ${cells.join(' | ')} |`);
    }
    if (lines.length === 0) return;
    this.begin();
    this.push(lines.join('\n'));
  }

  /** Preformatted text in a fence longer than any backtick run inside it. */
  code(text: string): void {
    const body = text.replace(/^\n+/, '').trimEnd();
    if (body.trim() === '') return;
    let longest = 0;
    for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
    const fence = '`'.repeat(Math.max(3, longest + 1));
    this.begin();
    this.push(`${fence}\n${body}\n${fence}`);
  }

  /** Marks the start of a page; its range ends at `endPage` (empty when it wrote nothing). */
  startPage(page: number): void {
    this.endPage();
    this.openPage = { page, start: this.length === 0 ? 0 : this.length + 2 };
  }

  endPage(): void {
    const open = this.openPage;
    if (open === null) return;
    const start = Math.min(open.start, this.length);
    this.pageMarks.push({ page: open.page, start, end: Math.max(start, this.length) });
    this.openPage = null;
  }

  toString(): string {
    this.endPage();
    return this.parts.join('');
  }
}
