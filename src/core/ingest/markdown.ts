/**
 * Block structure of Markdown and plain text: sections (a heading and what follows it up to the
 * next heading) made of blocks, all as offsets into the source. One pass over the lines, no
 * regex on the text.
 *
 * Markdown (the CommonMark block rules that decide what is a heading, simplified):
 * - ATX headings: up to 3 spaces, 1–6 "#", then a space, tab or end of line; a closing "#" run
 *   is not part of the title.
 * - Setext headings: a paragraph followed by a line of "=" (level 1) or "-" (level 2). A "---"
 *   line after a blank line, or after a list item, is a thematic break instead.
 * - Fenced code (``` or ~~~, at least 3, closed by a fence of the same character at least as
 *   long; unclosed runs to the end): nothing inside is a heading or a table.
 * - YAML front matter ("---" on the first line, closed by "---" or "..."), so its closing
 *   "---" is not read as a setext underline of the last key.
 * - Tables: a line with "|" followed by a delimiter row ("|---|:--:|"), or lines starting with
 *   "|", and the "|" lines after them. Each row is an atomic unit for chunking.
 * - Everything else is paragraphs separated by blank lines.
 *
 * Plain text has no headings: one section with an empty trail, paragraphs by blank lines.
 */

import { isDelimiterRow } from '../text/markdown-table';
import { isSpace } from '../text/sentences';

export type BlockKind = 'heading' | 'paragraph' | 'code' | 'table';

/** Lines [start, end) of the source; `end` excludes the final newline. */
export interface Block {
  readonly kind: BlockKind;
  readonly start: number;
  readonly end: number;
}

export interface Section {
  /** Heading titles from the outermost section to this one; empty before the first heading. */
  readonly headings: readonly string[];
  /** Heading level 1–6, or 0 for text before the first heading (and for plain text). */
  readonly level: number;
  /** [start, end) covers the heading line and everything up to the next heading. */
  readonly start: number;
  readonly end: number;
  /** Non-empty; together they hold every non-whitespace character of [start, end). */
  readonly blocks: readonly Block[];
}

export type DocumentFormat = 'markdown' | 'text';

/** Sections of `text` read as `format`. Whitespace-only text has none. */
export function parseSections(text: string, format: DocumentFormat): Section[] {
  return format === 'markdown' ? parseMarkdown(text) : parsePlainText(text);
}

interface Lines {
  readonly starts: number[];
  /** End of each line, excluding "\n" (a trailing "\r" stays: it is whitespace). */
  readonly ends: number[];
}

function splitLines(text: string): Lines {
  const starts: number[] = [];
  const ends: number[] = [];
  let s = 0;
  for (;;) {
    const nl = text.indexOf('\n', s);
    starts.push(s);
    if (nl < 0) {
      ends.push(text.length);
      break;
    }
    ends.push(nl);
    s = nl + 1;
  }
  return { starts, ends };
}

