import { ABBREVIATIONS, NUMBER_ABBREVIATIONS } from '../lexicon/abbreviations';
/**
 * Rule-based sentence segmentation in one left-to-right pass (linear time, no regex on the
 * text), returning offsets so callers can slice the source exactly.
 *
 * A sentence ends:
 * - after a run of terminal punctuation (. ! ? and the full-width forms 。！？｡ and a few
 *   others), plus any closing quotes, brackets and Markdown emphasis right after it, when
 *   whitespace or the end of the range follows. CJK full stops end a sentence without
 *   whitespace, as CJK text has none.
 * - at a blank line (a line holding only whitespace), always.
 * - before a line that starts a list item ("- ", "* ", "+ ", "• ", "1. ", "1) "), so every item
 *   is its own unit. A single newline otherwise continues the sentence (hard-wrapped text).
 *
 * A single "." followed by whitespace does not end a sentence when it closes a known
 * abbreviation ("e.g.", "Dr.", "Fig.", "et al.", "vs."; "No.", "p.", "Vol." only before a number),
 * a dotted acronym ("U.S."), an initial ("J. K. Rowling"), a list number at the start of a line
 * ("1. "), or when the next word starts with a lower-case letter (an abbreviation we do not
 * know: "approx. ten"). Ellipses ("..." and "…") never end a sentence: they mostly mark a pause
 * inside one. Decimals ("3.5") and dotted names ("example.com") have no whitespace after the
 * dot and so never end one.
 */

/** A half-open range [start, end) of UTF-16 code units. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Whitespace exactly as `String.prototype.trim` sees it (ECMAScript WhiteSpace and
 * LineTerminator), so a span trimmed with this predicate satisfies `s.trim() === s`.
 */
export function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Terminal punctuation: . ! ? … and their CJK, Devanagari and Arabic-script forms. */
const TERMINALS = new Set([
  0x2e, 0x21, 0x3f, 0x2026, 0x3002, 0xff01, 0xff1f, 0xff61, 0x203c, 0x2047, 0x2048, 0x2049, 0x0964, 0x0965, 0x061f,
  0x06d4,
]);
/** Terminals that end a sentence without whitespace after them (CJK text has no spaces). */
const CJK_TERMINALS = new Set([0x3002, 0xff01, 0xff1f, 0xff61]);
/** Closers that stay with the sentence they follow: quotes, brackets, Markdown emphasis and code. */
const CLOSERS = new Set([
  0x22, 0x27, 0x29, 0x5d, 0x7d, 0x2a, 0x5f, 0x60, 0x2019, 0x201d, 0xbb, 0x203a, 0x300d, 0x300f, 0xff09, 0x3011, 0x3015,
  0x3009, 0x300b, 0xff02, 0xff07,
]);
/** Openers that may precede an abbreviation: "(e.g." must still be read as "e.g.". */
const OPENERS = new Set([0x22, 0x27, 0x28, 0x5b, 0x7b, 0x2018, 0x201c, 0xab, 0x2a, 0x5f]);

const DOT = 0x2e;
const NEWLINE = 0x0a;

/** Longest token we inspect for an abbreviation; longer ones are ordinary words. */
const MAX_ABBREVIATION = 12;
/** Longest indentation or list number we look through at a line start. */
const MAX_INDENT = 16;
const MAX_LIST_NUMBER = 9;

const UPPER = /^\p{Lu}$/u;
const LOWER = /^\p{Ll}$/u;
const LETTER = /^\p{L}$/u;

