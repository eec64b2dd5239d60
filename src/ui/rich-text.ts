/**
 * Text → display segments, for React to render as text nodes (never as HTML): bold spans
 * (`**…**`, which the parsers' Markdown-like text and the demo use), citations in answers
 * ([S1], [S1, S3], [S1–S3]) and highlighted ranges. Pure functions.
 */

export type Segment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'strong'; readonly text: string }
  | { readonly kind: 'cite'; readonly id: string }
  | { readonly kind: 'mark'; readonly text: string };

const BOLD = /\*\*(?=\S)([^*]+?)\*\*/gu;
// The same citation syntax `validateAnswer` reads.
const CITATION_GROUP = /\[(S\d+(?:\s*(?:[,;]|–|-)\s*S\d+)*)\]/gu;

/** Text with `**bold**` spans as segments. */
export function inlineSegments(text: string): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(BOLD)) {
    if (m.index > at) out.push({ kind: 'text', text: text.slice(at, m.index) });
    out.push({ kind: 'strong', text: m[1] ?? '' });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/** Citation ids of one bracket group, ranges expanded: "S1–S3" → S1, S2, S3. */
export function citationIds(group: string): string[] {
  const range = /^S(\d+)\s*[–-]\s*S(\d+)$/u.exec(group.trim());
  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    const ids: string[] = [];
    for (let k = Math.min(a, b); k <= Math.max(a, b) && ids.length < 50; k++) ids.push(`S${k}`);
    return ids;
  }
  return group
    .split(/\s*[,;]\s*/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * An answer's text as paragraphs (blank lines apart) of segments: text, bold and citations.
 * A Markdown heading marker that opens a paragraph (an answer quoting a heading) is dropped.
 */
export function answerParagraphs(text: string): Segment[][] {
  return text
    .split(/\n\s*\n/u)
    .map((p) => p.replace(/^\s*#{1,6}\s+/u, '').trim())
    .filter((p) => p !== '')
    .map((p) => {
      const out: Segment[] = [];
      let at = 0;
      for (const m of p.matchAll(CITATION_GROUP)) {
        if (m.index > at) out.push(...inlineSegments(p.slice(at, m.index)));
        for (const id of citationIds(m[1] ?? '')) out.push({ kind: 'cite', id });
        at = m.index + m[0].length;
      }
      if (at < p.length) out.push(...inlineSegments(p.slice(at)));
      return out;
    });
}

/** Text for matching: bold markers removed, whitespace collapsed. */
export function plainText(text: string): string {
  return text.replace(/\*\*/gu, '').replace(/\s+/gu, ' ').trim();
}

/**
 * `text` (bold markers removed, whitespace collapsed) with every occurrence of each needle
 * marked. Needles are matched the same way, case-sensitively; overlapping marks merge.
 */
export function highlightSegments(text: string, needles: readonly string[]): Segment[] {
  const plain = plainText(text);
  const ranges: [number, number][] = [];
  for (const n of needles) {
    const needle = plainText(n);
    if (needle.length < 8) continue;
    let from = 0;
    for (;;) {
      const i = plain.indexOf(needle, from);
      if (i < 0) break;
      ranges.push([i, i + needle.length]);
      from = i + needle.length;
    }
  }
  if (ranges.length === 0) return plain === '' ? [] : [{ kind: 'text', text: plain }];
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const out: Segment[] = [];
  let at = 0;
  for (const [s, e] of merged) {
    if (s > at) out.push({ kind: 'text', text: plain.slice(at, s) });
    out.push({ kind: 'mark', text: plain.slice(s, e) });
    at = e;
  }
  if (at < plain.length) out.push({ kind: 'text', text: plain.slice(at) });
  return out;
}
