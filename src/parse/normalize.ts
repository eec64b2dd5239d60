/**
 * Text normalization shared by every format: LF line ends, no control characters, no Unicode tag
 * characters. One pass over the string, linear in its length (a 4 MB single line is routine).
 *
 * - CRLF and lone CR become LF; form feed and vertical tab become LF.
 * - ANSI escape sequences (ESC [ … final byte) are removed whole; other C0 controls except tab
 *   and LF, DEL, and C1 controls are removed.
 * - Unicode tag characters (U+E0000–U+E007F) are removed: they render as nothing and carry
 *   hidden ASCII ("ASCII smuggling"), so a reader could never see what the index would contain.
 * - Zero-width and bidirectional controls are counted but kept: Indic, Persian and Arabic text
 *   and emoji need ZWJ/ZWNJ and the marks.
 */
import type { ParseWarning } from './types';

export interface NormalizeStats {
  controls: number;
  tags: number;
  invisible: number;
}

export function newNormalizeStats(): NormalizeStats {
  return { controls: 0, tags: 0, invisible: 0 };
}

const LF = 0x0a;
const CR = 0x0d;
const ESC = 0x1b;

function isInvisible(c: number): boolean {
  return (
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2064) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0xfeff
  );
}

/** End of the ANSI CSI sequence starting with ESC at `i` (exclusive), or -1 when it is not one. */
function csiEnd(s: string, i: number): number {
  if (s.charCodeAt(i + 1) !== 0x5b) return -1;
  let k = i + 2;
  // Parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, then one final byte 0x40–0x7E.
  while (k < s.length && k - i < 64) {
    const c = s.charCodeAt(k);
    if (c >= 0x40 && c <= 0x7e) return k + 1;
    if (c < 0x20 || c > 0x3f) return -1;
    k++;
  }
  return -1;
}

/** Any character `normalizeText` removes, replaces or counts (controls, C1, CR, tags' high surrogate, invisibles). */
const NEEDS_WORK =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\udb40\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** `s` normalized as described above; counts what it removed or saw into `stats`. */
export function normalizeText(s: string, stats: NormalizeStats): string {
  // Most text needs nothing: one scan, no allocation (a 50 MB HTML file calls this per text node).
  if (!NEEDS_WORK.test(s)) return s;
  const out: string[] = [];
  let changed = false;
  let from = 0; // start of the pending unchanged run
  const cut = (i: number, replacement: string, next: number): void => {
    changed = true;
    if (i > from) out.push(s.slice(from, i));
    if (replacement !== '') out.push(replacement);
    from = next;
  };
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) {
      if (c === LF || c === 0x09) continue;
      if (c === CR) {
        const crlf = s.charCodeAt(i + 1) === LF;
        cut(i, crlf ? '' : '\n', i + 1);
        continue;
      }
      if (c === 0x0b || c === 0x0c) {
        cut(i, '\n', i + 1);
        continue;
      }
      stats.controls++;
      if (c === ESC) {
        const end = csiEnd(s, i);
        if (end > 0) {
          cut(i, '', end);
          i = end - 1;
          continue;
        }
      }
      cut(i, '', i + 1);
      continue;
    }
    if (c < 0x7f) continue;
    if (c <= 0x9f) {
      stats.controls++;
      cut(i, '', i + 1);
      continue;
    }
    if (c === 0xdb40) {
      const low = s.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdc7f) {
        stats.tags++;
        cut(i, '', i + 2);
        i++;
        continue;
      }
    }
    if (isInvisible(c)) {
      if (c === 0xfeff && i === 0) {
        cut(i, '', i + 1); // a byte-order mark, not content
        continue;
      }
      stats.invisible++;
    }
  }
  if (!changed) return s;
  if (from < n) out.push(s.slice(from));
  return out.join('');
}

/** The warnings `stats` calls for. */
export function normalizeWarnings(stats: NormalizeStats): ParseWarning[] {
  const warnings: ParseWarning[] = [];
  if (stats.controls > 0) {
    warnings.push({
      code: 'control_characters_removed',
      message: `${stats.controls} control character${plural(stats.controls)} (NUL, escape codes and the like) removed.`,
      count: stats.controls,
    });
  }
  if (stats.tags > 0) {
    warnings.push({
      code: 'invisible_characters_removed',
      message: `${stats.tags} invisible Unicode tag character${plural(stats.tags)} removed: they can hide text from readers.`,
      count: stats.tags,
    });
  }
  if (stats.invisible > 0) {
    warnings.push({
      code: 'invisible_characters_present',
      message: `${stats.invisible} zero-width or text-direction character${plural(stats.invisible)} kept; they can make words look different from how they are stored.`,
      count: stats.invisible,
    });
  }
  return warnings;
}

export function plural(n: number): string {
  return n === 1 ? '' : 's';
}
