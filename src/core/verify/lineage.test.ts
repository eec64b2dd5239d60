import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildCorpus, candidate, deepFreeze } from '../select/testing';
import { detectLineage } from './lineage';

const claim =
  'The city council approved the new cycling budget on 3 March 2021 after a long debate about the river crossing and the costs.';
const paraphrase =
  'On 3 March 2021 the city council approved the new cycling budget following a long debate on the river crossing and its costs.';

describe('detectLineage', () => {
  const corpus = buildCorpus([
    { id: 'gov', sourceType: 'government', chunks: [claim] },
    { id: 'ai1', sourceType: 'ai_generated', chunks: [claim] },
    { id: 'ai2', sourceType: 'ai_generated', chunks: [claim.replace('2021 after', '2021, after')] },
    { id: 'ai3', sourceType: 'ai_generated', chunks: [paraphrase] },
    { id: 'edit', sourceType: 'blog', chunks: [claim.replace('3 March', '13 March')] },
    { id: 'other', sourceType: 'blog', chunks: ['Parking fees rise next year in the old town and near the station.'] },
  ]);
  const lookup = { chunks: corpus.chunks, documents: corpus.documents };
  const input = deepFreeze(
    ['ai1#0', 'ai2#0', 'gov#0', 'edit#0', 'other#0', 'ai3#0'].map((id, i) => candidate(id, 1 - i / 10)),
  );

  it('counts near-identical passages from different documents as one source weighted by its best member', () => {
    const r = detectLineage(input, { lookup });
    const cl = r.clusters.find((c) => c.candidateIds.includes('gov#0'))!;
    expect(cl.docIds).toEqual(expect.arrayContaining(['gov', 'ai1', 'ai2', 'edit']));
    expect(cl.docIds).not.toContain('other');
    expect(cl.lambda).toBeCloseTo(0.9, 10);
    expect(cl.hasVersions).toBe(true);
    // Replicas of the credible original are dropped; its edited version (13 March) is not a replica.
    expect(r.dropped.map((c) => c.id).sort()).toEqual(['ai1#0', 'ai2#0']);
    expect(r.kept.map((c) => c.id)).toContain('edit#0');
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(/replica of gov#0/);
    // gov + edit share a lineage; the paraphrase and the parking note are independent.
    expect(r.independentSources).toBe(3);
  });

  it('flags a cluster of low-credibility copies as coordinated, and it weighs less than one credible source', () => {
    const only = input.filter((c) => c.docId.startsWith('ai') && c.docId !== 'ai3');
    const r = detectLineage(
      [...only, candidate('x#0', 0.1, 'x')],
      { lookup },
      { coordinatedMin: 2, dropReplicas: false },
    );
    const cl = r.clusters.find((c) => c.candidateIds.includes('ai1#0'))!;
    expect(cl.coordinated).toBe(true);
    expect(cl.lambda).toBeCloseTo(0.3, 10);
    expect(cl.lambda).toBeLessThan(0.9);
    expect(r.dropped).toEqual([]);
  });

  it('links paraphrases through tight vectors when given', () => {
    const v = new Float32Array([1, 0]);
    const r = detectLineage(input, {
      lookup: { ...lookup, vectorOf: (id) => (id === 'ai3#0' || id === 'gov#0' ? v : undefined) },
    });
    expect(r.clusters.find((c) => c.candidateIds.includes('gov#0'))!.docIds).toContain('ai3');
  });

  it('puts every candidate in exactly one cluster and loses none (property)', () => {
    const vocab = ['council', 'budget', 'river', 'Monday', 'Friday', 'costs', 'the', 'approved', 'cycling', '2021'];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 14 }), { minLength: 1, maxLength: 8 }),
        (texts) => {
          const c = buildCorpus(texts.map((t, i) => ({ id: `d${i}`, chunks: [t.join(' ')] })));
          const cands = texts.map((_, i) => candidate(`d${i}#0`, 1 / (i + 1)));
          const r = detectLineage(cands, { lookup: { chunks: c.chunks, documents: c.documents } });
          expect(r.kept.length + r.dropped.length).toBe(cands.length);
          const seen = r.clusters.flatMap((x) => x.candidateIds);
          expect(seen.sort()).toEqual(cands.map((x) => x.id).sort());
          expect(r.independentSources).toBeLessThanOrEqual(r.kept.length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
