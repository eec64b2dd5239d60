/**
 * Verify, check 1 — instruction injection. A retrieved passage is data; text in it that addresses
 * the model ("ignore all previous instructions", a fake `<|im_start|>system` block, a fake
 * "Assistant:" turn, an image link that would send the chat to a third party) must never reach a
 * prompt as something to obey, and must not be quoted to the user as if it were the document's
 * content.
 *
 * Decision (see README.md): flagged spans are redacted — replaced by `REDACTION_MARK` — and the
 * rest of the passage is kept only if it still carries content (at least `minContentWords`
 * content words). The passage is shown with its flags. Hidden characters (Unicode tag characters,
 * zero-width characters inside words, bidi overrides) are removed before matching, so "i\u200bgnore"
 * is read as "ignore"; what tag characters spelled is decoded into the flag for the user.
 *
 * Redaction unit: the sentence holding a prose pattern; the whole line for role markers and fake
 * turns; the whole block for `<|im_start|> … <|im_end|>`; the link itself for an exfiltration image;
 * the whole comment for an HTML comment with instructions. Weaker patterns ("do not mention this",
 * "reply that …") are redacted only in a paragraph that already has a strong hit.
 *
 * Hidden text (`Chunk.hidden`: white-on-white, zero-size, off-page or invisible PDF text, hidden
 * HTML, vanished DOCX runs, marked at ingest) is flagged `hidden_text` and redacted the same way,
 * with `HIDDEN_MARK`, whatever it says: a reader of the document cannot see it, so it is not what
 * the document tells its readers and can be neither evidence nor a quoted answer (see README.md).
 * The span is the unit (the parser knows its exact extent); a passage with nothing visible left
 * is dropped by the same `minContentWords` rule. Hidden text also opens the weak patterns in its
 * paragraph, as hidden characters do.
 */
import type { Candidate, HiddenSpan } from '../types';
import { assertKnownOptions } from '../errors';
import type { EvidenceLookup } from '../util/stage';
import { checkInt, tokenize, withEntry } from '../util/stage';
import { isStopword } from '../select/rationales';
import { splitSentences } from '../text/sentences';
import { caseFolded } from './values';
import {
  ADDRESSES_MODEL,
  ALWAYS_A_TURN,
  DISREGARD_ABOVE,
  DISREGARD_USER_REQUEST,
  FAKE_TURN,
  FOLLOW_UP_INSTRUCTION,
  OVERRIDE_INSTRUCTIONS,
  PERSONA_SWITCH,
  ROLE_HEADING,
  ROLE_TOKEN,
  SYSTEM_PROMPT_REQUEST,
} from '../lexicon/injection';

export const INJECTION_KINDS = [
  'instruction_override',
  'persona_switch',
  'system_prompt',
  'role_marker',
  'fake_turn',
  'exfiltration_link',
  'html_comment',
  'hidden_tag_chars',
  'zero_width',
  'bidi_override',
  'follow_up_instruction',
  'hidden_text',
] as const;
export type InjectionKind = (typeof INJECTION_KINDS)[number];

/** One flagged span. Offsets are UTF-16 offsets into the original (unredacted) text. */
export interface InjectionFlag {
  readonly kind: InjectionKind;
  readonly start: number;
  readonly end: number;
  /** The flagged text as read after hidden characters were removed (at most 160 characters). */
  readonly excerpt: string;
  /** For tag characters: the ASCII text they spelled. */
  readonly decoded?: string;
}

export interface InjectionScan {
  readonly flags: readonly InjectionFlag[];
  /** The text with hidden characters removed and flagged spans replaced by `REDACTION_MARK`. */
  readonly redacted: string;
  /** Content words (non-stopwords of ≥ 2 letters) left in `redacted`, the mark excluded. */
  readonly contentWords: number;
}

/** What replaces a flagged span. Square brackets and no sentence-final dot, so it reads as an editorial note. */
export const REDACTION_MARK = '[removed: text addressed to the AI]';
/** What replaces text the document hides from its readers (`Chunk.hidden`). */
export const HIDDEN_MARK = '[removed: text hidden from readers]';

export interface InjectionOptions {
  /** A flagged passage is kept only when at least this many content words remain after redaction. Evident default. */
  readonly minContentWords: number;
}

export const DEFAULT_INJECTION_OPTIONS: InjectionOptions = Object.freeze({ minContentWords: 5 });

// ---------------------------------------------------------------------------------------------
// Hidden characters
// ---------------------------------------------------------------------------------------------

