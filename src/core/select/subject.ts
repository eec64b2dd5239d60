/**
 * Stage 3 — the subject a question names (issue 28: answers that do not drift when unrelated
 * documents are added).
 *
 * A filing is about its registrant: an `official_filing` whose title reads "Name — Form …" (as
 * `parse/metadata.ts:filingTitle` writes it) or "10-K - 02/08/2023 - Name" has the *subject* "Name". A question names a subject
 * when it holds a term of the name beyond its legal form ("3M" of "3M Company"; the forms are
 * `lexicon/corporate.ts`). A question names a document by its title when it holds a term of that
 * title that at most `titleShare` of the titles in play hold, versions of one document counted once
 * (term statistics: a word every title holds, "policy" in a library of policies, names none).
 *
 *   - The question names some subjects: filings of the other subjects leave ("What was 3M's
 *     capital expenditure?" is not answered from MGM's filing).
 *   - It names no subject but names another document by its title ("How many days per week can I
 *     work remotely …?" names the Remote Work Policy): every filing leaves, being about a company
 *     the question does not ask about.
 *   - It names nothing: every candidate stays (a library of one filing answers "What was revenue in
 *     2022?").
 *
 * Candidates that leave get a `subject` entry with the reason; no passage of a document that leaves
 * (in the pool or retrieved past it) is packed or read by verify as context. When the stage removes nothing it adds no entry (and when it would remove
 * every candidate it removes none).
 */
import type { Candidate, DocumentMeta } from '../types';
import { assertKnownOptions } from '../errors';
import { CORPORATE_FORMS } from '../lexicon/corporate';
import type { EvidenceLookup } from './common';
import { checkRange, metaOf, withEntry } from './common';
import { termsOf } from './rationales';
import { titleStem } from '../verify/versions';

export interface SubjectOptions {
  /** A title term names a document only when at most this share of the titles in play hold it. Evident default: half. */
  readonly titleShare: number;
}

export const DEFAULT_SUBJECT_OPTIONS: SubjectOptions = Object.freeze({ titleShare: 0.5 });

export interface SubjectResult {
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  /** Documents that leave: none of their passages is evidence, in the pool or past it (verify's context). */
  readonly leaving: ReadonlySet<string>;
  /** Subjects (registrant names) the question names, and titles of other documents it names. */
  readonly named: readonly string[];
}

const FORM_TERMS: ReadonlySet<string> = new Set([...CORPORATE_FORMS].flatMap((w) => termsOf(w)));

/** An SEC form code ("10-K", "10-Q", "8-K", "20-F") or the word "Form": a segment naming the filing's kind. */
const FORM_SEGMENT = /\b(?:form|\d{1,2}-[A-Z]|10-?[KQ])\b/iu;

/**
 * The registrant a filing is about ("MGM Resorts International"), or null for any other document:
 * of the title's parts between dashes ("MGM Resorts International — Form 10-K, fiscal year ended …",
 * as `parse/metadata.ts:filingTitle` writes it; "10-K - 02/08/2023 - 3M Company", as filers set
 * it), the first that names neither the form nor only a date.
 */
export function subjectOf(meta: DocumentMeta): string | null {
  if (meta.sourceType !== 'official_filing') return null;
  const parts = meta.title.split(/\s+[-–—]\s+/u);
  if (parts.length < 2) return null;
  for (const part of parts) {
    const name = part.trim();
    if (FORM_SEGMENT.test(name)) continue;
    if (nameTerms(name).length > 0) return name;
  }
  return null;
}

/** The terms that name a subject: its words' terms without legal forms. */
function nameTerms(name: string): string[] {
  return termsOf(name).filter((t) => !FORM_TERMS.has(t) && !/^[\p{N}\p{P}]+$/u.test(t));
}

/**
 * Documents whose title the question names with a term at most `share` of the titles in play hold.
 * Versions of one document count as one title ("Remote Work Policy v3.0" and "v2.1": `titleStem`).
 */
function namedByTitle(question: ReadonlySet<string>, docs: readonly DocumentMeta[], share: number): DocumentMeta[] {
  const titleTerms = new Map(docs.map((d) => [d.id, new Set(termsOf(d.title))]));
  const stems = new Map<string, Set<string>>();
  for (const d of docs) {
    const stem = titleStem(d.title) || d.id;
    const terms = stems.get(stem) ?? new Set<string>();
    for (const t of titleTerms.get(d.id) ?? []) terms.add(t);
    stems.set(stem, terms);
  }
  const df = new Map<string, number>();
  for (const terms of stems.values()) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  const distinctive = (t: string): boolean => (df.get(t) ?? 0) <= share * stems.size;
  return docs.filter((d) => [...(titleTerms.get(d.id) ?? [])].some((t) => question.has(t) && distinctive(t)));
}

/**
 * Drops filings about subjects the question does not name, when it names a subject or another
 * document. `others`: candidates retrieved past the pool; their documents are in play too (a filing
 * found only there leaves as well), but they get no entry here.
 */
export function filterBySubject(
  question: string,
  candidates: readonly Candidate[],
  lookup: EvidenceLookup,
  options: Partial<SubjectOptions> = {},
  others: readonly Candidate[] = [],
): SubjectResult {
  assertKnownOptions(options, DEFAULT_SUBJECT_OPTIONS, 'subject');
  const o: SubjectOptions = { ...DEFAULT_SUBJECT_OPTIONS, ...options };
  checkRange('subject', 'titleShare', o.titleShare, 0, 1);
  const unchanged: SubjectResult = { kept: candidates, dropped: [], leaving: new Set(), named: [] };
  const docs = [...new Set([...candidates, ...others].map((c) => c.docId))].map((d) => metaOf(lookup, d));
  const subjects = new Map<string, string>();
  for (const d of docs) {
    const s = subjectOf(d);
    if (s !== null) subjects.set(d.id, s);
  }
  if (subjects.size === 0 || docs.length < 2) return unchanged;

  const q = new Set(termsOf(question));
  const namedSubjects = new Set([...subjects].filter(([, s]) => nameTerms(s).some((t) => q.has(t))).map(([id]) => id));
  const otherNamed =
    namedSubjects.size > 0 ? [] : namedByTitle(q, docs, o.titleShare).filter((d) => !subjects.has(d.id));
  if (namedSubjects.size === 0 && otherNamed.length === 0) return unchanged;

  const named =
    namedSubjects.size > 0
      ? [...new Set([...namedSubjects].map((id) => subjects.get(id) as string))]
      : otherNamed.map((d) => d.title);
  const leaving = new Set([...subjects.keys()].filter((id) => !namedSubjects.has(id)));
  const leaves = (c: Candidate): boolean => leaving.has(c.docId);
  const kept = candidates.filter((c) => !leaves(c));
  if (kept.length === 0) return unchanged;
  const quoted = named.map((n) => `"${n}"`).join(', ');
  const dropped = candidates.filter(leaves).map((c) =>
    withEntry(c, {
      stage: 'subject',
      score: c.score,
      kept: false,
      reason: `a filing about ${subjects.get(c.docId) as string}, which the question does not name (it names ${quoted})`,
      detail: { subject: subjects.get(c.docId) as string, named: named.join('; ') },
    }),
  );
  return { kept, dropped, leaving, named };
}
