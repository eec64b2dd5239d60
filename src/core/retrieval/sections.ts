/**
 * Sections a question names: "the balance sheet", "Note 12", "Item 7", "the cash flow statement".
 *
 * A long document answers most questions from one of its parts, and people say which part: an
 * analyst asks for a figure "shown in the balance sheet", a lawyer for "clause 4.2", a reader of
 * instructions for "Part II". BM25 alone cannot use that: the part's name is two or three
 * common words among twenty in the question, and the chunks under it hold rows and sentences
 * that rarely repeat it. This stage matches the question against the library's own section
 * names — heading trails, the numbered labels of headings ("Item 8", "Note 12") and table
 * titles — and returns the chunks under each named section, so that retrieval can search inside
 * them (`searchNamedSections`, ../../worker/engine.ts).
 *
 * A section is named when every distinctive term of its name occurs in the question within a
 * window a little longer than the name (terms of the document's own title, such as the company,
 * and words that only qualify a name, such as "consolidated", are not distinctive), and the name
 * keeps at least two distinctive terms — one common word ("Revenue") names nothing. Different
 * names of the same primary financial statement are one name (`./statement-names.ts`): "income
 * statement", "statement of operations" and "P&L" name the same table; and a question about a
 * measure that is computed from a statement ("quick ratio", "free cash flow") names that
 * statement (`./financial-measures.ts`).
 *
 * Pure: the index is built from plain records and an analyzer; nothing here reads the library.
 */
import { canonicalStatementText } from './statement-names';
import { measuresOf } from './financial-measures';
import { PERIOD_HEADING, SECTION_LABEL, SECTION_QUALIFIERS } from '../lexicon/sections';

/** What the index needs of a chunk: its id, its document's title and the names it lies under. */
export interface SectionedChunk {
  readonly id: string;
  readonly docId: string;
  readonly docTitle: string;
  /** The heading trail, outermost first, then any table title lines. */
  readonly names: readonly string[];
}

export interface NamedSection {
  /** The section's name as the document writes it (first occurrence). */
  readonly name: string;
  readonly docId: string;
  /** Its distinctive analyzed terms (statement names canonical). */
  readonly terms: readonly string[];
  /** Chunks under it, in document order. */
  readonly chunkIds: readonly string[];
  /** Σ idf-like specificity of the matched terms: longer, rarer names first. */
  readonly weight: number;
  /** Why it matched: the question names it, or a measure the question asks for lies in it. */
  readonly via: 'name' | 'measure';
}

export interface SectionMatch {
  readonly sections: readonly NamedSection[];
  /** Analyzed terms that the measures the question asks for are computed from (for the search inside). */
  readonly expansion: readonly string[];
  /** The measures recognised in the question ("quick ratio"), for the trace. */
  readonly measures: readonly string[];
}

const MIN_TERMS = 2;
/** The question window may hold this many other terms between a name's terms. */
const WINDOW_SLACK = 2;

interface NameEntry {
  readonly name: string;
  readonly docId: string;
  readonly terms: readonly string[];
  readonly chunkIds: string[];
}

export class SectionIndex {
  private constructor(
    private readonly entries: readonly NameEntry[],
    private readonly analyze: (text: string) => string[],
    private readonly df: (term: string) => number,
    private readonly size: number,
  ) {}

