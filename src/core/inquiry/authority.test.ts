import { describe, expect, it } from 'vitest';
import { bindingKindsIn, isOfKind } from './authority';
import { runInquiry } from './controller';
import { premisePlanner } from './planners';
import { releaseGuard } from './release';
import { contractSearch } from './testing';
import type { InquiryRecord } from './types';

const rec = (id: string, title: string, text: string): InquiryRecord => ({ id, docId: id, title, text });
const kind = (k: string) => ({ kind: k, issuer: null, sentence: '' });

describe('binding kinds from the structure of a sentence', () => {
  it('reads the kind and its issuer, whatever verb follows', () => {
    const kinds = bindingKindsIn(
      'Only the certified lab report from the Osgrove Testing Service decides this. Until the final audit is published, figures are provisional.',
    );
    expect(kinds.map((k) => [k.kind, k.issuer])).toEqual([
      ['certified lab report', 'Osgrove Testing Service'],
      ['final audit', null],
    ]);
  });
});

describe('isOfKind: a record headed as one of the kind', () => {
  it('is headed as one by its title or first sentence', () => {
    const report = rec('r', 'Report', 'Certified lab report LR-9. Sample 3 passed. See Annex D.');
    expect(isOfKind(report, kind('certified lab report'))).toBe(true);
    expect(isOfKind(report, kind('final audit'))).toBe(false);
    const agreement = rec('a', 'agreement', 'Agreement\n\nExecuted master agreement MA-2231. Parties: Brennic Foods.');
    expect(isOfKind(agreement, kind('executed master agreement'))).toBe(true);
    expect(
      isOfKind(rec('t', 'Signed title record — Wicknor Land Registry', 'Parcel 4.'), kind('signed title record')),
    ).toBe(true);
    expect(
      isOfKind(
        rec('o', 'Record', 'This is the official signed title record for parcel 4.'),
        kind('signed title record'),
      ),
    ).toBe(true);
    expect(isOfKind(rec('d', 'Deed', 'Notarised deed of transfer ND-77.'), kind('notarised deed of transfer'))).toBe(
      true,
    );
  });

  it('a page that only mentions the kind is not one', () => {
    const k = kind('stamped berthing order');
    // the kind after a preposition, the kind as the subject of a verb, the kind after the page's first phrase
    expect(isOfKind(rec('a', 'Digest', 'Summary of the stamped berthing order: berth 12.'), k)).toBe(false);
    expect(isOfKind(rec('b', 'Digest', "The Marenta's stamped berthing order places it at berth 12."), k)).toBe(false);
    expect(isOfKind(rec('c', 'Digest', 'The Marenta: the stamped berthing order puts it at berth 12.'), k)).toBe(false);
    expect(isOfKind(rec('d', 'Digest', 'Dock talk. A stamped berthing order was seen.'), k)).toBe(false);
  });
});

/**
 * A world in a domain and wording of its own (harbour berths), unlike the evaluation worlds and
 * the supply-contract world: the notice restricts with "unless", the guide with "nothing but"
 * and an attested "follows"; the order defers the berth to a register with a verb no cue list
 * knows ("is shown in"); a genuine order for another ship and a page that borrows the order's
 * authority sit in the corpus.
 */
const QUESTION = 'At which port and berth does the Marenta chartered by Oskar Velde lie?';
const HARBOUR: readonly InquiryRecord[] = [
  rec(
    'notice',
    'Notice',
    'Harbour notice. The Marenta chartered by Oskar Velde is being moved. No berth is confirmed unless the stamped berthing order of the Dorran Port Authority says so.',
  ),
  rec(
    'guide',
    'Guide',
    "Finding a ship. Nothing but a stamped berthing order of the Dorran Port Authority places a ship at a port; the berth follows that port's stamped quay register.",
  ),
  rec('chat-1', 'Chat', 'Dockside chatter: the Marenta chartered by Oskar Velde lies at Quayford, berth 12.'),
  rec(
    'chat-2',
    'Chat',
    'Dockside chatter: the Marenta chartered by Oskar Velde lies at Quayford, berth 12, sailors say.',
  ),
  rec(
    'borrowed',
    'Port digest',
    'The Marenta chartered by Oskar Velde: the stamped berthing order of the Dorran Port Authority puts it at Quayford, berth 12.',
  ),
  rec(
    'order',
    'Order',
    'Stamped berthing order BO-4471-K. Ship: the Marenta chartered by Oskar Velde. Port: Selmouth. The berth is shown in quay register QR-208-D of that port. Stamped for the Dorran Port Authority: Ines Corra.',
  ),
  rec(
    'register',
    'Register',
    'Stamped quay register QR-208-D of Selmouth. Ships entered under register QR-208-D lie at berth 7. Stamped by the harbour master of Selmouth: Tove Brann.',
  ),
  rec(
    'decoy',
    'Order',
    'Stamped berthing order BO-1180-A. Ship: the Kestrel chartered by Ada Pruitt. Port: Quayford. Berth: berth 12. Stamped for the Dorran Port Authority: Ines Corra.',
  ),
  rec('noise-1', 'Page', 'The Dorran Port Authority stamps berthing orders every morning.'),
  rec('noise-2', 'Page', 'Quay registers change when a port dredges a new basin.'),
];
const byId = (...ids: string[]) => ids.map((id) => HARBOUR.find((r) => r.id === id) as InquiryRecord);

describe('a held-out wording: the decisive record is found and the decoys are not accepted', () => {
  it('reads the kinds the notice and the guide restrict to', () => {
    expect(bindingKindsIn(byId('notice')[0]!.text).map((k) => [k.kind, k.issuer])).toEqual([
      ['stamped berthing order', 'Dorran Port Authority'],
    ]);
  });

  it('the loop fetches the order, follows its identifier to the register, and releases both parts', async () => {
    const run = await runInquiry({
      question: QUESTION,
      evidence: byId('notice', 'guide', 'chat-1', 'chat-2'),
      search: contractSearch(HARBOUR),
      planner: premisePlanner,
    });
    expect(run.release.released).toBe(true);
    expect(run.release.chain).toEqual(['order', 'register']);
    expect(run.release.answer).toMatch(/Selmouth/u);
    expect(run.release.answer).toMatch(/berth 7/u);
    expect(run.release.answer).not.toMatch(/Quayford|berth 12/u);
  });

  it('a genuine order for another ship is never the answer record', () => {
    const d = releaseGuard({ question: QUESTION, evidence: byId('notice', 'guide', 'chat-1', 'decoy') });
    expect(d.released).toBe(false);
    expect(d.unresolved).toBe('stamped berthing order of the Dorran Port Authority');
  });

  it('a page that borrows the order’s authority is not the order', () => {
    const d = releaseGuard({ question: QUESTION, evidence: byId('notice', 'guide', 'chat-1', 'chat-2', 'borrowed') });
    expect(d.released).toBe(false);
  });

  it('the order without the register it defers to releases nothing: the chain follows any identifier', () => {
    const d = releaseGuard({ question: QUESTION, evidence: byId('notice', 'guide', 'order', 'decoy') });
    expect(d).toMatchObject({ released: false, unresolved: 'QR-208-D', chain: ['order'] });
  });
});