const TAG_CHAR = /[\u{E0000}-\u{E007F}]/u;
const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);
const BIDI = new Set([0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const isWordChar = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

interface Cleaned {
  readonly text: string;
  /** Original offset of each UTF-16 unit of `text`, plus one entry for the end. */
  readonly map: readonly number[];
  readonly flags: InjectionFlag[];
}

/** Any character `stripHidden` removes. */
const HIDDEN = /[\u{E0000}-\u{E007F}\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/u;

/** Removes tag characters, zero-width characters and bidi controls, flagging them (runs become one flag). */
function stripHidden(text: string): Cleaned {
  if (!HIDDEN.test(text)) {
    // Nothing to remove (the usual case): the text as it is, offsets unchanged.
    const map = new Array<number>(text.length + 1);
    for (let i = 0; i <= text.length; i++) map[i] = i;
    return { text, map, flags: [] };
  }
  let out = '';
  const map: number[] = [];
  const flags: InjectionFlag[] = [];
  let tagRun = null as { start: number; end: number; decoded: string } | null;
  const closeTag = (): void => {
    if (tagRun) {
      flags.push({
        kind: 'hidden_tag_chars',
        start: tagRun.start,
        end: tagRun.end,
        excerpt: `${(tagRun.end - tagRun.start) >> 1} invisible tag characters`,
        decoded: tagRun.decoded,
      });
    }
    tagRun = null;
  };
  let zwRun = null as { start: number; end: number } | null;
  const closeZw = (next: string | undefined): void => {
    if (zwRun) {
      const before = out[out.length - 1];
      // Inside a word ("i\u200bgnore") it hides the word from matching; at a word edge or between emoji it is harmless.
      if (isWordChar(before) && isWordChar(next)) {
        const last = flags[flags.length - 1];
        if (last && last.kind === 'zero_width' && zwRun.start - last.end < 40) {
          flags[flags.length - 1] = { ...last, end: zwRun.end };
        } else {
          flags.push({
            kind: 'zero_width',
            start: zwRun.start,
            end: zwRun.end,
            excerpt: 'zero-width characters inside words',
          });
        }
      }
    }
    zwRun = null;
  };
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    const width = ch.length;
    if (TAG_CHAR.test(ch)) {
      const c = cp - 0xe0000;
      const letter = c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '';
      if (tagRun) tagRun = { ...tagRun, end: i + width, decoded: tagRun.decoded + letter };
      else tagRun = { start: i, end: i + width, decoded: letter };
      i += width;
      continue;
    }
    closeTag();
    if (ZERO_WIDTH.has(cp)) {
      zwRun = zwRun ? { ...zwRun, end: i + width } : { start: i, end: i + width };
      i += width;
      continue;
    }
    closeZw(ch);
    if (BIDI.has(cp)) {
      const last = flags[flags.length - 1];
      if (last && last.kind === 'bidi_override' && i - last.end < 80) flags[flags.length - 1] = { ...last, end: i + 1 };
      else flags.push({ kind: 'bidi_override', start: i, end: i + 1, excerpt: 'bidirectional override characters' });
      i += width;
      continue;
    }
    for (let k = 0; k < width; k++) map.push(i + k);
    out += ch;
    i += width;
  }
  closeTag();
  closeZw(undefined);
  map.push(text.length);
  return { text: out, map, flags };
}

// ---------------------------------------------------------------------------------------------
// Patterns (matched on the cleaned text)
// ---------------------------------------------------------------------------------------------

type Unit = 'sentence' | 'line' | 'match';

export interface InjectionPattern {
  readonly kind: InjectionKind;
  readonly re: RegExp;
  readonly unit: Unit;
  /**
   * A necessary condition, checked first because case-insensitive Unicode patterns are slow to
   * scan: alternatives of substrings (each all required) of which the folded text (`gateText`)
   * must hold one for `re` to possibly match. Absent: always scanned.
   */
  readonly gate?: readonly (readonly string[])[];
}
type Pattern = InjectionPattern;

/** The text as the gates read it (`caseFolded`: every run of letters a match spans appears in it, lower-cased). */
export const gateText = caseFolded;

/** Whether a pattern's gate lets it match (see `InjectionPattern.gate`). */
export function gateOpen(pattern: InjectionPattern, folded: string): boolean {
  return !pattern.gate || pattern.gate.some((all) => all.every((part) => folded.includes(part)));
}

const one = (...words: string[]): string[][] => words.map((w) => [w]);

/** Patterns that flag on their own (exported for the gate tests). */
export const STRONG: readonly Pattern[] = [
  {
    kind: 'instruction_override',
    re: OVERRIDE_INSTRUCTIONS,
    unit: 'sentence',
    gate: one('ignore', 'disregard', 'forget', 'override', 'bypass', 'skip', 'abandon'),
  },
  {
    kind: 'instruction_override',
    re: DISREGARD_ABOVE,
    unit: 'sentence',
    gate: one('disregard', 'ignore', 'forget'),
  },
  {
    kind: 'instruction_override',
    re: DISREGARD_USER_REQUEST,
    unit: 'sentence',
    gate: one('disregard', 'ignore'),
  },
  {
    kind: 'persona_switch',
    re: PERSONA_SWITCH,
    unit: 'sentence',
    gate: [['you', 'now'], ...one('pretend', 'mode', 'unrestricted', 'unfiltered', 'jailbroken')],
  },
  {
    kind: 'system_prompt',
    // "system prompt" as a topic ("attackers extract the system prompt") is not flagged; a new one, or an order to reveal one, is.
    re: SYSTEM_PROMPT_REQUEST,
    unit: 'sentence',
    gate: one('system', 'prompt', 'instructions', 'configuration'),
  },
  {
    kind: 'role_marker',
    re: ROLE_TOKEN,
    unit: 'line',
    gate: one('<', '[inst]', '[/inst]'),
  },
  {
    kind: 'role_marker',
    // "### Instruction:" / "### System" alone on its line; a heading such as "### System Prompt Extraction" is not a marker.
    re: ROLE_HEADING,
    unit: 'line',
    gate: one('##'),
  },
  {
    kind: 'exfiltration_link',
    re: /!\[[^\]\n]*\]\(\s*<?(?:https?:)?\/\/[^)\s>]*\?[^)\s>]*=[^)\s>]*>?(?:\s+["'][^"'\n]*["'])?\s*\)|!\[[^\]\n]*\]\([^)\n]*(?:\{\{|%7B%7B)[^)\n]*\)|<img\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]*\?[^"'\s>]*=[^>]*>/giu,
    unit: 'match',
    gate: one('![', '<img'),
  },
];

