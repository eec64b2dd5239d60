import { describe, expect, it } from 'vitest';
import { bindingKindsIn } from '../inquiry/authority';
import { ATTESTATION_WORDS, RESTRICTIONS } from './authority';

/**
 * Each row: a sentence and the kinds of record it says decide, with their issuers, in order.
 * Most rows are worded unlike the evaluation worlds (other verbs, other record kinds, other
 * frames), so a rule fitted to the worlds' templates fails here.
 */
const ROWS: readonly (readonly [string, readonly (readonly [string, string | null])[]])[] = [
  // only …
  ['Only a notarised deed of transfer is binding.', [['notarised deed of transfer', null]]],
  [
    'Only the signed title record of the Wicknor Land Registry settles where it is registered.',
    [['signed title record', 'Wicknor Land Registry']],
  ],
  [
    'Only the certified lab report from the Osgrove Testing Service decides this.',
    [['certified lab report', 'Osgrove Testing Service']],
  ],
  ['Only the signed storage rules govern the vault.', [['signed storage rules', null]]],
  [
    "Only the Hakor Science Council's countersigned award letter counts.",
    [['countersigned award letter', 'Hakor Science Council']],
  ],
  ['In this county, only signed survey plats fix a boundary.', [['signed survey plats', null]]],
  [
    'Only the executed master agreement on file with the Pellam Legal Office governs the terms.',
    [['executed master agreement', 'Pellam Legal Office']],
  ],
  // … alone
  ['The audited ledger of the Corvel Trust alone determines the payout.', [['audited ledger', 'Corvel Trust']]],
  ['The audited ledger of the trust alone determines the payout.', [['audited ledger', null]]],
  ['Within a ward the stamped intake sheet alone assigns a bed.', [['stamped intake sheet', null]]],
  ['Signed minutes alone record a decision.', [['signed minutes', null]]],
  // until / unless …
  ['Until the final audit is published, figures are provisional.', [['final audit', null]]],
  [
    'No berth is confirmed unless the stamped berthing order of the Dorran Port Authority says so.',
    [['stamped berthing order', 'Dorran Port Authority']],
  ],
  ["Until the minister's signed order appears, nothing is final.", [['signed order', null]]],
  ['Nothing is settled until the final audit has been released.', [['final audit', null]]],
  ['Rumours stay rumours until a sworn affidavit is filed with the Kelby Court.', [['sworn affidavit', null]]],
  // clefts and copulas
  ['What matters is the certified register.', [['certified register', null]]],
  [
    'What really counts is the official roster kept by the Anvar Sports Board.',
    [['official roster', 'Anvar Sports Board']],
  ],
  [
    'The only record that carries weight is the ratified charter of the Tesk Guild.',
    [['ratified charter', 'Tesk Guild']],
  ],
  [
    'The binding record is the signed title record kept by the Wicknor Land Registry.',
    [['signed title record', 'Wicknor Land Registry']],
  ],
  ['The authoritative source is a stamped bill of lading.', [['stamped bill of lading', null]]],
  // nothing but …, authority predicates
  [
    'Nothing but the stamped manifest of the Dorran Port Authority counts.',
    [['stamped manifest', 'Dorran Port Authority']],
  ],
  ['The notarised deed of transfer is binding.', [['notarised deed of transfer', null]]],
  [
    'The certified register kept by the Orlan County Clerk prevails over any other account.',
    [['certified register', 'Orlan County Clerk']],
  ],
  ['An audited statement takes precedence over press reports.', [['audited statement', null]]],
  // an attested reference
  ['The plot number is set by the county’s signed zoning schedule.', [['signed zoning schedule', null]]],
  // no restriction: mentions, descriptions, a question, a focus inside a predicate, a name
  ['What an allocation notice shows: the vehicle, the depot and the seal.', []],
  ['What the notice shows is the depot.', []],
  ['Allocation tables decide which department handles a grant.', []],
  [
    'The Ilost van assigned to Brilor Fenkorfen: the binding record of the Torost Transport Office places it at the Roil depot, space 29.',
    [],
  ],
  ['It is only the first step.', []],
  ['Not only the docket but also the letter was lost.', []],
  ['The Hakor Science Council alone decides.', []],
  ['Is only the signed docket binding?', []],
  ['The records office opens at nine.', []],
  // weak frames in ordinary prose: a time, an event, a focus on something that is no attested record
  ['The band toured until the reunion in 2000.', []],
  ['Plague remained a major event until the second quarter of the 19th century.', []],
  ['Spouses were disqualified until the law was amended in 2015.', []],
  ['Only the first generation was imported.', []],
  ['The only song not released is the title track.', []],
  ['Mount & Blade is a stand - alone expansion.', []],
  ['He is known for his roles in Home Alone.', []],
];

describe('authority lexicon: which kind of record a sentence says decides', () => {
  it.each(ROWS)('%s', (sentence, expected) => {
    expect(bindingKindsIn(sentence).map((k) => [k.kind, k.issuer])).toEqual(expected);
  });

  it('every restriction frame reads the kind in its own example', () => {
    for (const frame of RESTRICTIONS) {
      expect(bindingKindsIn(frame.example), frame.name).toHaveLength(1);
    }
  });

  it('one sentence may state two kinds, in the order it states them', () => {
    const kinds = bindingKindsIn(
      'What counts is the countersigned award letter of the Hakor Science Council: it names the institute. The department follows the institute’s countersigned allocation table.',
    );
    expect(kinds.map((k) => [k.kind, k.issuer])).toEqual([
      ['countersigned award letter', 'Hakor Science Council'],
      ['countersigned allocation table', null],
    ]);
  });

  it('a weak frame names a kind only when it is attested; a strong frame needs nothing more', () => {
    expect(bindingKindsIn('Only the register counts.')).toEqual([]);
    expect(bindingKindsIn('Only the sealed register counts.').map((k) => k.kind)).toEqual(['sealed register']);
    expect(bindingKindsIn('What counts is the register.').map((k) => k.kind)).toEqual(['register']);
    expect(bindingKindsIn('Until the audit appears, figures are provisional.')).toEqual([]);
    expect(bindingKindsIn('Until the audit is published, figures are provisional.').map((k) => k.kind)).toEqual([
      'audit',
    ]);
  });

  it('a bare noun phrase (no determiner) is a kind only when attested', () => {
    expect(bindingKindsIn('Only signed records count.').map((k) => k.kind)).toEqual(['signed records']);
    expect(bindingKindsIn('Only two records exist.')).toEqual([]);
    expect(ATTESTATION_WORDS.has('signed')).toBe(true);
  });
});
