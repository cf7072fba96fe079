/**
 * Field differences (core/diff.ts): lists of named items are compared by name, as Kubernetes
 * merges `listType: map` lists, so one inserted item is one change, not a change at every later
 * index; other lists by index.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../src/core/diff.js';
import type { Json } from '../../src/core/model.js';

const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 12 });
const item = (name: string, image = `img-${name}`): Json => ({ name, image });

describe('diffJson over lists of named items (fast-check seed 2804)', () => {
  it('an item inserted anywhere is one change at list[name=…]', () => {
    fc.assert(
      fc.property(names, fc.nat(), (list, at) => {
        const fresh = `new-${list.join('').length}`;
        const before = list.map((n) => item(n));
        const after = [
          ...before.slice(0, at % (list.length + 1)),
          item(fresh),
          ...before.slice(at % (list.length + 1)),
        ];
        expect(diffJson({ spec: { containers: before } }, { spec: { containers: after } })).toEqual([
          { path: `spec.containers[name=${fresh}]`, after: item(fresh) },
        ]);
        expect(diffJson({ spec: { containers: after } }, { spec: { containers: before } })).toEqual([
          { path: `spec.containers[name=${fresh}]`, before: item(fresh) },
        ]);
      }),
      { seed: 2804, numRuns: 200 },
    );
  });

  it('a field of one item is one change under its name; a new order is one (order) change', () => {
    fc.assert(
      fc.property(names, fc.nat(), (list, pick) => {
        const target = list[pick % list.length] ?? '';
        const before = list.map((n) => item(n));
        const edited = list.map((n) => item(n, n === target ? 'changed' : undefined));
        expect(diffJson(before, edited, 'l')).toEqual([
          { path: `l[name=${target}].image`, before: `img-${target}`, after: 'changed' },
        ]);
        const reversed = [...before].reverse();
        const expected = list.length > 1 ? [{ path: 'l (order)', before: list, after: [...list].reverse() }] : [];
        expect(diffJson(before, reversed, 'l')).toEqual(expected);
      }),
      { seed: 2805, numRuns: 200 },
    );
  });

  it('compares lists by index when an item has no name or names repeat', () => {
    expect(diffJson([{ name: 'a' }, { path: 'b' }], [{ path: 'b' }], 'l')).toEqual([
      { path: 'l[0].name', before: 'a' },
      { path: 'l[0].path', after: 'b' },
      { path: 'l[1]', before: { path: 'b' } },
    ]);
    expect(
      diffJson(
        [
          { name: 'a', v: 1 },
          { name: 'a', v: 2 },
        ],
        [{ name: 'a', v: 2 }],
        'l',
      ),
    ).toEqual([
      { path: 'l[0].v', before: 1, after: 2 },
      { path: 'l[1]', before: { name: 'a', v: 2 } },
    ]);
    expect(diffJson(['x', 'y'], ['y'], 'l')).toEqual([
      { path: 'l[0]', before: 'x', after: 'y' },
      { path: 'l[1]', before: 'y' },
    ]);
  });
});