const WEAK: readonly Pattern[] = [
  {
    kind: 'follow_up_instruction',
    re: FOLLOW_UP_INSTRUCTION,
    unit: 'sentence',
  },
];

const HTML_COMMENT = /<!--([\s\S]*?)-->/gu;

interface Range {
  start: number;
  end: number;
  kind: InjectionKind;
}

function lineRange(text: string, start: number, end: number): { start: number; end: number } {
  const ls = text.lastIndexOf('\n', start - 1) + 1;
  const le = text.indexOf('\n', end);
  return { start: ls, end: le === -1 ? text.length : le };
}

function paragraphOf(text: string, pos: number): { start: number; end: number } {
  const before = text.slice(0, pos);
  const m = /\n[ \t]*\n(?![\s\S]*\n[ \t]*\n)/u.exec(before);
  const start = m ? m.index + m[0].length : 0;
  const after = /\n[ \t]*\n/u.exec(text.slice(pos));
  return { start, end: after ? pos + after.index : text.length };
}

function sentenceRangeIn(
  sentences: readonly { start: number; end: number }[],
  start: number,
  end: number,
): { start: number; end: number } {
  let s = start;
  let e = end;
  for (const x of sentences) {
    if (x.end > start && x.start < end) {
      s = Math.min(s, x.start);
      e = Math.max(e, x.end);
    }
  }
  return { start: s, end: e };
}

/** Scans one text: flags, the redacted text, and how much content is left. */
export function scanInjection(
  text: string,
  options: Partial<InjectionOptions> = {},
  hidden: readonly HiddenSpan[] = [],
): InjectionScan {
  assertKnownOptions(options, DEFAULT_INJECTION_OPTIONS, 'injection');
  const { flags, redacted } = scanText(text, hidden);
  return { flags, redacted, contentWords: contentWordsOf(redacted) };
}

/** Content words (non-stopwords of ≥ 2 letters, or numbers) left in a redacted text, the mark excluded. */
function contentWordsOf(redacted: string): number {
  return tokenize(redacted.split(REDACTION_MARK).join(' ').split(HIDDEN_MARK).join(' ')).filter(
    (w) => /\p{L}{2,}|\p{N}/u.test(w.raw) && !isStopword(w.lower),
  ).length;
}

