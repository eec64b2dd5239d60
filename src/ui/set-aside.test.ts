import { describe, expect, it } from 'vitest';
import { setAsideClaims } from './set-aside';
import type { AskResult } from '../worker/ask-api';

type Cand = AskResult['candidates'][number];
type Entry = Cand['trace'][number];

const coordination = (reason: string): Entry => ({
  stage: 'verify',
  kept: false,
  reason,
  detail: { check: 'coordination' },
});

const cand = (docId: string, title: string, trace: Entry[], kept = false): Cand =>
  ({ id: `${docId}#0`, docId, title, kept, trace }) as unknown as Cand;

describe('setAsideClaims', () => {
  it('one entry per coordinated claim, its documents once each with their titles; other drops ignored', () => {
    const a = 'coordinated claim: 3 documents state "Tomas Verhoeven" and share nothing else (grounding 0.07)';
    const b = 'coordinated claim: 3 documents state "2:31:00" and share nothing else';
    const claims = setAsideClaims({
      candidates: [
        cand('d1', 'Race notes', [{ stage: 'retrieve', kept: true }, coordination(a)]),
        cand('d2', 'Fan blog', [coordination(a)]),
        cand('d1', 'Race notes', [coordination(a)]),
        cand('d4', 'Copy', [
          { stage: 'verify', kept: false, reason: 'an edited copy of d5', detail: { check: 'lineage' } },
        ]),
        cand(
          'd5',
          'Kept',
          [{ stage: 'verify', kept: true, reason: 'coordinated claim: kept', detail: { check: 'coordination' } }],
          true,
        ),
        cand('d3', 'd3', [coordination(b)]),
      ],
    });
    expect(claims).toEqual([
      {
        reason: '3 documents state "Tomas Verhoeven" and share nothing else',
        documents: [
          { docId: 'd1', title: 'Race notes' },
          { docId: 'd2', title: 'Fan blog' },
        ],
      },
      { reason: '3 documents state "2:31:00" and share nothing else', documents: [{ docId: 'd3', title: 'd3' }] },
    ]);
  });

  it('nothing set aside: no entry', () => {
    expect(
      setAsideClaims({ candidates: [cand('d1', 'A', [{ stage: 'mmr', kept: false, reason: 'similar' }])] }),
    ).toEqual([]);
  });
});
