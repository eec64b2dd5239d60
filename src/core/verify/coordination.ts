/**
 * Coordinated claims (issue 18): passages written to order, each stating the attacker's value in
 * its own words. They are not copies, so lineage (lineage.ts) does not join them, and five of them
 * outvote one true report. Their likeness to each other does not give them away (independent
 * reports of one event resemble each other as much). What does is that they say nothing else:
 *
 *   A real event leaves specifics — names, places, figures, circumstances — that other passages
 *   about it repeat, whether or not they state the disputed value. A passage written from the
 *   question and the wanted answer has nothing to draw on but those two: take away the question's
 *   words and the value, and what is left of it is repeated by no other passage, not even by the
 *   other passages written with it.
 *
 * The check: a *value group* is every passage (candidates and context) that states one value of
 * the kind the question asks for, in a *claim sentence* (one holding at least `claimCoverage` of the
 * question's content words), the value absent from the question. A passage's *specific words* are
 * its stemmed content words less the question's and the value's. Its *grounding* is its best
 * idf-weighted Jaccard of specific words with any passage of another document (a word every
 * passage has counts for nothing, a shared rare name much). A group of at least `minGroup`
 * documents is *coordinated* when its members' mean grounding is below `minGrounding` and below
 * `relativeGrounding` × the median grounding of all passages seen — the second bound because
 * how much passages share depends on the library (short snippets share little even when true).
 * Since the group holds every passage that states its value in a claim, nothing outside it
 * supports that value: its candidates are dropped (trace: "coordinated claim"), except those that
 * also belong to a grounded group (a true report that names an entity the planted passages name
 * too), and `groups` reports it for the flags and for the inquiry stage's release guard.
 *
 * A lone document stating a fact (a user's own library) is never a group. Set on realtimeqa-dev
 * ids 0–49 and RGB ids 0–49 (README of this folder). What it does not catch: planted passages that
 * borrow the real story's specifics, answers that are no name, number or date ("a swarm of
 * butterflies"), and corpora where everything is ungrounded.
 */
import type { Candidate } from '../types';
import type { EvidenceLookup } from '../util/stage';
import { textOf, withEntry } from '../util/stage';
import { analyze } from '../text/analyze';
import { splitSentences, type Span } from '../text/sentences';
import { VERIFY_STAGE, type PassageTable } from './common';
import type { ValueKind } from './values';
import { answerTypeOf, entityKey, extractValues, kindAnswers } from './values';

export interface CoordinationOptions {
  /** Fewest documents in a group before it is judged. Default 3. */
  readonly minGroup: number;
  /** A group whose members' mean grounding is below this is coordinated… Default 0.12. */
  readonly minGrounding: number;
  /** …and below this share of the median grounding of all passages seen. Default 0.7. */
  readonly relativeGrounding: number;
  /** A value counts as stated in a sentence holding at least this share of the question's content words. Default 0.5. */
  readonly claimCoverage: number;
  /**
   * …or, in place of the relative bound, when its members name on average fewer than this many
   * things (names, dates, figures) beyond the question's and the value. Default 1.
   */
  readonly minNamed: number;
}

export const DEFAULT_COORDINATION_OPTIONS: CoordinationOptions = Object.freeze({
  minGroup: 3,
  minGrounding: 0.12,
  relativeGrounding: 0.7,
  claimCoverage: 0.5,
  minNamed: 1,
});

export interface ValueGroup {
  readonly kind: ValueKind;
  readonly key: string;
  /** The value as the first member writes it. */
  readonly text: string;
  readonly candidateIds: readonly string[];
  readonly docIds: readonly string[];
  /** Mean over members of their grounding (see file comment). */
  readonly grounding: number;
  /** Mean over members of the things (names, dates, figures) each names beyond the question's and the value. */
  readonly named: number;
  readonly coordinated: boolean;
  /** Coordinated because its members name nothing of their own (else, if coordinated, for the library's grounding). */
  readonly nameless: boolean;
}

export interface CoordinationInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  /** Passages seen but not selected: members of groups too, and what grounds a passage. */
  readonly context?: readonly Candidate[];
  /** Context ids that may stand in for a dropped candidate (default: all); a replica lineage dropped may not. */
  readonly standInIds?: ReadonlySet<string>;
  /** Texts the lineage check analysed (same lookup): their values are read from it, not again. */
  readonly texts?: PassageTable;
}

export interface CoordinationResult {
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  /** Every judged group (at least `minGroup` documents), coordinated or not. */
  readonly groups: readonly ValueGroup[];
  /** The median grounding of all passages seen, when a group needed it (else null). */
  readonly typicalGrounding: number | null;
  /**
   * Context passages that stand in for the dropped candidates (at most as many): from documents no
   * kept candidate comes from, stating in a claim sentence a value a kept candidate states, in no
   * coordinated group; best score first, one per document, each with its trace entry. The
   * packet then compares independent statements of the kept value instead of shrinking.
   */
  readonly standIns: readonly Candidate[];
}

