/**
 * Premise finding without a model (the Embedded profile). From the question and the evidence at
 * hand, the premises that are still open, most decisive first:
 *
 *   5  an identifier the question names that no record defines;
 *   4  an identifier a record names and no record defines ("under rule SR-2", "given by plan
 *      PP-13"), when that record is about the question's entity or is of a binding kind;
 *   3  the kind of record the evidence says is binding ("only the signed title record settles",
 *      read from the sentence's structure: `authority.ts`),
 *      when no record of that kind about the entity is held (+0.5 when its issuer is named,
 *      +0.25 per further record that states it);
 *   2  an identifier referred to by another record; 1.5 a reference to a named target no record's
 *      heading names, from a record about the entity or of a binding kind (0.25 from any other:
 *      a source a passage cites in passing, below the bridges of `bridge.ts` at 0.5); 1 a name
 *      the evidence introduces beside the entity that no record is about.
 *
 * A record *defines* an identifier when its title or first sentence names it (a record names what
 * it is first). The priorities order kinds of evidence, not words of a domain.
 */
import { bindingKindsIn, isOfKind, kindKey, type BindingKind } from './authority';
import {
  defines,
  headOf,
  identifiersIn,
  linksOf,
  namesAll,
  namesIn,
  referencesIn,
  sentencesOf,
  stemsOf,
} from './mentions';
import type { InquiryRecord, Premise, PremiseKind } from './types';

export interface PremiseInput {
  readonly question: string;
  readonly evidence: readonly InquiryRecord[];
  /** Keys of premises already queried: never proposed again. */
  readonly asked?: ReadonlySet<string>;
  /** Only premises of these kinds (all by default): the trigger asks only for those that refer elsewhere. */
  readonly kinds?: ReadonlySet<PremiseKind>;
}

/** The name nearest before (or in) the sentence of `at` in `text`, other than the question's names. */
function nearestName(text: string, sentence: string, exclude: readonly string[]): string | null {
  const sentences = sentencesOf(text);
  const at = sentences.indexOf(sentence);
  for (let i = at < 0 ? sentences.length - 1 : at; i >= 0; i--) {
    const names = namesIn(sentences[i] as string).filter((n) => !exclude.some((e) => e.includes(n) || n.includes(e)));
    if (names.length > 0) return names[names.length - 1] as string;
  }
  return null;
}

/** Words of a reference target up to and including the identifier ("zoning schedule ZN-8"). */
function identifierPhrase(target: string, id: string): string {
  const at = target.indexOf(id);
  const before = at > 0 ? target.slice(0, at).trim().split(/\s+/u).slice(-3) : [];
  return [...before.filter((w) => stemsOf(w).length > 0), id].join(' ');
}

/** True when some held record of `kind` settles it: about the entity, or pointed at by an identifier. */
function kindResolved(kind: BindingKind, evidence: readonly InquiryRecord[], entity: readonly string[]): boolean {
  const referenced = new Set(evidence.flatMap((r) => identifiersIn(r.text).filter((id) => !defines(r, id))));
  return evidence.some(
    (r) => isOfKind(r, kind) && (namesAll(r.text, entity) || identifiersIn(headOf(r)).some((id) => referenced.has(id))),
  );
}

function identifierPremises(input: PremiseInput, entity: readonly string[]): Premise[] {
  const { question, evidence } = input;
  const out: Premise[] = [];
  const definedBySome = (id: string): boolean => evidence.some((r) => defines(r, id));
  for (const id of identifiersIn(question)) {
    if (definedBySome(id)) continue;
    out.push({
      kind: 'identifier',
      key: `id:${id}`,
      text: id,
      why: `The question names ${id}, and no record found so far defines it.`,
      terms: [id],
      entity: null,
      discriminator: `a record whose heading names ${id}`,
      fromIds: [],
      priority: 5,
    });
  }
  const kinds = bindingKindsOfEvidence(evidence);
  for (const r of evidence) {
    const binding = kinds.some((k) => isOfKind(r, k));
    const about = namesAll(r.text, entity) || binding;
    // A record about the entity or of a binding kind links on by every identifier it names (a
    // chain by identifier, whatever its wording); any other record only by what it refers to.
    for (const link of linksOf(r)) {
      if ((!about && link.cue === null) || definedBySome(link.id)) continue;
      const { id } = link;
      const phrase = identifierPhrase(link.target, id);
      const name = nearestName(r.text, link.sentence, entity);
      out.push({
        kind: 'identifier',
        key: `id:${id}`,
        text: phrase,
        why:
          link.cue === null
            ? `${r.title} ${r.id} names ${id} (“${link.sentence}”), and no record found so far defines it.`
            : `${r.title} ${r.id} refers to ${id} (“${link.cue} ${link.target}”), and no record found so far defines it.`,
        terms: stemsOf(phrase).length > 0 ? [phrase] : [id],
        entity: name,
        discriminator: `a record whose heading names ${id}`,
        fromIds: [r.id],
        priority: about ? 4 : 2,
      });
    }
  }
  return out;
}

