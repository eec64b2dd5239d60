/**
 * Verify, check 2 — lineage: coordinated replicas count as one source (TrustRAG).
 *
 * Two passages from different documents share a lineage when one is a copy of the other, possibly
 * edited: their word sequences with key values masked agree on ≥ `nearIdentical` of their tokens
 * (2·LCS / (|a|+|b|), a Ratcliff–Obershelp ratio over words), or, with vectors, their cosine is
 * ≥ `embeddingTight` (an unusually tight pair: paraphrase level for sentence encoders). Documents
 * linked this way, directly or through others, form one lineage cluster.
 *
 * Inside a cluster a member is either a *replica* of another (no key value differs) or a *version*
 * (a figure, date or name differs: that is a conflict, handled by the conflict check).
 *
 * Independent support (the definition the conflict check and the abstention signals use):
 * a cluster is ONE source, whatever its size, and its weight is the λ of its most credible member.
 * So ten near-identical ai_generated pages (λ 0.30) weigh 0.30 — less than one independent
 * government page (0.90) — and never outvote it. A cluster of ≥ `coordinatedMin` documents whose
 * best λ is below `credibleLambda` is flagged as coordinated (a poisoning signature).
 *
 * Replicas are dropped (they add no independent information and cost budget): of each set of
 * replicas the most credible, then best-scored member stays. Versions are never dropped here.
 */
import type { Candidate } from '../types';
import { assertKnownOptions } from '../errors';
import type { EvidenceLookup } from '../util/stage';
import { checkInt, checkRange, withEntry } from '../util/stage';
import type { AnalysedText } from './common';
import { PassageTable, VERIFY_STAGE, lambdaOf } from './common';
import { diffKeys } from './diff';
import { compatibleKeys } from './values';

export interface LineageOptions {
  /** Masked-token LCS ratio at or above which two passages are copies of one text. Evident default (the dedup near-duplicate level). */
  readonly nearIdentical: number;
  /** Passages shorter than this many tokens are never linked by text (short lines match by chance). Evident default. */
  readonly minTokens: number;
  /** Cosine at or above which two passages are linked when both have vectors (paraphrase level; TrustRAG clusters). Evident default. */
  readonly embeddingTight: number;
  /** λ below which a source counts as low-credibility (the default λ of `unknown` is 0.60). */
  readonly credibleLambda: number;
  /** A low-credibility cluster of at least this many documents is flagged as coordinated. Evident default. */
  readonly coordinatedMin: number;
  /** Drop replicas (keep one per set of copies that agree). */
  readonly dropReplicas: boolean;
}

export const DEFAULT_LINEAGE_OPTIONS: LineageOptions = Object.freeze({
  nearIdentical: 0.8,
  minTokens: 6,
  embeddingTight: 0.95,
  credibleLambda: 0.6,
  coordinatedMin: 3,
  dropReplicas: true,
});

export interface LineageCluster {
  /** L1, L2, … in order of their best member. */
  readonly id: string;
  readonly candidateIds: readonly string[];
  readonly docIds: readonly string[];
  /** λ of the most credible member: the weight of the cluster as one source. */
  readonly lambda: number;
  /** True when some members disagree on a key value (edited copies). */
  readonly hasVersions: boolean;
  /** Low-credibility cluster of ≥ `coordinatedMin` documents. */
  readonly coordinated: boolean;
}

export interface LineageLink {
  readonly a: string;
  readonly b: string;
  readonly how: 'text' | 'embedding';
  readonly similarity: number;
  /** 'replica': no key value differs; 'version': a key value differs. */
  readonly relation: 'replica' | 'version';
}

export interface LineageInput {
  readonly lookup: EvidenceLookup;
  /** Further candidates to analyse for lineage (e.g. ones earlier stages dropped); they get no trace entry and are never dropped here. */
  readonly context?: readonly Candidate[];
  /** Texts analysed earlier (by id), to share work between checks. */
  readonly analysed?: ReadonlyMap<string, AnalysedText>;
  /** The verify call's passage table (over the same `lookup`), shared with the conflict check. */
  readonly texts?: PassageTable;
}

