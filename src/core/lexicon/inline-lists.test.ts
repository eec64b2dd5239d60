import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Rules as data (issue 26, item 4): word lists and word patterns live in `src/core/lexicon/`, one
 * table per concept, never inline in stage code. This test scans every `src/core/**\/*.ts` outside
 * the lexicon (tests and `testing.ts` helpers aside) and names `file:line` for each
 *
 *  (a) group that alternates six or more plain lower-case words, `(?:who|whom|whose|what|which|
 *      when)` or `(who|…)`, in a regex literal or a pattern string; and
 *  (b) `new Set([...])` or array literal holding six or more lower-case word string literals
 *      (`'of', 'de', 'van', …`);
 *  (c) string literal (or `+` concatenation of them) of six or more `|`-joined lower-case words
 *      (`'january|february|…'`), the makings of a pattern; and
 *  (d) string literal (or parenthesised `+` concatenation of them) split into six or more
 *      lower-case words (`('a an the of …').split(' ')`).
 *
 * An array followed by `as const` is a type enumeration, and an array holding a snake_case or
 * camelCase code is an enumeration of codes: neither is a word list. The detector reads text, not
 * syntax: comment lines are skipped; an array counts only when every element is a string literal.
 */

const CORE = join(__dirname, '..');
const MIN_WORDS = 6;

/**
 * Files that keep inline lists for now, each with its reason. Nothing else may be listed here;
 * an entry whose file no longer holds a list fails, so the list only shrinks.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  ['answer/compute.ts', 'being rewritten by issue 27/28 work; move in a follow-up'],
]);

/** `(` or `(?:` then ≥ 6 `|`-separated plain lower-case words, ending at `|` or `)`. */
const WORD_GROUP = new RegExp(String.raw`\((?:\?:)?[a-z]+(?:\|[a-z]+){${MIN_WORDS - 1},}(?=[|)])`);

const STRING = String.raw`(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")`;
const GAP = String.raw`(?:\s|//[^\n]*|/\*[\s\S]*?\*/)*`;
/** An array literal of string literals only (comments allowed between them). */
const STRING_ARRAY = new RegExp(
  String.raw`\[${GAP}${STRING}(?:${GAP},${GAP}${STRING})*${GAP},?${GAP}\](\s*as\s+const\b)?`,
  'g',
);
/** A lower-case word or phrase: letters, with inner dots, apostrophes, hyphens or spaces. */
const LOWER_WORD = /^[a-z][a-z.' -]*$/;
/** (c): six or more `|`-joined plain lower-case words, with at most a trailing `|`. */
const JOINED_WORDS = new RegExp(String.raw`^[a-z]+(?:\|[a-z]+){${MIN_WORDS - 1},}\|?$`);
/** (d): string literals, alone or concatenated in parentheses, then `.split(`. */
const SPLIT_STRING = new RegExp(String.raw`(?:\(\s*${STRING}(?:\s*\+\s*${STRING})*\s*\)|${STRING})\s*\.split\(`, 'g');
/** A code: snake_case or camelCase. */
const CODE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$|^[a-z][a-z0-9]*[A-Z]/;

function isCommentLine(line: string): boolean {
  const t = line.trimStart();
  return t.startsWith('//') || t.startsWith('*') || t.startsWith('/*');
}

/** The inline word lists of one file's source, as `line: reason` strings (1-based lines). */
function inlineListsIn(source: string): string[] {
  const found: string[] = [];
  const lines = source.split('\n');
  lines.forEach((line, i) => {
    if (isCommentLine(line)) return;
    const m = WORD_GROUP.exec(line);
    if (m) found.push(`${i + 1}: word alternation ${m[0]}…`);
  });
  for (const m of source.matchAll(new RegExp(String.raw`${STRING}(?:\s*\+\s*${STRING})*`, 'g'))) {
    const text = [...m[0].matchAll(new RegExp(STRING, 'g'))].map((s) => s[0].slice(1, -1)).join('');
    if (!JOINED_WORDS.test(text)) continue;
    const line = source.slice(0, m.index).split('\n').length;
    if (!isCommentLine(lines[line - 1] ?? '')) found.push(`${line}: joined words ${m[0].slice(0, 40)}…`);
  }
  for (const m of source.matchAll(SPLIT_STRING)) {
    const text = [...m[0].matchAll(new RegExp(STRING, 'g'))].map((s) => s[0].slice(1, -1)).join(' ');
    const words = text.split(/\s+/u).filter((w) => LOWER_WORD.test(w));
    if (words.length < MIN_WORDS) continue;
    const line = source.slice(0, m.index).split('\n').length;
    found.push(`${line}: split word list [${words.slice(0, 4).join(', ')}, …] (${words.length} words)`);
  }
  for (const m of source.matchAll(STRING_ARRAY)) {
    const start = m.index;
    const lineStart = source.lastIndexOf('\n', start) + 1;
    if (isCommentLine(source.slice(lineStart, start + 1))) continue;
    if (m[1] !== undefined) continue; // `] as const`: a type enumeration
    const elements = [...m[0].matchAll(new RegExp(STRING, 'g'))].map((s) => s[0].slice(1, -1));
    if (elements.some((e) => CODE.test(e))) continue; // codes, not words
    const words = elements.filter((e) => LOWER_WORD.test(e));
    if (words.length < MIN_WORDS) continue;
    const line = source.slice(0, start).split('\n').length;
    found.push(`${line}: word list [${words.slice(0, 4).join(', ')}, …] (${words.length} words)`);
  }
  return found;
}

function stageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(CORE, 'lexicon') ? [] : stageFiles(path);
    const isStage = e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && e.name !== 'testing.ts';
    return isStage ? [path] : [];
  });
}