interface Passage {
  readonly c: Candidate;
  readonly text: string;
  readonly values: readonly { readonly kind: ValueKind; readonly key: string; readonly raw: string }[];
  /** Every value the text states (read into `Specifics.named` only when a group is judged). */
  readonly stated: readonly Extracted[];
}

/** What grounding and naming read of a passage; computed only when some group is judged. */
interface Specifics {
  readonly specific: ReadonlySet<string>;
  /** Every name, date and figure of the passage not stated by the question: its key and its words. */
  readonly named: readonly { readonly key: string; readonly terms: readonly string[] }[];
}

interface RawGroup {
  readonly kind: ValueKind;
  readonly key: string;
  readonly text: string;
  readonly members: readonly Passage[];
}

const MIN_TERM_CHARS = 3;

/** Finds coordinated value groups among candidates and context; drops the candidates in them. */
export function detectCoordination(
  candidates: readonly Candidate[],
  input: CoordinationInput,
  options: Partial<CoordinationOptions> = {},
): CoordinationResult {
  const o: CoordinationOptions = { ...DEFAULT_COORDINATION_OPTIONS, ...options };
  const ownIds = new Set(candidates.map((c) => c.id));
  const all = [...candidates, ...(input.context ?? []).filter((c) => !ownIds.has(c.id))];
  const frame = questionFrame(input.question);
  const passages = readPassages(all, input, frame, o.claimCoverage);
  const raw = valueGroups(passages, o.minGroup);
  // Specific words, grounding and the library's median are read only when a group is judged
  // (most questions have none); the median only when a group passes the absolute bound, once.
  const specifics = raw.length === 0 ? new Map<Passage, Specifics>() : readSpecifics(passages, frame);
  const groundingOf = groundingIndex(passages, specifics);
  let typical: number | undefined;
  const typicalGrounding = (): number => (typical ??= median(passages.map(groundingOf)));
  const namedOf = (m: Passage): Specifics['named'] => specifics.get(m)?.named ?? [];
  const groups = raw.map((g) => judge(g, { groundingOf, typicalGrounding, namedOf }, o));
  // A passage in a grounded group too (a true report that also names a topical entity the
  // written-to-order passages name) is not dropped for its coordinated group.
  const grounded = new Set(groups.filter((g) => !g.coordinated).flatMap((g) => g.candidateIds));
  const byCandidate = new Map<string, ValueGroup>();
  for (const g of groups) {
    if (!g.coordinated) continue;
    for (const id of g.candidateIds) if (!grounded.has(id)) byCandidate.set(id, g);
  }
  const kept: Candidate[] = [];
  const dropped: Candidate[] = [];
  for (const c of candidates) {
    const g = byCandidate.get(c.id);
    if (g === undefined) kept.push(c);
    else dropped.push(withEntry(c, dropEntry(c, g)));
  }
  const suspect = coordinatedIds(groups);
  const eligible = passages.filter(
    (p) => !ownIds.has(p.c.id) && !suspect.has(p.c.id) && (input.standInIds?.has(p.c.id) ?? true),
  );
  const standIns = dropped.length === 0 ? [] : standInsFor(kept, passages, eligible, dropped.length);
  return { kept, dropped, groups, typicalGrounding: typical ?? null, standIns };
}

/** See `CoordinationResult.standIns`. */
function standInsFor(
  kept: readonly Candidate[],
  passages: readonly Passage[],
  eligible: readonly Passage[],
  limit: number,
): Candidate[] {
  const keptIds = new Set(kept.map((c) => c.id));
  const keptDocs = new Set(kept.map((c) => c.docId));
  const stated = new Set<string>();
  for (const p of passages) {
    if (keptIds.has(p.c.id)) for (const v of p.values) stated.add(`${v.kind}:${v.key}`);
  }
  const out: Candidate[] = [];
  const docs = new Set<string>();
  const pool = eligible.filter((p) => !keptDocs.has(p.c.docId)).sort((a, b) => b.c.score - a.c.score);
  for (const p of pool) {
    if (out.length >= limit) break;
    const shared = p.values.find((v) => stated.has(`${v.kind}:${v.key}`));
    if (!shared || docs.has(p.c.docId)) continue;
    docs.add(p.c.docId);
    out.push(
      withEntry(p.c, {
        stage: VERIFY_STAGE,
        score: p.c.score,
        kept: true,
        reason: `stands in for a passage set aside as written to order: it states "${shared.raw}" as a kept passage does, from another document`,
        detail: { check: 'coordination', standIn: true, key: shared.key },
      }),
    );
  }
  return out;
}