export interface LineageResult {
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  /** Clusters over candidates and context, singletons included. */
  readonly clusters: readonly LineageCluster[];
  /** Candidate id → cluster id. */
  readonly clusterOf: ReadonlyMap<string, string>;
  readonly links: readonly LineageLink[];
  /** Number of clusters among the kept candidates: independent sources. */
  readonly independentSources: number;
}

class UnionFind {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let p = this.parent.get(x) ?? x;
    if (p === x) return x;
    p = this.find(p);
    this.parent.set(x, p);
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(rb < ra ? ra : rb, rb < ra ? rb : ra);
  }
}

/** Whether two analysed texts assert a different key value where they differ. */
export function differsOnValue(a: AnalysedText, b: AnalysedText): boolean {
  const keysA = new Map<string, string[]>();
  for (const v of a.values) keysA.set(v.kind, [...(keysA.get(v.kind) ?? []), v.key]);
  for (const v of b.values) {
    const same = keysA.get(v.kind) ?? [];
    if (same.length > 0 && !same.some((k) => compatibleKeys(v.kind, k, v.key))) return true;
  }
  const keysB = new Map<string, string[]>();
  for (const v of b.values) keysB.set(v.kind, [...(keysB.get(v.kind) ?? []), v.key]);
  for (const v of a.values) {
    const same = keysB.get(v.kind) ?? [];
    if (same.length > 0 && !same.some((k) => compatibleKeys(v.kind, k, v.key))) return true;
  }
  return false;
}