/** `scanInjection` without the content count (only a flagged text needs it). */
function scanText(text: string, hidden: readonly HiddenSpan[] = []): Omit<InjectionScan, 'contentWords'> {
  const cleaned = stripHidden(text);
  const t = cleaned.text;
  const strongAt: number[] = [];
  let split: readonly { start: number; end: number }[] | null = null;
  const sentenceRange = (start: number, end: number): { start: number; end: number } =>
    sentenceRangeIn((split ??= splitSentences(t)), start, end);
  const ranges: Range[] = [];

  // Role-marker blocks first: <|im_start|>… <|im_end|> is one unit.
  for (const m of t.matchAll(/<\|im_start\|>[\s\S]*?(?:<\|im_end\|>|$)/gu)) {
    ranges.push({ start: m.index, end: m.index + m[0].length, kind: 'role_marker' });
  }
  for (const m of t.matchAll(HTML_COMMENT)) {
    if (ADDRESSES_MODEL.test(m[1] ?? ''))
      ranges.push({ start: m.index, end: m.index + m[0].length, kind: 'html_comment' });
  }
  // Hidden spans (original offsets) onto the cleaned text: the first cleaned unit at or after each end.
  const cleanedAt = (o: number): number => {
    let lo = 0;
    let hi = t.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cleaned.map[mid] as number) < o) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (const h of hidden) {
    const s = cleanedAt(Math.max(0, Math.min(h.start, text.length)));
    const e = cleanedAt(Math.max(0, Math.min(h.end, text.length)));
    if (e <= s) continue;
    ranges.push({ start: s, end: e, kind: 'hidden_text' });
    strongAt.push(s);
  }
  // Fake turns: a line opening with a chat role. "User:" or "Model:" alone is common in manuals, so
  // they count only as part of a dialogue (two roles); "Assistant:", "Human:", "System:" always count.
  const turns = [...t.matchAll(FAKE_TURN)];
  const roles = new Set(turns.map((m) => (m[1] ?? '').toLowerCase()));
  if (roles.size >= 2 || [...roles].some((r) => ALWAYS_A_TURN.has(r))) {
    for (const m of turns) {
      ranges.push({ start: m.index, end: m.index + m[0].length, kind: 'fake_turn' });
      strongAt.push(m.index);
    }
  }
  const folded = gateText(t);
  for (const p of STRONG) {
    if (!gateOpen(p, folded)) continue;
    for (const m of t.matchAll(p.re)) {
      const s = m.index;
      const e = s + m[0].length;
      const r =
        p.unit === 'line' ? lineRange(t, s, e) : p.unit === 'sentence' ? sentenceRange(s, e) : { start: s, end: e };
      ranges.push({ ...r, kind: p.kind });
      strongAt.push(s);
    }
  }
  // Hidden characters are themselves a strong signal for the weak patterns around them.
  for (const f of cleaned.flags) {
    const pos = cleaned.map.findIndex((o) => o >= f.start);
    if (pos >= 0) strongAt.push(pos);
  }
  if (strongAt.length > 0) {
    const paragraphs = strongAt.map((pos) => paragraphOf(t, pos));
    for (const p of WEAK) {
      for (const m of t.matchAll(p.re)) {
        if (!paragraphs.some((g) => m.index >= g.start && m.index < g.end)) continue;
        ranges.push({ ...sentenceRange(m.index, m.index + m[0].length), kind: p.kind });
      }
    }
  }

  // Merge overlapping ranges (the first kind found names the merged range in the flag list).
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Range[] = [];
  const flags: InjectionFlag[] = [...cleaned.flags];
  for (const r of ranges) {
    const orig = { start: cleaned.map[r.start] as number, end: cleaned.map[r.end] as number };
    flags.push({ kind: r.kind, ...orig, excerpt: t.slice(r.start, r.end).slice(0, 160) });
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) {
      last.end = Math.max(last.end, r.end);
      // A merged range is hidden text only when all of it is; else it is text addressed to the AI.
      if (last.kind !== r.kind) last.kind = last.kind === 'hidden_text' ? r.kind : last.kind;
    } else merged.push({ ...r });
  }
  // Duplicate flags (the same span found by two patterns of one kind) are reported once.
  const seen = new Set<string>();
  const uniqueFlags = flags
    .filter((f) => {
      const k = `${f.kind}:${f.start}:${f.end}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => a.start - b.start || a.end - b.end);

  let redacted = '';
  let at = 0;
  for (const r of merged) {
    redacted += t.slice(at, r.start) + (r.kind === 'hidden_text' ? HIDDEN_MARK : REDACTION_MARK);
    at = r.end;
  }
  redacted += t.slice(at);
  redacted = redacted.replace(new RegExp(`(?:${escapeRe(REDACTION_MARK)}\\s*){2,}`, 'gu'), `${REDACTION_MARK}\n`);
  redacted = redacted.replace(new RegExp(`(?:${escapeRe(HIDDEN_MARK)}\\s*){2,}`, 'gu'), `${HIDDEN_MARK}\n`);
  return { flags: uniqueFlags, redacted };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** A flag with the candidate it was found in. */
export interface CandidateFlag extends InjectionFlag {
  readonly candidateId: string;
  readonly docId: string;
}

export interface InjectionInput {
  readonly lookup: EvidenceLookup;
}

export interface InjectionResult {
  /** Candidates kept (flagged ones with their text redacted in `redactions`), in input order. */
  readonly kept: readonly Candidate[];
  /** Candidates with nothing but injected text left. */
  readonly dropped: readonly Candidate[];
  readonly flags: readonly CandidateFlag[];
  /** Chunk id → redacted text, for every flagged chunk. */
  readonly redactions: ReadonlyMap<string, string>;
}

const kindLabel = (k: InjectionKind): string => k.replace(/_/gu, ' ');

/** Screens candidates for text addressed to the model; redacts it and drops passages with nothing else left. */
export function screenInjection(
  candidates: readonly Candidate[],
  input: InjectionInput,
  options: Partial<InjectionOptions> = {},
): InjectionResult {
  assertKnownOptions(options, DEFAULT_INJECTION_OPTIONS, 'injection');
  const o: InjectionOptions = { ...DEFAULT_INJECTION_OPTIONS, ...options };
  checkInt('injection', 'minContentWords', o.minContentWords, 0, 10_000);
  const kept: Candidate[] = [];
  const dropped: Candidate[] = [];
  const flags: CandidateFlag[] = [];
  const redactions = new Map<string, string>();
  const scans = new Map<string, InjectionScan | null>();
  for (const c of candidates) {
    const chunk = input.lookup.chunks.get(c.id);
    let scan = scans.get(c.id);
    if (scan === undefined) {
      const found = chunk && chunk.text.length > 0 ? scanText(chunk.text, chunk.hidden) : null;
      scan = found ? { ...found, contentWords: found.flags.length > 0 ? contentWordsOf(found.redacted) : 0 } : null;
      scans.set(c.id, scan);
    }
    if (!scan || scan.flags.length === 0) {
      kept.push(
        withEntry(c, { stage: 'verify', score: c.score, kept: true, detail: { check: 'injection', flags: 0 } }),
      );
      continue;
    }
    for (const f of scan.flags) flags.push({ ...f, candidateId: c.id, docId: c.docId });
    redactions.set(c.id, scan.redacted);
    const kinds = [...new Set(scan.flags.map((f) => f.kind))];
    const detail = {
      check: 'injection',
      flags: scan.flags.length,
      kinds: kinds.join(','),
      contentWords: scan.contentWords,
    };
    if (scan.contentWords < o.minContentWords) {
      dropped.push(
        withEntry(c, {
          stage: 'verify',
          score: c.score,
          kept: false,
          reason: `${kinds.every((k) => k === 'hidden_text') ? 'text hidden from readers' : 'text addressed to the AI'} (${kinds.map(kindLabel).join(', ')}); nothing else left after removing it`,
          detail,
        }),
      );
    } else {
      kept.push(
        withEntry(c, {
          stage: 'verify',
          score: c.score,
          kept: true,
          reason: `flagged: ${kinds.map(kindLabel).join(', ')}; ${scan.flags.length} span(s) removed, the rest kept as data`,
          detail,
        }),
      );
    }
  }
  return { kept, dropped, flags, redactions };
}

/** A lookup whose chunks carry the redacted texts (a new map; the input is not touched). */
export function withRedactions(lookup: EvidenceLookup, redactions: ReadonlyMap<string, string>): EvidenceLookup {
  if (redactions.size === 0) return lookup;
  const chunks = new Map(lookup.chunks);
  for (const [id, text] of redactions) {
    const c = chunks.get(id);
    if (c) chunks.set(id, { ...c, text });
  }
  return { ...lookup, chunks };
}