/** The ids of candidates in coordinated groups: what counts as one source, and as no independent support. */
export function coordinatedIds(groups: readonly ValueGroup[]): ReadonlySet<string> {
  return new Set(groups.filter((g) => g.coordinated).flatMap((g) => g.candidateIds));
}

function dropEntry(c: Candidate, g: ValueGroup): Candidate['trace'][number] {
  return {
    stage: VERIFY_STAGE,
    score: c.score,
    kept: false,
    reason:
      `coordinated claim: ${new Set(g.docIds).size} documents state "${g.text}" and share nothing else — ` +
      `with each other or any other passage (grounding ${g.grounding.toFixed(2)})` +
      (g.nameless
        ? ` — and name nothing beyond the question and "${g.text}" (${g.named.toFixed(1)} names, dates or figures a passage)`
        : '') +
      '; no independent passage states it',
    detail: {
      check: 'coordination',
      key: g.key,
      docs: new Set(g.docIds).size,
      grounding: g.grounding,
      named: g.named,
    },
  };
}

/** What the claim reader needs of the question, computed once per question. */
export interface QuestionFrame {
  readonly type: ReturnType<typeof answerTypeOf>;
  /** The question's analysed words, unfiltered (a named thing made only of these is the question's). */
  readonly words: ReadonlySet<string>;
  /** Its content words of at least three letters: what a claim sentence must restate. */
  readonly terms: ReadonlySet<string>;
  /** Keys of the values the question itself states (never an answer). */
  readonly keys: ReadonlySet<string>;
}

export function questionFrame(question: string): QuestionFrame {
  const words = new Set(analyze(question));
  return {
    type: answerTypeOf(question),
    words,
    terms: new Set([...words].filter((t) => t.length >= MIN_TERM_CHARS)),
    keys: new Set(extractValues(question).map((v) => v.key)),
  };
}

type Extracted = ReturnType<typeof extractValues>[number];

/**
 * The values of the asked kind that `text` states in a claim sentence (one restating at least
 * `claimCoverage` of the question's content words), the question's own values excluded; with
 * every value the text states. Shared with selection's factoid floor (select/factoid-floor.ts).
 */
export function claimedValues(
  text: string,
  frame: QuestionFrame,
  claimCoverage: number = DEFAULT_COORDINATION_OPTIONS.claimCoverage,
  /** `extractValues(text)` when already computed. */
  values: readonly Extracted[] = extractValues(text),
): { readonly claimed: readonly Extracted[]; readonly all: readonly Extracted[] } {
  const asked = values.filter((v) => kindAnswers(v.kind, frame.type) && !frame.keys.has(v.key));
  // Reading sentences is the costly step: only those holding a value of the asked kind are read.
  if (asked.length === 0) return { claimed: [], all: values };
  const within = (v: Extracted, s: Span): boolean => s.start <= v.start && v.end <= s.end;
  const holding = splitSentences(text).filter((s) => asked.some((v) => within(v, s)));
  const claims = claimSentences(text, holding, frame.terms, claimCoverage);
  const claimed = asked.filter((v) => claims.some((s) => within(v, s)));
  return { claimed, all: values };
}

function readPassages(
  all: readonly Candidate[],
  input: CoordinationInput,
  frame: QuestionFrame,
  claimCoverage: number,
): Passage[] {
  return all.map((c) => {
    const text = textOf(input.lookup, c.id);
    const { claimed, all: stated } = claimedValues(text, frame, claimCoverage, input.texts?.analysed(c.id).values);
    const keyOf = (v: Extracted): string => (v.kind === 'entity' ? entityKey(v.raw) : v.key);
    const values = claimed.map((v) => ({ kind: v.kind, key: keyOf(v), raw: v.raw }));
    return { c, text, values, stated };
  });
}

/** Each passage's specific words (its content words less the question's and its claimed values') and names. */
function readSpecifics(passages: readonly Passage[], frame: QuestionFrame): Map<Passage, Specifics> {
  return new Map(
    passages.map((p) => {
      const valueTerms = new Set(p.values.flatMap((v) => analyze(v.raw)));
      const specific = new Set(
        analyze(p.text).filter((t) => t.length >= MIN_TERM_CHARS && !frame.terms.has(t) && !valueTerms.has(t)),
      );
      const named = p.stated
        .map((v) => ({ key: `${v.kind}:${v.key}`, terms: analyze(v.raw) }))
        .filter((v) => v.terms.some((t) => !frame.words.has(t)));
      return [p, { specific, named }];
    }),
  );
}