/** Binding kinds stated anywhere in the evidence, first statement first. */
export function bindingKindsOfEvidence(evidence: readonly InquiryRecord[]): BindingKind[] {
  const seen = new Map<string, BindingKind>();
  for (const r of evidence) {
    for (const k of bindingKindsIn(r.text)) {
      const key = kindKey(k);
      const had = seen.get(key);
      if (!had || (!had.issuer && k.issuer)) seen.set(key, had && !k.issuer ? had : k);
    }
  }
  return [...seen.values()];
}

function bindingPremises(input: PremiseInput, entity: readonly string[]): Premise[] {
  const { evidence } = input;
  return bindingKindsOfEvidence(evidence)
    .filter((k) => !kindResolved(k, evidence, entity))
    .map((k) => {
      const key = kindKey(k);
      const stating = evidence.filter((r) => bindingKindsIn(r.text).some((x) => kindKey(x) === key));
      const kindText = k.issuer ? `${k.kind} of the ${k.issuer}` : k.kind;
      return {
        kind: 'binding' as const,
        key: `kind:${key}`,
        text: kindText,
        why: `The evidence says the ${kindText} is binding (“${k.sentence}”), and no such record${entity.length > 0 ? ` about ${entity.join(', ')}` : ''} is held.`,
        terms: k.issuer ? [k.kind, k.issuer] : [k.kind],
        entity: entity.length > 0 ? entity.join(' ') : null,
        discriminator: `a ${k.kind} whose text names ${entity.length > 0 ? entity.join(', ') : 'the subject'}`,
        fromIds: stating.map((r) => r.id),
        priority: 3 + (k.issuer ? 0.5 : 0) + 0.25 * Math.max(0, stating.length - 1),
      };
    });
}

function referenceAndEntityPremises(input: PremiseInput, entity: readonly string[], names: boolean): Premise[] {
  const { evidence } = input;
  const out: Premise[] = [];
  const heads = evidence.map(headOf);
  const kinds = bindingKindsOfEvidence(evidence);
  for (const r of evidence) {
    const about = namesAll(r.text, entity) || kinds.some((k) => isOfKind(r, k));
    for (const ref of referencesIn(r.text)) {
      if (identifiersIn(ref.target).length > 0) continue;
      const names = namesIn(`x ${ref.target}`);
      if (names.length === 0 || names.every((n) => entity.includes(n) || heads.some((h) => h.includes(n)))) continue;
      out.push({
        kind: 'reference',
        key: `ref:${stemsOf(ref.target).join(' ')}`,
        text: ref.target,
        why: `${r.title} ${r.id} points to ${ref.target} (“${ref.cue} …”), which no record found so far is.`,
        terms: [ref.target],
        entity: entity.length > 0 ? entity.join(' ') : null,
        discriminator: `a record whose heading names ${names.join(', ')}`,
        fromIds: [r.id],
        priority: about ? 1.5 : 0.25,
      });
    }
    if (!names || !namesAll(r.text, entity)) continue;
    for (const name of namesIn(r.text)) {
      if (entity.some((e) => e.includes(name) || name.includes(e)) || heads.some((h) => h.includes(name))) continue;
      out.push({
        kind: 'entity',
        key: `name:${name}`,
        text: name,
        why: `${r.title} ${r.id} introduces ${name} beside the question's subject; no record found so far is about it.`,
        terms: [name],
        entity: entity.length > 0 ? entity.join(' ') : null,
        discriminator: `a record whose heading names ${name}`,
        fromIds: [r.id],
        priority: 1,
      });
    }
  }
  return out;
}

/** Open premises, most decisive first (ties: the order they were found), one per key. */
export function findPremises(input: PremiseInput): Premise[] {
  const entity = namesIn(input.question);
  const want = (kind: PremiseKind): boolean => !input.kinds || input.kinds.has(kind);
  const all = [
    ...(want('identifier') ? identifierPremises(input, entity) : []),
    ...(want('binding') ? bindingPremises(input, entity) : []),
    ...(want('reference') || want('entity') ? referenceAndEntityPremises(input, entity, want('entity')) : []),
  ].filter((p) => want(p.kind));
  const byKey = new Map<string, Premise>();
  for (const p of all) {
    if (input.asked?.has(p.key)) continue;
    const had = byKey.get(p.key);
    if (!had || p.priority > had.priority) byKey.set(p.key, p);
  }
  const order = new Map(all.map((p, i) => [p, i]));
  return [...byKey.values()].sort((a, b) => b.priority - a.priority || (order.get(a) ?? 0) - (order.get(b) ?? 0));
}
