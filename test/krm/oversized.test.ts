/**
 * The count behind refusing objects too large to store (src/krm/oversized.ts) must be a lower
 * bound: an object is refused for more than N values only if its JSON has at least 2N bytes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import YAML from 'yaml';
import { valueCount } from '../../src/krm/oversized.js';

const SEED = 2790;

/** Every value and key of a JSON value. */
function jsonValues(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + jsonValues(x), 0);
  if (v !== null && typeof v === 'object') return 1 + Object.entries(v).reduce((n, [, x]) => n + 1 + jsonValues(x), 0);
  return 1;
}

describe('valueCount (seed 2790)', () => {
  it('never counts more values than the JSON holds, in block, flow and JSON style', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.constantFrom('block', 'flow', 'json'),
        fc.constantFrom<YAML.Scalar.Type>('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL'),
        (value, style, scalar) => {
          const text =
            style === 'json'
              ? JSON.stringify(value, null, 1)
              : YAML.stringify(value, {
                  collectionStyle: style === 'flow' ? 'flow' : 'block',
                  defaultStringType: scalar,
                });
          const count = valueCount(text, Number.MAX_SAFE_INTEGER);
          expect(count).toBeLessThanOrEqual(jsonValues(value));
          // Each counted value costs at least two bytes of JSON but the last of a collection.
          expect(JSON.stringify(value).length).toBeGreaterThanOrEqual(count);
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('counts each element of a long array once, in flow and block style', () => {
    const values = Array.from({ length: 1000 }, (_, i) => i);
    expect(valueCount(JSON.stringify({ a: values }), Infinity)).toBe(1 + 1 + 1 + 1000); // {, "a", [ and the elements
    expect(valueCount(YAML.stringify({ a: values }), Infinity)).toBe(1 + 1000); // block collections are not counted
    expect(valueCount(YAML.stringify({ a: values }), 10)).toBe(11);
  });
});