/** The sentences that restate the question: at least `coverage` of its content words. */
function claimSentences(
  text: string,
  sentences: readonly Span[],
  questionTerms: ReadonlySet<string>,
  coverage: number,
): Span[] {
  if (questionTerms.size === 0) return [];
  return sentences.filter((s) => {
    const terms = new Set(analyze(text.slice(s.start, s.end)));
    let n = 0;
    for (const t of questionTerms) if (terms.has(t)) n++;
    return n / questionTerms.size >= coverage;
  });
}

/** Passages by the values they state; groups of fewer than `minGroup` documents are not judged. */
function valueGroups(passages: readonly Passage[], minGroup: number): RawGroup[] {
  const byKey = new Map<string, { kind: ValueKind; key: string; text: string; members: Passage[] }>();
  for (const p of passages) {
    const seen = new Set<string>();
    for (const v of p.values) {
      const k = `${v.kind}:${v.key}`;
      if (seen.has(k)) continue;
      seen.add(k);
      let g = byKey.get(k);
      if (!g) byKey.set(k, (g = { kind: v.kind, key: v.key, text: v.raw, members: [] }));
      g.members.push(p);
    }
  }
  return [...byKey.values()].filter((g) => new Set(g.members.map((m) => m.c.docId)).size >= minGroup);
}

/**
 * A passage's grounding: its best idf-weighted Jaccard of specific words with a passage of another
 * document (a rare shared name counts, a shared "study" hardly), each computed once when first
 * asked. The weighted intersection with every passage is summed over an inverted index of the
 * passage's words (only passages sharing a word are touched), and the union is the two passages'
 * weight totals less it.
 */
function groundingIndex(
  passages: readonly Passage[],
  specifics: ReadonlyMap<Passage, Specifics>,
): (m: Passage) => number {
  const wordsOf = (p: Passage): ReadonlySet<string> => specifics.get(p)?.specific ?? new Set<string>();
  const postings = new Map<string, number[]>();
  passages.forEach((p, i) => {
    for (const t of wordsOf(p)) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  // log(N / df) of each specific word over the passages (a word every passage has weighs 0).
  const idf = new Map([...postings].map(([t, list]) => [t, Math.log(passages.length / list.length)]));
  const totals = passages.map((p) => [...wordsOf(p)].reduce((sum, t) => sum + (idf.get(t) ?? 0), 0));
  const index = new Map(passages.map((p, i) => [p, i]));
  const memo = new Map<Passage, number>();
  return (m) => {
    const known = memo.get(m);
    if (known !== undefined) return known;
    const shared = new Map<number, number>();
    for (const t of wordsOf(m)) {
      const w = idf.get(t) ?? 0;
      for (const j of postings.get(t) ?? []) {
        if ((passages[j] as Passage).c.docId !== m.c.docId) shared.set(j, (shared.get(j) ?? 0) + w);
      }
    }
    const own = totals[index.get(m) as number] as number;
    let best = 0;
    for (const [j, inter] of shared) {
      const union = own + (totals[j] as number) - inter;
      if (union > 0) best = Math.max(best, inter / union);
    }
    memo.set(m, best);
    return best;
  };
}

/**
 * How many distinct things (names, dates, figures) the member names beyond the question's words and
 * the group's value. A real report names the people, places and figures of its story; a passage
 * written from the question and the wanted answer has none to name.
 */
function namedBeyond(named: Specifics['named'], valueTerms: ReadonlySet<string>): number {
  const keys = new Set<string>();
  for (const v of named) if (v.terms.some((t) => !valueTerms.has(t))) keys.add(v.key);
  return keys.size;
}

/**
 * Coordinated: ungrounded (below the absolute bound) and either ungrounded for this library (below
 * the relative bound) or naming nothing of its own (fewer than `minNamed` things a member).
 */
function judge(
  g: RawGroup,
  read: {
    readonly groundingOf: (m: Passage) => number;
    readonly typicalGrounding: () => number;
    readonly namedOf: (m: Passage) => Specifics['named'];
  },
  o: CoordinationOptions,
): ValueGroup {
  const grounding = mean(g.members.map(read.groundingOf));
  const valueTerms = new Set(
    g.members.flatMap((m) => m.values.filter((v) => v.key === g.key).flatMap((v) => analyze(v.raw))),
  );
  const named = mean(g.members.map((m) => namedBeyond(read.namedOf(m), valueTerms)));
  const ungrounded = grounding < o.minGrounding;
  const nameless = ungrounded && named < o.minNamed;
  const coordinated = nameless || (ungrounded && grounding < o.relativeGrounding * read.typicalGrounding());
  return {
    kind: g.kind,
    key: g.key,
    text: g.text,
    candidateIds: g.members.map((m) => m.c.id),
    docIds: g.members.map((m) => m.c.docId),
    grounding,
    named,
    coordinated,
    nameless,
  };
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length;
}
