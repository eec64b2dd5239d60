import { describe, expect, it } from 'vitest';
import { NOT_COMPARATIVES } from './comparisons';
import { NAME_CONNECTORS } from './names';

/** Each row: a table, its name, a lower-cased word, and whether the table holds it. */
const ROWS: readonly (readonly [ReadonlySet<string>, string, string, boolean])[] = [
  [NOT_COMPARATIVES, 'NOT_COMPARATIVES', 'whether', true],
  [NOT_COMPARATIVES, 'NOT_COMPARATIVES', 'after', true],
  [NOT_COMPARATIVES, 'NOT_COMPARATIVES', 'higher', false],
  [NOT_COMPARATIVES, 'NOT_COMPARATIVES', 'better', false],
  [NAME_CONNECTORS, 'NAME_CONNECTORS', 'for', true], // Department for Education
  [NAME_CONNECTORS, 'NAME_CONNECTORS', 'von', true],
  [NAME_CONNECTORS, 'NAME_CONNECTORS', '&', false],
  [NAME_CONNECTORS, 'NAME_CONNECTORS', 'in', false],
];

describe('comparatives and name connectors', () => {
  it.each(ROWS)('%#: %s has %j → %s', (table, _name, word, held) => {
    expect(table.has(word)).toBe(held);
  });
});