function isTerminal(code: number): boolean {
  if (code === DOT || code === 0x21 || code === 0x3f) return true;
  return code >= 0x600 && TERMINALS.has(code);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** The code point at `i` as a string (one or two code units). */
function charAt(text: string, i: number): string {
  const cp = text.codePointAt(i) ?? 0;
  return String.fromCodePoint(cp);
}

/**
 * Whether a list item starts at `i`: "- ", "* ", "+ ", "• " or 1–9 digits then "." or ")" and a
 * space, tab or end of range.
 */
export function isListMarkerAt(text: string, i: number, end: number = text.length): boolean {
  if (i >= end) return false;
  const c = text.charCodeAt(i);
  let j = i;
  if (c === 0x2d || c === 0x2a || c === 0x2b || c === 0x2022) {
    j = i + 1;
  } else if (isDigit(c)) {
    while (j < end && j - i < MAX_LIST_NUMBER && isDigit(text.charCodeAt(j))) j++;
    if (j >= end) return false;
    const p = text.charCodeAt(j);
    if (p !== DOT && p !== 0x29) return false;
    j++;
  } else {
    return false;
  }
  if (j >= end) return true;
  const after = text.charCodeAt(j);
  return after === 0x20 || after === 0x09;
}

/**
 * Sentence spans in `text[from, to)`, in order, trimmed of whitespace and never empty. Every
 * non-whitespace character of the range is in exactly one span.
 */
export function splitSentences(text: string, from = 0, to: number = text.length): Span[] {
  const spans: Span[] = [];
  let open = -1; // start of the sentence being read, -1 when between sentences
  let lastSolid = -1; // last non-whitespace position seen

  const close = (end: number): void => {
    if (open >= 0 && end > open) spans.push({ start: open, end });
    open = -1;
  };

  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      // Read the whole whitespace run at once: each character is visited once.
      let newlines = 0;
      let j = i;
      while (j < to) {
        const w = text.charCodeAt(j);
        if (!isSpace(w)) break;
        if (w === NEWLINE) newlines++;
        j++;
      }
      if (newlines >= 2 || (newlines === 1 && isListMarkerAt(text, j, to))) close(lastSolid + 1);
      i = j;
      continue;
    }
    if (open < 0) open = i;
    if (!isTerminal(c)) {
      lastSolid = i;
      i++;
      continue;
    }

    // A run of terminal punctuation, then closers.
    const runStart = i;
    let cjk = false;
    let dots = 0;
    let j = i;
    while (j < to && isTerminal(text.charCodeAt(j))) {
      const t = text.charCodeAt(j);
      if (CJK_TERMINALS.has(t)) cjk = true;
      if (t === DOT) dots++;
      j++;
    }
    const runEnd = j;
    while (j < to && CLOSERS.has(text.charCodeAt(j))) j++;
    lastSolid = j - 1;
    i = j;
    if (cjk) {
      close(j);
      continue;
    }
    if (j < to && !isSpace(text.charCodeAt(j))) continue; // "3.5", "example.com", "?!x"
    if (j >= to) continue; // the range end closes it below
    const run = runEnd - runStart;
    const ellipsis = text.charCodeAt(runStart) === 0x2026 || (dots === run && run >= 2);
    if (ellipsis) continue;
    if (run === 1 && dots === 1 && !endsSentenceAtDot(text, runStart, j, from, to)) continue;
    close(j);
  }
  close(lastSolid + 1);
  return spans;
}

/**
 * Whether the single "." at `dot` (followed by whitespace at `after`) ends a sentence. Looks
 * at most MAX_ABBREVIATION code units back and past one whitespace run forward.
 */
function endsSentenceAtDot(text: string, dot: number, after: number, from: number, to: number): boolean {
  // The token before the dot: letters, digits and inner dots, back to whitespace or an opener.
  let s = dot;
  while (s > from && dot - s <= MAX_ABBREVIATION) {
    const p = text.charCodeAt(s - 1);
    if (isSpace(p) || OPENERS.has(p)) break;
    s--;
  }
  const tokenTooLong = dot - s > MAX_ABBREVIATION;
  const token = tokenTooLong ? '' : text.slice(s, dot);

  // The first non-whitespace character after the dot, if any.
  let k = after;
  while (k < to && isSpace(text.charCodeAt(k))) k++;
  const next = k < to ? charAt(text, k) : '';

  if (next !== '' && LOWER.test(next)) return false;
  if (token === '') return true;
  const lower = token.toLowerCase();
  if (ABBREVIATIONS.has(lower)) return false;
  if (NUMBER_ABBREVIATIONS.has(lower) && next !== '' && isDigit(next.charCodeAt(0))) return false;
  if (isInitialOrAcronym(token)) return false;
  if (isListNumberAtLineStart(text, s, dot, from)) return false;
  return true;
}

/** "J" (an initial) or "U.S" (a dotted acronym: single letters joined by dots). */
function isInitialOrAcronym(token: string): boolean {
  if (token.length === 1 || (token.length === 2 && (token.codePointAt(0) ?? 0) > 0xffff)) {
    return UPPER.test(token);
  }
  if (token.length < 3) return false;
  for (let i = 0; i < token.length; i++) {
    const even = i % 2 === 0;
    const ch = token[i] as string;
    if (even ? !LETTER.test(ch) : ch !== '.') return false;
  }
  return token.length % 2 === 1;
}

/** "12" in "12. Item" at the start of a line (after at most MAX_INDENT spaces or tabs). */
function isListNumberAtLineStart(text: string, s: number, dot: number, from: number): boolean {
  if (dot - s > MAX_LIST_NUMBER) return false;
  for (let i = s; i < dot; i++) if (!isDigit(text.charCodeAt(i))) return false;
  let b = s;
  while (b > from && s - b < MAX_INDENT) {
    const p = text.charCodeAt(b - 1);
    if (p !== 0x20 && p !== 0x09) break;
    b--;
  }
  return b === from || text.charCodeAt(b - 1) === NEWLINE;
}
