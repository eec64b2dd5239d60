import { describe, expect, it } from 'vitest';
import { buildQuery } from './query';
import type { Premise } from './types';

const premise = (terms: string[], entity: string | null): Premise => ({
  kind: 'identifier',
  key: 'k',
  text: terms.join(' '),
  why: '',
  terms,
  entity,
  discriminator: '',
  fromIds: [],
  priority: 1,
});

describe('buildQuery', () => {
  it('is the premise terms plus the entity, each once', () => {
    expect(buildQuery(premise(['fee schedule FS-3', 'FS-3'], 'Tarn Council'), 'How much is the parking fee?')).toBe(
      'fee schedule FS-3 Tarn Council',
    );
  });

  it('is null when the premise adds nothing to the question', () => {
    expect(
      buildQuery(premise(['parking fee'], 'Tarn Council'), 'How much is the parking fee in Tarn Council?'),
    ).toBeNull();
  });
});