function isBlank(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Position after at most 3 leading spaces, or -1 when the line is indented further (or by a tab). */
function afterIndent(text: string, s: number, e: number): number {
  let i = s;
  while (i < e && i - s < 4 && text.charCodeAt(i) === 0x20) i++;
  if (i - s >= 4 || (i < e && text.charCodeAt(i) === 0x09)) return -1;
  return i;
}

const HASH = 0x23;
const PIPE = 0x7c;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const EQUALS = 0x3d;
const DASH = 0x2d;

function lastSolid(text: string, s: number, e: number): number {
  let k = e;
  while (k > s && isSpace(text.charCodeAt(k - 1))) k--;
  return k;
}

function firstSolid(text: string, s: number, e: number): number {
  let k = s;
  while (k < e && isSpace(text.charCodeAt(k))) k++;
  return k;
}

/** An ATX heading's level and title, or null. */
function atxHeading(text: string, s: number, e: number): { level: number; title: string } | null {
  const i = afterIndent(text, s, e);
  if (i < 0) return null;
  let j = i;
  while (j < e && j - i < 7 && text.charCodeAt(j) === HASH) j++;
  const level = j - i;
  if (level < 1 || level > 6) return null;
  if (j < e && !isSpace(text.charCodeAt(j))) return null;
  const cs = firstSolid(text, j, e);
  let ce = lastSolid(text, cs, e);
  // Optional closing sequence: a "#" run that is the whole content or follows whitespace.
  let k = ce;
  while (k > cs && text.charCodeAt(k - 1) === HASH) k--;
  if (k === cs) ce = cs;
  else if (k < ce && isSpace(text.charCodeAt(k - 1))) ce = lastSolid(text, cs, k);
  return { level, title: text.slice(cs, ce) };
}

/** A fence opener or closer: its character and length, or null. */
function fenceAt(text: string, s: number, e: number): { char: number; length: number; rest: number } | null {
  const i = afterIndent(text, s, e);
  if (i < 0 || i >= e) return null;
  const c = text.charCodeAt(i);
  if (c !== BACKTICK && c !== TILDE) return null;
  let j = i;
  while (j < e && text.charCodeAt(j) === c) j++;
  if (j - i < 3) return null;
  return { char: c, length: j - i, rest: j };
}

function opensFence(text: string, s: number, e: number): { char: number; length: number } | null {
  const f = fenceAt(text, s, e);
  if (f === null) return null;
  // A backtick fence's info string cannot contain a backtick ("```a```" is inline code).
  if (f.char === BACKTICK) for (let k = f.rest; k < e; k++) if (text.charCodeAt(k) === BACKTICK) return null;
  return f;
}

function closesFence(text: string, s: number, e: number, open: { char: number; length: number }): boolean {
  const f = fenceAt(text, s, e);
  return f !== null && f.char === open.char && f.length >= open.length && isBlank(text, f.rest, e);
}

/** A setext underline: only "=" (level 1) or only "-" (level 2), after up to 3 spaces. */
function setextLevel(text: string, s: number, e: number): number {
  const i = afterIndent(text, s, e);
  if (i < 0 || i >= e) return 0;
  const c = text.charCodeAt(i);
  if (c !== EQUALS && c !== DASH) return 0;
  let j = i;
  while (j < e && text.charCodeAt(j) === c) j++;
  if (!isBlank(text, j, e)) return 0;
  return c === EQUALS ? 1 : 2;
}

/** A thematic break: 3+ of the same "-", "*" or "_", spaces allowed between. */
function isThematicBreak(text: string, s: number, e: number): boolean {
  const i = afterIndent(text, s, e);
  if (i < 0 || i >= e) return false;
  const c = text.charCodeAt(i);
  if (c !== DASH && c !== 0x2a && c !== 0x5f) return false;
  let n = 0;
  for (let k = i; k < e; k++) {
    const d = text.charCodeAt(k);
    if (d === c) n++;
    else if (!isSpace(d)) return false;
  }
  return n >= 3;
}

function hasPipe(text: string, s: number, e: number): boolean {
  // A bounded scan: indexOf would search past the line, quadratic over a pipe-free document.
  for (let k = s; k < e; k++) if (text.charCodeAt(k) === PIPE) return true;
  return false;
}

function startsWithPipe(text: string, s: number, e: number): boolean {
  const i = afterIndent(text, s, e);
  return i >= 0 && i < e && text.charCodeAt(i) === PIPE;
}

function startsListItem(text: string, s: number, e: number): boolean {
  const i = firstSolid(text, s, e);
  if (i >= e) return false;
  const c = text.charCodeAt(i);
  if (c === DASH || c === 0x2a || c === 0x2b) return i + 1 >= e || isSpace(text.charCodeAt(i + 1));
  let j = i;
  while (j < e && j - i < 9 && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
  if (j === i || j >= e) return false;
  const p = text.charCodeAt(j);
  return (p === 0x2e || p === 0x29) && (j + 1 >= e || isSpace(text.charCodeAt(j + 1)));
}

interface OpenSection {
  headings: readonly string[];
  level: number;
  start: number;
  blocks: Block[];
}

/** Sections of a Markdown document, in source order. */
export function parseMarkdown(text: string): Section[] {
  const { starts, ends } = splitLines(text);
  const n = starts.length;
  const open: OpenSection[] = [{ headings: [], level: 0, start: 0, blocks: [] }];
  const trail: { level: number; title: string }[] = [];

  let para: { start: number; end: number; firstLine: number } | null = null;
  let table: { start: number; end: number } | null = null;

  const current = (): OpenSection => open[open.length - 1] as OpenSection;
  const closePara = (): void => {
    if (para !== null) current().blocks.push({ kind: 'paragraph', start: para.start, end: para.end });
    para = null;
  };
  const closeTable = (): void => {
    if (table !== null) current().blocks.push({ kind: 'table', start: table.start, end: table.end });
    table = null;
  };
  const startSection = (level: number, title: string, start: number, end: number): void => {
    while (trail.length > 0 && (trail[trail.length - 1] as { level: number }).level >= level) trail.pop();
    trail.push({ level, title });
    const headings = Object.freeze(trail.filter((h) => h.title !== '').map((h) => h.title));
    open.push({ headings, level, start, blocks: [{ kind: 'heading', start, end }] });
  };

  let line = 0;
  // YAML front matter: only on the very first line.
  if (n > 1 && isFrontMatterFence(text, starts[0] as number, ends[0] as number, false)) {
    for (let k = 1; k < n; k++) {
      if (isFrontMatterFence(text, starts[k] as number, ends[k] as number, true)) {
        current().blocks.push({ kind: 'code', start: 0, end: ends[k] as number });
        line = k + 1;
        break;
      }
    }
  }

  for (; line < n; line++) {
    const s = starts[line] as number;
    const e = ends[line] as number;

    const fence = opensFence(text, s, e);
    if (fence !== null) {
      closePara();
      closeTable();
      let k = line + 1;
      while (k < n && !closesFence(text, starts[k] as number, ends[k] as number, fence)) k++;
      const last = Math.min(k, n - 1);
      current().blocks.push({ kind: 'code', start: s, end: ends[last] as number });
      line = last;
      continue;
    }
    if (isBlank(text, s, e)) {
      closePara();
      closeTable();
      continue;
    }
    const atx = atxHeading(text, s, e);
    if (atx !== null) {
      closePara();
      closeTable();
      startSection(atx.level, atx.title, s, e);
      continue;
    }
    if (para !== null && table === null) {
      const level = setextLevel(text, s, e);
      const p: { start: number; end: number; firstLine: number } = para;
      const listItem = startsListItem(text, starts[p.firstLine] as number, ends[p.firstLine] as number);
      if (level > 0 && !(listItem && level === 2)) {
        para = null;
        startSection(level, setextTitle(text, starts, ends, p.firstLine, line - 1), p.start, e);
        continue;
      }
    }
    if (table !== null) {
      if (hasPipe(text, s, e)) {
        table.end = e;
        continue;
      }
      closeTable();
    }
    const nextIsDelimiter = line + 1 < n && isDelimiterRow(text, starts[line + 1] as number, ends[line + 1] as number);
    if (startsWithPipe(text, s, e) || (hasPipe(text, s, e) && nextIsDelimiter)) {
      closePara();
      table = { start: s, end: e };
      continue;
    }
    if (isThematicBreak(text, s, e)) {
      closePara();
      current().blocks.push({ kind: 'paragraph', start: s, end: e });
      continue;
    }
    if (para === null) para = { start: s, end: e, firstLine: line };
    else para.end = e;
  }
  closePara();
  closeTable();
  return finish(open, text.length);
}

function isFrontMatterFence(text: string, s: number, e: number, closing: boolean): boolean {
  const k = lastSolid(text, s, e);
  const line = text.slice(s, k);
  return line === '---' || (closing && line === '...');
}

/** A setext heading's title: its paragraph lines, trimmed and joined by one space. */
function setextTitle(text: string, starts: number[], ends: number[], first: number, last: number): string {
  const parts: string[] = [];
  for (let k = first; k <= last; k++) {
    const s = firstSolid(text, starts[k] as number, ends[k] as number);
    const e = lastSolid(text, s, ends[k] as number);
    if (e > s) parts.push(text.slice(s, e));
  }
  return parts.join(' ');
}

/** Sections of plain text: at most one, with paragraphs split at blank lines. */
export function parsePlainText(text: string): Section[] {
  const { starts, ends } = splitLines(text);
  const blocks: Block[] = [];
  let para: { start: number; end: number } | null = null;
  for (let line = 0; line < starts.length; line++) {
    const s = starts[line] as number;
    const e = ends[line] as number;
    if (isBlank(text, s, e)) {
      if (para !== null) blocks.push({ kind: 'paragraph', start: para.start, end: para.end });
      para = null;
    } else if (para === null) {
      para = { start: s, end: e };
    } else {
      para.end = e;
    }
  }
  if (para !== null) blocks.push({ kind: 'paragraph', start: para.start, end: para.end });
  return finish([{ headings: [], level: 0, start: 0, blocks }], text.length);
}

/** Closes the open sections (each ends where the next starts) and drops empty ones. */
function finish(open: readonly OpenSection[], length: number): Section[] {
  const sections: Section[] = [];
  for (let i = 0; i < open.length; i++) {
    const o = open[i] as OpenSection;
    if (o.blocks.length === 0) continue;
    const end = i + 1 < open.length ? (open[i + 1] as OpenSection).start : length;
    sections.push({ headings: o.headings, level: o.level, start: o.start, end, blocks: o.blocks });
  }
  return sections;
}