  /**
   * Builds the index. `analyze` must be the lexical index's analyzer; `df` its document
   * frequency (chunks holding a term) and `size` its chunk count, for the names' specificity.
   */
  static build(
    chunks: Iterable<SectionedChunk>,
    analyze: (text: string) => string[],
    df: (term: string) => number,
    size: number,
  ): SectionIndex {
    const qualifiers = new Set(SECTION_QUALIFIERS.flatMap((w) => analyze(w)));
    const titleTerms = new Map<string, Set<string>>();
    const termsOfName = new Map<string, readonly string[]>();
    const byKey = new Map<string, NameEntry>();
    for (const chunk of chunks) {
      let own = titleTerms.get(chunk.docId);
      if (!own) titleTerms.set(chunk.docId, (own = new Set(analyze(chunk.docTitle))));
      const seen = new Set<string>();
      for (const name of namesOf(chunk.names)) {
        const cacheKey = `${chunk.docId}\u0000${name}`;
        let terms = termsOfName.get(cacheKey);
        if (!terms) {
          const t = distinctiveTerms(name, analyze, qualifiers, own);
          terms = t.length >= MIN_TERMS || t.some(isStatementToken) ? t : [];
          termsOfName.set(cacheKey, terms);
        }
        if (terms.length === 0) continue;
        const key = `${chunk.docId}\u0000${[...terms].sort().join(' ')}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const entry = byKey.get(key);
        if (entry) entry.chunkIds.push(chunk.id);
        else byKey.set(key, { name, docId: chunk.docId, terms, chunkIds: [chunk.id] });
      }
    }
    return new SectionIndex([...byKey.values()], analyze, df, size);
  }

  get sectionCount(): number {
    return this.entries.length;
  }

  /** The sections `question` names, most specific first (at most `limit`). */
  match(question: string, limit = 3): SectionMatch {
    const measures = measuresOf(question);
    const canonical = canonicalStatementText(question);
    const qTerms = this.analyze(canonical);
    const measureStatements = new Set(measures.flatMap((m) => m.statements));
    const out: NamedSection[] = [];
    for (const e of this.entries) {
      const byName = withinWindow(qTerms, e.terms);
      const byMeasure = !byName && e.terms.length === 1 && measureStatements.has(e.terms[0] as string);
      if (!byName && !byMeasure) continue;
      out.push({
        name: e.name,
        docId: e.docId,
        terms: e.terms,
        chunkIds: e.chunkIds,
        weight: e.terms.reduce((s, t) => s + this.idf(t), 0) + (byName ? 0 : -0.5),
        via: byName ? 'name' : 'measure',
      });
    }
    out.sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
    const expansion = [...new Set(measures.flatMap((m) => this.analyze(m.lineItems)))];
    return { sections: pruneNested(out).slice(0, limit), expansion, measures: measures.map((m) => m.name) };
  }

  private idf(term: string): number {
    if (isStatementToken(term)) return 4;
    const n = this.size;
    const df = this.df(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
}

/** The names a chunk lies under: each heading, the numbered label of a heading, each title line. */
function namesOf(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.replace(/\([^)]*\)/g, ' ').trim();
    // Period labels ("At December 31", "Three Months Ended") name columns, not sections.
    if (name === '' || PERIOD_HEADING.test(name)) continue;
    out.push(name);
    const label = SECTION_LABEL.exec(name);
    if (label && label[1] && label[1].trim() !== name) out.push(label[1].trim());
  }
  return out;
}

function distinctiveTerms(
  name: string,
  analyze: (text: string) => string[],
  qualifiers: ReadonlySet<string>,
  titleTerms: ReadonlySet<string>,
): string[] {
  const terms = analyze(canonicalStatementText(name)).filter(
    (t) => isStatementToken(t) || (!qualifiers.has(t) && !titleTerms.has(t)),
  );
  return [...new Set(terms)];
}

/** True when all of `terms` occur in `q` inside one window of |terms| + slack consecutive terms. */
export function withinWindow(q: readonly string[], terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const want = new Set(terms);
  const size = want.size + WINDOW_SLACK;
  for (let i = 0; i < q.length; i++) {
    if (!want.has(q[i] as string)) continue;
    const found = new Set<string>();
    for (let j = i; j < Math.min(q.length, i + size); j++) if (want.has(q[j] as string)) found.add(q[j] as string);
    if (found.size === want.size) return true;
  }
  return false;
}

/** A section whose terms are a strict subset of a more specific matched section's, in one document, goes. */
function pruneNested(sections: readonly NamedSection[]): NamedSection[] {
  return sections.filter(
    (s) =>
      !sections.some(
        (o) =>
          o !== s &&
          o.docId === s.docId &&
          o.via === 'name' &&
          o.terms.length > s.terms.length &&
          s.terms.every((t) => o.terms.includes(t)),
      ),
  );
}

export function isStatementToken(term: string): boolean {
  return term.startsWith('zzstatement');
}