/** Groups candidates into lineage clusters and drops replicas. */
export function detectLineage(
  candidates: readonly Candidate[],
  input: LineageInput,
  options: Partial<LineageOptions> = {},
): LineageResult {
  assertKnownOptions(options, DEFAULT_LINEAGE_OPTIONS, 'lineage');
  const o: LineageOptions = { ...DEFAULT_LINEAGE_OPTIONS, ...options };
  checkRange('lineage', 'nearIdentical', o.nearIdentical, 0, 1);
  checkInt('lineage', 'minTokens', o.minTokens, 0, 100_000);
  checkRange('lineage', 'embeddingTight', o.embeddingTight, -1, 1);
  checkRange('lineage', 'credibleLambda', o.credibleLambda, 0, 1);
  checkInt('lineage', 'coordinatedMin', o.coordinatedMin, 2, 100_000);

  const { lookup } = input;
  const ownIds = new Set(candidates.map((c) => c.id));
  const all: Candidate[] = [...candidates];
  const seen = new Set(ownIds);
  for (const c of input.context ?? []) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    all.push(c);
  }
  const texts = input.texts ?? new PassageTable(lookup, input.analysed);

  const uf = new UnionFind();
  const links: LineageLink[] = [];
  texts.preparePairs(all.map((c) => c.id));
  // Per passage, once: its analysis, whether it is long enough to link by text, its masked key count.
  const info = all.map((c) => {
    const a = texts.analysed(c.id);
    return { c, a, long: a.tokens.length >= o.minTokens, size: texts.maskedSize(c.id) };
  });
  const hasVectors = lookup.vectorOf !== undefined;
  for (let i = 0; i < info.length; i++) {
    const { c: ci, a: ai, long: longI, size: sizeI } = info[i] as (typeof info)[number];
    for (let j = i + 1; j < info.length; j++) {
      const { c: cj, a: aj, long: longJ, size: sizeJ } = info[j] as (typeof info)[number];
      if (ci.docId === cj.docId) continue;
      let link: LineageLink | null = null;
      // Jaccard ≤ min/max of the set sizes: below half, it cannot reach 0.5.
      if (
        longI &&
        longJ &&
        2 * Math.min(sizeI, sizeJ) >= Math.max(sizeI, sizeJ) &&
        texts.maskedJaccard(ci.id, cj.id) >= 0.5
      ) {
        const d = diffKeys(ai.masked, aj.masked);
        if (d.ratio >= o.nearIdentical) {
          link = {
            a: ci.id,
            b: cj.id,
            how: 'text',
            similarity: d.ratio,
            relation: differsOnValue(ai, aj) ? 'version' : 'replica',
          };
        }
      }
      if (!link && hasVectors) {
        const cos = texts.cosineReaching(ci.id, cj.id, o.embeddingTight);
        if (cos !== undefined) {
          if (cos >= o.embeddingTight) {
            link = {
              a: ci.id,
              b: cj.id,
              how: 'embedding',
              similarity: cos,
              relation: differsOnValue(ai, aj) ? 'version' : 'replica',
            };
          }
        }
      }
      if (link) {
        links.push(link);
        uf.union(ci.docId, cj.docId);
      }
    }
  }

  // Clusters of documents, ordered by their best member's position in the input.
  const byRoot = new Map<string, Candidate[]>();
  for (const c of all) {
    const r = uf.find(c.docId);
    byRoot.set(r, [...(byRoot.get(r) ?? []), c]);
  }
  const clusters: LineageCluster[] = [];
  const clusterOf = new Map<string, string>();
  const versionIds = new Set(links.filter((l) => l.relation === 'version').flatMap((l) => [l.a, l.b]));
  [...byRoot.values()].forEach((members, k) => {
    const id = `L${k + 1}`;
    const docIds = [...new Set(members.map((m) => m.docId))];
    const lambda = Math.max(...members.map((m) => lambdaOf(m, lookup)));
    for (const m of members) clusterOf.set(m.id, id);
    clusters.push({
      id,
      candidateIds: members.map((m) => m.id),
      docIds,
      lambda,
      hasVersions: members.some((m) => versionIds.has(m.id)),
      coordinated: docIds.length >= o.coordinatedMin && lambda < o.credibleLambda,
    });
  });
  const clusterById = new Map(clusters.map((c) => [c.id, c]));

  // Replicas: in credibility order, a member that replicates an already kept member is dropped.
  const replicaOf = new Map<string, Map<string, LineageLink>>();
  for (const l of links) {
    if (l.relation !== 'replica') continue;
    replicaOf.set(l.a, (replicaOf.get(l.a) ?? new Map()).set(l.b, l));
    replicaOf.set(l.b, (replicaOf.get(l.b) ?? new Map()).set(l.a, l));
  }
  const order = [...candidates].sort(
    (x, y) => lambdaOf(y, lookup) - lambdaOf(x, lookup) || y.score - x.score || (x.id < y.id ? -1 : 1),
  );
  const keptIds = new Set<string>();
  const dropReason = new Map<string, { of: string; link: LineageLink }>();
  for (const c of order) {
    const reps = replicaOf.get(c.id);
    const of = o.dropReplicas && reps ? [...reps.keys()].find((x) => keptIds.has(x)) : undefined;
    if (of !== undefined) dropReason.set(c.id, { of, link: reps!.get(of)! });
    else keptIds.add(c.id);
  }

  const kept: Candidate[] = [];
  const dropped: Candidate[] = [];
  for (const c of candidates) {
    const cl = clusterById.get(clusterOf.get(c.id) as string) as LineageCluster;
    const detail = {
      check: 'lineage',
      cluster: cl.id,
      clusterDocs: cl.docIds.length,
      clusterLambda: cl.lambda,
      coordinated: cl.coordinated,
    };
    const why = dropReason.get(c.id);
    if (why) {
      dropped.push(
        withEntry(c, {
          stage: VERIFY_STAGE,
          score: c.score,
          kept: false,
          reason: `replica of ${why.of} (lineage ${cl.id}, ${why.link.how} similarity ${why.link.similarity.toFixed(2)}): counts as one source with it`,
          detail: { ...detail, replicaOf: why.of },
        }),
      );
      continue;
    }
    const reason =
      cl.docIds.length > 1
        ? `lineage ${cl.id}: ${cl.docIds.length} documents share this text and count as one source (λ ${cl.lambda.toFixed(2)})${cl.coordinated ? '; coordinated low-credibility copies' : ''}`
        : undefined;
    kept.push(withEntry(c, { stage: VERIFY_STAGE, score: c.score, kept: true, ...(reason ? { reason } : {}), detail }));
  }
  const independentSources = new Set(kept.map((c) => clusterOf.get(c.id))).size;
  return { kept, dropped, clusters, clusterOf, links, independentSources };
}
