/**
 * Versions of one document, for the conflict check: a superseded (or draft) document never stands
 * as a rival to its current version. Two documents are versions of one another when their titles
 * agree once version marks are set aside — words holding a digit ("v3.0", "2022", "rev2") and the
 * words of `lexicon/versions.ts` ("draft", "revised", month names) — and exactly one document with
 * that title is current while the others are superseded or drafts. The documents' statuses (and,
 * when the question asks about earlier versions, their effective dates) then decide between them as
 * between the versions of one lineage cluster (`conflict-support.ts:speakerOf`), before any conflict
 * is declared.
 *
 * Several current documents with one title are not versions here: the annual reports of one
 * company share a title once the year is set aside, and each is current for its own year.
 */
import type { DocumentMeta } from '../types';
import { VERSION_MARKS } from '../lexicon/versions';

/** A title's words without its version marks, lower-cased and joined by spaces ('' when nothing is left). */
export function titleStem(title: string): string {
  const words = title.toLowerCase().match(/[\p{L}\p{N}]+(?:[.'’][\p{L}\p{N}]+)*/gu) ?? [];
  return words.filter((w) => !/\p{N}/u.test(w) && !VERSION_MARKS.has(w)).join(' ');
}

/**
 * Document id → the id of the current document it is a version of (the current one maps to
 * itself), for every family of versions among `documents`; documents in no family are absent.
 */
export function versionFamilies(documents: Iterable<DocumentMeta>): Map<string, string> {
  const byStem = new Map<string, DocumentMeta[]>();
  for (const d of documents) {
    const stem = titleStem(d.title);
    if (stem === '') continue;
    const list = byStem.get(stem);
    if (list) list.push(d);
    else byStem.set(stem, [d]);
  }
  const out = new Map<string, string>();
  for (const docs of byStem.values()) {
    const current = docs.filter((d) => d.status === 'current');
    if (current.length !== 1 || docs.length < 2) continue;
    const head = (current[0] as DocumentMeta).id;
    for (const d of docs) out.set(d.id, head);
  }
  return out;
}