/** Each row: source text and how many inline lists the detector names in it. */
const ROWS: readonly (readonly [string, number])[] = [
  ['const Q = /^(?:who|whom|whose|what|which|when|where|how|name)\\b/i;', 1],
  ['const Q = /^(who|whom|whose|what|which|when)\\b/i;', 1],
  ['const Q = /^(?:who|whom|whose|what|which)\\b/i;', 0], // five words
  ['const Q = /\\b(?:mr|mrs|dr|st|jr|sr|vs)\\./i;', 1],
  ['const Q = /\\b(?:Mr|Mrs|Dr|St|Jr|Sr)\\./;', 0], // not lower-case
  ['// e.g. /(?:who|whom|whose|what|which|when)/', 0], // a comment
  ["const P = new Set(['of', 'de', 'van', 'von', 'der', 'la']);", 1],
  ["const P = new Set([\n  'of',\n  'de', // Dutch\n  'van',\n  'von',\n  'der',\n  'la',\n]);", 1],
  ["const P = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];", 1],
  ["const P = ['of', 'de', 'van', 'von', 'der'];", 0], // five words
  ["export const KINDS = ['number', 'date', 'span', 'count', 'list', 'phrase'] as const;", 0],
  ["const S = ['high', 'low', 'open', 'close', 'per_share', 'volume'];", 0], // codes
  ["const S = ['high', 'low', 'open', 'close', 'perShare', 'volume'];", 0], // codes
  ["const X = [a, 'of', 'de', 'van', 'von', 'der', 'la'];", 0], // not all literals
  ["const M = 'january|february|march|april|may|june';", 1],
  ["const M =\n  'manager|director|officer|' +\n  'committee|board|department|team';", 1],
  ["const M = 'january|february|march';", 0], // three words
  ["const S = new Set(\n  (\n    'a an the of ' +\n    'to in on'\n  ).split(/\\s+/),\n);", 1],
  ["const S = 'a b c d e f'.split(' ');", 1],
  ["const S = 'a b c'.split(' ');", 0], // three words
  ["const W = text.split(' ');", 0],
];

describe('inline word list detector', () => {
  it.each(ROWS)('%j → %i', (source, count) => {
    expect(inlineListsIn(source)).toHaveLength(count);
  });
});

describe('stage files under src/core', () => {
  const files = stageFiles(CORE);
  const findings = new Map(
    files.map((f) => [relative(CORE, f).split(sep).join('/'), inlineListsIn(readFileSync(f, 'utf8'))]),
  );

  it('hold no inline word lists (move them to src/core/lexicon/)', () => {
    const offending = [...findings]
      .filter(([file, found]) => found.length > 0 && !ALLOWED.has(file))
      .flatMap(([file, found]) => found.map((f) => `src/core/${file}:${f}`));
    expect(offending).toEqual([]);
  });

  it('allow only files that still hold a list', () => {
    const stale = [...ALLOWED.keys()].filter((file) => (findings.get(file)?.length ?? 0) === 0);
    expect(stale).toEqual([]);
  });
});
