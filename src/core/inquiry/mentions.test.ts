import { describe, expect, it } from 'vitest';
import { defines, identifiersIn, linksOf, namesAll, namesIn, referencesIn } from './mentions';

describe('mentions', () => {
  it('reads codes and numbered parts as identifiers, longest form only', () => {
    expect(identifiersIn('See Note 12 in Item 7A; the order PO-88-X and Rule 14a-8 apply, as does Annex B.')).toEqual([
      'Note 12',
      'Item 7A',
      'PO-88-X',
      'Rule 14a-8',
      'Annex B',
    ]);
    expect(identifiersIn('The shop opened in 2019 with 12 staff.')).toEqual([]);
    // A number with a letter suffix is read whole ("Form 1040NR", not "Form 1040N").
    expect(identifiersIn('File Form 1040NR by June 15, with Schedule 8812 and Item 7A.')).toEqual([
      'Form 1040NR',
      'Schedule 8812',
      'Item 7A',
    ]);
  });

  it('reads capitalised names, not openers, codes or value labels', () => {
    expect(namesIn('Where does Odile Varga work? The Marlow Clinic employs her; see Ward 4 and PO-88-X.')).toEqual([
      'Odile Varga',
      'Marlow Clinic',
    ]);
  });

  it('keeps references that name something and drops those that do not', () => {
    const refs = referencesIn(
      'The case is under review. Files stay under 150 KB. Fees are set by the council’s fee schedule. Limits are as defined in Appendix C. It is fine, according to neighbours.',
    );
    expect(refs.map((r) => [r.cue, r.target])).toEqual([
      ['set by', 'the council’s fee schedule'],
      ['as defined in', 'Appendix C'],
    ]);
  });

  it('knows when a record defines an identifier (by its heading)', () => {
    const record = {
      id: 'r',
      docId: 'r',
      title: 'Report',
      text: 'Certified lab report LR-9. Sample 3 passed. See Annex D.',
    };
    expect(defines(record, 'LR-9')).toBe(true);
    expect(defines(record, 'Annex D')).toBe(false);
  });
});

describe('the head of a record that opens with a title line', () => {
  it('reads the title line and the first real sentence', () => {
    const record = {
      id: 'r',
      docId: 'r',
      title: 'agreement',
      text: 'Agreement\n\nExecuted master agreement MA-2231. Parties: Brennic Foods and Halvorsen Mills.',
    };
    expect(defines(record, 'MA-2231')).toBe(true);
    expect(defines(record, 'Parties')).toBe(false);
  });
});

describe('links and whole names', () => {
  it('links a record by every identifier it names and does not define, referenced ones first', () => {
    const record = {
      id: 'r',
      docId: 'r',
      title: 'Record',
      text: 'Permit PX-41. The fee is given by tariff TF-9-B; see Annex C. Permit PX-41 lapses in May.',
    };
    expect(linksOf(record).map((l) => [l.id, l.cue])).toEqual([
      ['Annex C', 'see'],
      ['TF-9-B', null],
    ]);
  });

  it('names a name only as a whole', () => {
    expect(namesAll('Filed by Ann Lee and Bo Chan.', ['Ann Lee', 'Bo Chan'])).toBe(true);
    expect(namesAll('Filed by Ann Leeds.', ['Ann Lee'])).toBe(false);
    expect(namesAll('Filed by Ann Lee.', [])).toBe(false);
  });
});
