import { describe, expect, it } from 'vitest';
import { BRIDGE_PRIORITY, bridgePremises } from './bridge';
import { stemsOf } from './mentions';
import type { InquiryRecord } from './types';

const rec = (id: string, title: string, text: string): InquiryRecord => ({ id, docId: id, title, text });

// A compositional question in a domain of its own: the ferry's record names the yard that built
// it; the yard's record (not held) says where it stands.
const QUESTION = 'In which harbour town stands the yard that built the ferry Morrow Swan?';
const FERRY = rec(
  'ferry',
  'Morrow Swan (ferry)',
  'Morrow Swan is a passenger ferry on the northern route. She was built in 1974 by Kestrel Dockworks for Orla Lines.',
);
const NOISE = rec('noise', 'Ferry routes', 'Ferry routes along the coast were charted by Tamsin Greaves in 1911.');

describe('bridgePremises', () => {
  it('names what the question’s record introduces, queried with the question’s words that record does not cover', () => {
    const [first] = bridgePremises({ question: QUESTION, evidence: [FERRY, NOISE] });
    expect(first).toMatchObject({ kind: 'bridge', text: 'Kestrel Dockworks', priority: BRIDGE_PRIORITY });
    const terms = first?.terms ?? [];
    expect(terms[0]).toBe('Kestrel Dockworks');
    // The residual: question words the ferry's record does not match ("harbour", "town", "stands", "yard").
    const residual = new Set(terms.slice(1).flatMap((t) => stemsOf(t)));
    for (const w of ['harbour', 'town', 'yard']) expect(residual.has(stemsOf(w)[0] as string)).toBe(true);
    // … and none the record already matches.
    for (const w of ['ferry', 'built', 'Morrow', 'Swan']) expect(residual.has(stemsOf(w)[0] as string)).toBe(false);
  });

  it('ranks a name from the record about the question’s subject above names from other records', () => {
    const ranked = bridgePremises({ question: QUESTION, evidence: [NOISE, FERRY] }).map((p) => p.text);
    expect(ranked.indexOf('Kestrel Dockworks')).toBeLessThan(ranked.indexOf('Tamsin Greaves'));
  });

  it('never proposes the question’s own names, names a held record is about, or what was asked', () => {
    const yard = rec('yard', 'Kestrel Dockworks', 'Kestrel Dockworks is a shipyard on the Vell estuary.');
    const names = (asked?: Set<string>): string[] =>
      bridgePremises({ question: QUESTION, evidence: [FERRY, yard], ...(asked ? { asked } : {}) }).map((p) => p.text);
    expect(names()).not.toContain('Morrow Swan');
    expect(names()).not.toContain('Kestrel Dockworks');
    const open = names();
    expect(open.length).toBeGreaterThan(0);
    const asked = new Set([`bridge:${stemsOf(open[0] as string).join(' ')}`]);
    expect(names(asked)).not.toContain(open[0]);
  });

  it('nothing to bridge from: an empty question or no evidence', () => {
    expect(bridgePremises({ question: 'What?', evidence: [FERRY] })).toEqual([]);
    expect(bridgePremises({ question: QUESTION, evidence: [] })).toEqual([]);
  });
});
