import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/core/model.js';
import {
  applyJsonPatch,
  decodeJsonPatch,
  decodePointerSegment,
  type JsonPatchEffect,
  type JsonPatchOp,
} from '../../src/patches/jsonpatch.js';

const doc = (): Json => ({
  apiVersion: 'v1',
  kind: 'T',
  spec: { a: 1, list: ['x', 'y'], obj: { k: 'v' }, nul: null, str: 's' },
});

function ok(d: Json, ops: JsonPatchOp[]): Json {
  const r = applyJsonPatch(d, ops);
  if (!r.ok) throw new Error(r.error);
  return r.doc;
}
function err(d: Json, ops: JsonPatchOp[]): string {
  const r = applyJsonPatch(d, ops);
  if (r.ok) throw new Error('expected failure');
  return r.error;
}

describe('add', () => {
  it('adds a new key and replaces an existing one', () => {
    const out = ok(doc(), [
      { op: 'add', path: '/spec/b', value: 2 },
      { op: 'add', path: '/spec/obj', value: { n: 1 } },
    ]) as any;
    expect(out.spec.b).toBe(2);
    expect(out.spec.obj).toEqual({ n: 1 });
  });
  it('appends with - and inserts with N (before N), len appends', () => {
    const out = ok(doc(), [
      { op: 'add', path: '/spec/list/-', value: 'z' },
      { op: 'add', path: '/spec/list/0', value: 'first' },
      { op: 'add', path: '/spec/list/4', value: 'last' },
    ]) as any;
    expect(out.spec.list).toEqual(['first', 'x', 'y', 'z', 'last']);
  });
  it('accepts negative indexes like evanphx (-1 appends)', () => {
    expect((ok(doc(), [{ op: 'add', path: '/spec/list/-1', value: 'e' }]) as any).spec.list).toEqual(['x', 'y', 'e']);
    expect((ok(doc(), [{ op: 'add', path: '/spec/list/-3', value: 's' }]) as any).spec.list).toEqual(['s', 'x', 'y']);
  });
  it('requires the parent', () => {
    expect(err(doc(), [{ op: 'add', path: '/spec/template/spec/x', value: 1 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec/template/spec/x": missing value',
    );
  });
  it('cannot go through scalars or null', () => {
    expect(err(doc(), [{ op: 'add', path: '/spec/str/x', value: 1 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec/str/x": missing value',
    );
    expect(err(doc(), [{ op: 'add', path: '/spec/nul/x', value: 1 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec/nul/x": missing value',
    );
  });
  it('reports bad array indexes with evanphx texts', () => {
    expect(err(doc(), [{ op: 'add', path: '/spec/list/5', value: 1 }])).toBe(
      "error in add for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
    );
    expect(err(doc(), [{ op: 'add', path: '/spec/list/-4', value: 1 }])).toBe(
      "error in add for path: '/spec/list/-4': Unable to access invalid index: -4: invalid index referenced",
    );
    expect(err(doc(), [{ op: 'add', path: '/spec/list/x', value: 1 }])).toBe(
      `error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    );
    expect(err(doc(), [{ op: 'add', path: '/spec/list/99999999999999999999', value: 1 }])).toBe(
      `error in add for path: '/spec/list/99999999999999999999': value was not a proper array index: '99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
    );
  });
  it('treats a path without "/" as missing and ignores text before the first "/"', () => {
    expect(err(doc(), [{ op: 'add', path: 'spec', value: 1 }])).toBe(
      'add operation does not apply: doc is missing path: "spec": missing value',
    );
    expect((ok(doc(), [{ op: 'add', path: 'ignored/spec/b', value: 1 }]) as any).spec.b).toBe(1);
  });
  it('walks arrays in the middle of a path, with Go Atoi rules', () => {
    const d = { spec: { l: [{ a: 1 }, { a: 2 }] } };
    expect(ok(d, [{ op: 'add', path: '/spec/l/1/b', value: 3 }])).toEqual({ spec: { l: [{ a: 1 }, { a: 2, b: 3 }] } });
    expect(ok(d, [{ op: 'add', path: '/spec/l/+0/b', value: 3 }])).toEqual({ spec: { l: [{ a: 1, b: 3 }, { a: 2 }] } });
    expect(ok(d, [{ op: 'add', path: '/spec/l/-1/b', value: 3 }])).toEqual({ spec: { l: [{ a: 1 }, { a: 2, b: 3 }] } });
    expect(err(d, [{ op: 'add', path: '/spec/l/2/b', value: 3 }])).toContain('doc is missing path');
    expect(err(d, [{ op: 'add', path: '/spec/l//b', value: 3 }])).toContain('doc is missing path');
  });
});

describe('replace', () => {
  it('replaces existing keys and elements', () => {
    const out = ok(doc(), [
      { op: 'replace', path: '/spec/a', value: 5 },
      { op: 'replace', path: '/spec/list/1', value: 'Y' },
      { op: 'replace', path: '/spec/nul', value: 'set' },
    ]) as any;
    expect(out.spec.a).toBe(5);
    expect(out.spec.list).toEqual(['x', 'Y']);
    expect(out.spec.nul).toBe('set');
  });
  it('requires the target', () => {
    expect(err(doc(), [{ op: 'replace', path: '/spec/missing', value: 1 }])).toBe(
      'replace operation does not apply: doc is missing key: /spec/missing: missing value',
    );
    expect(err(doc(), [{ op: 'replace', path: '/spec/nope/x', value: 1 }])).toBe(
      'replace operation does not apply: doc is missing path: /spec/nope/x: missing value',
    );
    expect(err(doc(), [{ op: 'replace', path: '/spec/list/2', value: 1 }])).toBe(
      'replace operation does not apply: doc is missing key: /spec/list/2: missing value',
    );
    expect(err(doc(), [{ op: 'replace', path: '/spec/list/x', value: 1 }])).toBe(
      'replace operation does not apply: doc is missing key: /spec/list/x: missing value',
    );
  });
  it('keeps the evanphx empty-final-key quirks', () => {
    expect((ok(doc(), [{ op: 'replace', path: '/spec/', value: 1 }]) as any).spec['']).toBe(1);
    expect(err(doc(), [{ op: 'replace', path: '/spec/list/', value: 1 }])).toBe(
      `error in remove for path: '/spec/list/': strconv.Atoi: parsing "": invalid syntax`,
    );
  });
});

describe('remove', () => {
  it('removes keys and elements (negative indexes count from the end)', () => {
    const out = ok(doc(), [
      { op: 'remove', path: '/spec/a' },
      { op: 'remove', path: '/spec/list/-1' },
    ]) as any;
    expect('a' in out.spec).toBe(false);
    expect(out.spec.list).toEqual(['x']);
  });
  it('requires the target', () => {
    expect(err(doc(), [{ op: 'remove', path: '/spec/nope/x' }])).toBe(
      'remove operation does not apply: doc is missing path: "/spec/nope/x": missing value',
    );
    expect(err(doc(), [{ op: 'remove', path: '/spec/missing' }])).toBe(
      "error in remove for path: '/spec/missing': unable to remove nonexistent key: missing: missing value",
    );
    expect(err(doc(), [{ op: 'remove', path: '/spec/list/2' }])).toBe(
      "error in remove for path: '/spec/list/2': Unable to access invalid index: 2: invalid index referenced",
    );
    expect(err(doc(), [{ op: 'remove', path: '/spec/list/-3' }])).toBe(
      "error in remove for path: '/spec/list/-3': Unable to access invalid index: -3: invalid index referenced",
    );
    expect(err(doc(), [{ op: 'remove', path: '/spec/list/a' }])).toBe(
      `error in remove for path: '/spec/list/a': strconv.Atoi: parsing "a": invalid syntax`,
    );
  });
});

describe('pointer escapes', () => {
  it('decodes ~1 and ~0 left to right', () => {
    expect(decodePointerSegment('a~1b')).toBe('a/b');
    expect(decodePointerSegment('a~0b')).toBe('a~b');
    expect(decodePointerSegment('~01')).toBe('~1');
    expect(decodePointerSegment('~2')).toBe('~2');
  });
  it('addresses label keys with slashes', () => {
    const d = { spec: { template: { metadata: { labels: {} } } } };
    const out = ok(d, [{ op: 'add', path: '/spec/template/metadata/labels/example.com~1role', value: 'x' }]) as any;
    expect(out.spec.template.metadata.labels).toEqual({ 'example.com/role': 'x' });
  });
});

describe('unsupported operations', () => {
  it('mirrors DecodePatch texts', () => {
    expect(err(doc(), [{ op: 'move', path: '/spec/a' }])).toBe(
      `invalid operation {"op":"move","path":"/spec/a"}: failed to decode 'from': operation, missing from field: missing value`,
    );
    expect(err(doc(), [{ op: 'frob', path: '/spec/a' }])).toBe(
      `invalid operation {"op":"frob","path":"/spec/a"}: unsupported operation`,
    );
  });
});

// External patches may use every RFC 6902 op; expected texts are evanphx/json-patch v5.9.11
// patch.go (Patch.move, Patch.copy, Patch.test), the version CAPI's go.mod pins.
describe('move, copy and test (external patches)', () => {
  it('moves and copies values', () => {
    const out = ok(doc(), [
      { op: 'move', from: '/spec/a', path: '/spec/b' },
      { op: 'copy', from: '/spec/obj', path: '/spec/obj2' },
    ]) as any;
    expect(out.spec.a).toBeUndefined();
    expect(out.spec.b).toBe(1);
    expect(out.spec.obj2).toEqual({ k: 'v' });
  });
  it('tests values; a JSON null equals a missing key', () => {
    expect(ok(doc(), [{ op: 'test', path: '/spec/obj', value: { k: 'v' } }])).toEqual(doc());
    expect(ok(doc(), [{ op: 'test', path: '/spec/nope', value: null }])).toEqual(doc());
    expect(err(doc(), [{ op: 'test', path: '/spec/a', value: 2 }])).toBe('testing value /spec/a failed: test failed');
    expect(err(doc(), [{ op: 'test', path: '/nope/x', value: 2 }])).toBe(
      'test operation does not apply: is missing path: /nope/x: missing value',
    );
  });
  it('reports evanphx texts for missing sources and destinations', () => {
    expect(err(doc(), [{ op: 'move', from: '', path: '/spec/b' }])).toBe(
      'unable to move entire document to another path: invalid state detected',
    );
    expect(err(doc(), [{ op: 'move', from: '/nope/a', path: '/spec/b' }])).toBe(
      'move operation does not apply: doc is missing from path: /nope/a: missing value',
    );
    expect(err(doc(), [{ op: 'move', from: '/spec/zz', path: '/spec/b' }])).toBe(
      "error in move for path: 'zz': unable to get nonexistent key: zz: missing value",
    );
    expect(err(doc(), [{ op: 'move', from: '/spec/a', path: '/nope/b' }])).toBe(
      'move operation does not apply: doc is missing destination path: /nope/b: missing value',
    );
    expect(err(doc(), [{ op: 'copy', from: '/nope/a', path: '/spec/b' }])).toBe(
      'copy operation does not apply: doc is missing from path: "/nope/a": missing value',
    );
    expect(err(doc(), [{ op: 'copy', from: '/spec/list/5', path: '/spec/b' }])).toBe(
      "error in copy for from: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
    );
  });
});

describe('atomicity and copy-on-write', () => {
  it('reports the failing op index and leaves the input untouched', () => {
    const d = doc();
    const before = structuredClone(d);
    const r = applyJsonPatch(d, [
      { op: 'add', path: '/spec/b', value: 1 },
      { op: 'remove', path: '/spec/zzz' },
    ]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.opIndex).toBe(1);
    expect(d).toEqual(before);
  });
  it('shares untouched subtrees and never mutates the input', () => {
    const d = doc() as any;
    const out = ok(d, [{ op: 'add', path: '/spec/obj/n', value: 1 }]) as any;
    expect(out).not.toBe(d);
    expect(out.spec.list).toBe(d.spec.list);
    expect(d.spec.obj).toEqual({ k: 'v' });
  });
  it('sees the results of earlier ops in the same patch', () => {
    const out = ok({ spec: {} }, [
      { op: 'add', path: '/spec/l', value: [] },
      { op: 'add', path: '/spec/l/-', value: 1 },
      { op: 'add', path: '/spec/l/-', value: 2 },
      { op: 'add', path: '/spec/l/0', value: 0 },
    ]);
    expect(out).toEqual({ spec: { l: [0, 1, 2] } });
  });
});

describe('prototype pollution', () => {
  for (const seg of ['__proto__', 'constructor', 'prototype']) {
    it(`rejects the segment ${seg} anywhere in the path`, () => {
      for (const op of ['add', 'replace', 'remove']) {
        expect(err(doc(), [{ op, path: `/spec/${seg}/polluted`, value: 1 }])).toContain(`"${seg}" is not allowed`);
        expect(err(doc(), [{ op, path: `/spec/${seg}`, value: { polluted: 1 } }])).toContain(`"${seg}" is not allowed`);
      }
      // "~0" decodes to "~", so this is a different (harmless) own key.
      expect(Object.keys((ok(doc(), [{ op: 'add', path: '/spec/__proto~0__', value: 1 }]) as any).spec)).toContain(
        '__proto~__',
      );
    });
  }
  it('never changes Object.prototype for arbitrary patches (property)', () => {
    const seg = fc.constantFrom('spec', 'a', 'list', '0', '-', '__proto__', 'constructor', 'prototype', '', '~1', 'x');
    const opArb = fc.record({
      op: fc.constantFrom('add', 'replace', 'remove'),
      path: fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => '/' + s.join('/')),
      value: fc.jsonValue() as fc.Arbitrary<Json>,
    });
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 6 }), (ops) => {
        const d = doc();
        const snapshot = JSON.stringify(d);
        applyJsonPatch(d, ops);
        expect(JSON.stringify(d)).toBe(snapshot);
        expect(({} as any).polluted).toBeUndefined();
        expect(Object.keys(Object.prototype)).toEqual([]);
      }),
      { numRuns: 300, seed: 18 },
    );
  });
});

/**
 * Boundaries and quirks of evanphx/json-patch v5.9.11 (`Patch.Apply`, default options:
 * SupportNegativeIndices), from its v5/patch.go and the cases of v5/patch_test.go.
 */
describe('evanphx edge cases', () => {
  const list3 = (): Json => ({ foo: ['bar', 'qux', 'baz'] });

  it('add without a value, or with null, writes null (Operation.value: a nil node marshals as null)', () => {
    const without = ok(doc(), [{ op: 'add', path: '/spec/b' }]) as any;
    expect(Object.hasOwn(without.spec, 'b')).toBe(true);
    expect(without.spec.b).toBeNull();
    expect((ok(doc(), [{ op: 'add', path: '/spec/b', value: null }]) as any).spec.b).toBeNull();
    expect((ok(doc(), [{ op: 'replace', path: '/spec/a' }]) as any).spec.a).toBeNull();
    expect((ok(doc(), [{ op: 'add', path: '/spec/list/0' }]) as any).spec.list).toEqual([null, 'x', 'y']);
  });

  it('array add: index len appends, len+1 is invalid (partialArray.add: idx >= len(nodes)+1)', () => {
    // patch_test.go: {"foo": ["bar"]} add /foo/2 fails.
    expect(ok({ foo: ['bar'] }, [{ op: 'add', path: '/foo/1', value: 'bum' }])).toEqual({ foo: ['bar', 'bum'] });
    expect(err({ foo: ['bar'] }, [{ op: 'add', path: '/foo/2', value: 'bum' }])).toBe(
      "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced",
    );
    // -(len+1) inserts at the front; patch_test.go: {"foo": []} add /foo/-1 gives ["qux"].
    expect(ok({ foo: [] }, [{ op: 'add', path: '/foo/-1', value: 'qux' }])).toEqual({ foo: ['qux'] });
    expect(ok({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-2', value: 'bum' }])).toEqual({ foo: ['bum', 'bar'] });
  });

  it('array remove: non-negative indexes from the front, -len is the first element, -(len+1) is invalid', () => {
    expect(ok(list3(), [{ op: 'remove', path: '/foo/0' }])).toEqual({ foo: ['qux', 'baz'] });
    expect(ok(list3(), [{ op: 'remove', path: '/foo/2' }])).toEqual({ foo: ['bar', 'qux'] });
    // patch_test.go: remove /foo/-2 from ["bar","qux","baz"] gives ["bar","baz"].
    expect(ok(list3(), [{ op: 'remove', path: '/foo/-2' }])).toEqual({ foo: ['bar', 'baz'] });
    expect(ok(list3(), [{ op: 'remove', path: '/foo/-3' }])).toEqual({ foo: ['qux', 'baz'] });
    // patch_test.go: {"foo": ["bar"]} remove /foo/-2 fails; {"foo": []} remove /foo/- fails.
    expect(err({ foo: ['bar'] }, [{ op: 'remove', path: '/foo/-2' }])).toBe(
      "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index referenced",
    );
    expect(err({ foo: [] }, [{ op: 'remove', path: '/foo/-' }])).toBe(
      `error in remove for path: '/foo/-': strconv.Atoi: parsing "-": invalid syntax`,
    );
  });

  it('array replace and walking through arrays: -len is the first element, -(len+1) is missing (partialArray.get)', () => {
    expect(ok(list3(), [{ op: 'replace', path: '/foo/-3', value: 'first' }])).toEqual({ foo: ['first', 'qux', 'baz'] });
    expect(ok(list3(), [{ op: 'replace', path: '/foo/0', value: 'first' }])).toEqual({ foo: ['first', 'qux', 'baz'] });
    expect(err(list3(), [{ op: 'replace', path: '/foo/-4', value: 'x' }])).toBe(
      'replace operation does not apply: doc is missing key: /foo/-4: missing value',
    );
    const nested = { spec: { l: [{ a: 1 }, { a: 2 }] } };
    expect(ok(nested, [{ op: 'add', path: '/spec/l/-2/b', value: 3 }])).toEqual({
      spec: { l: [{ a: 1, b: 3 }, { a: 2 }] },
    });
    expect(err(nested, [{ op: 'add', path: '/spec/l/-3/b', value: 3 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec/l/-3/b": missing value',
    );
    expect(err(nested, [{ op: 'add', path: '/spec/l/x/b', value: 3 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec/l/x/b": missing value',
    );
  });

  it('an empty segment on the way is missing even when the object has a "" key (a nested doc has no self)', () => {
    const d = { spec: { '': { x: 1 } } };
    expect(err(d, [{ op: 'add', path: '/spec//y', value: 1 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec//y": missing value',
    );
    expect(err(d, [{ op: 'remove', path: '/spec//x' }])).toBe(
      'remove operation does not apply: doc is missing path: "/spec//x": missing value',
    );
  });

  it('path "": add and replace swap in the whole document; remove looks for key "" (findObject returns doc, "")', () => {
    expect(ok(doc(), [{ op: 'add', path: '', value: { kind: 'New' } }])).toEqual({ kind: 'New' });
    expect(ok(doc(), [{ op: 'replace', path: '', value: { kind: 'New' } }])).toEqual({ kind: 'New' });
    expect(err(doc(), [{ op: 'remove', path: '' }])).toBe(
      "error in remove for path: '': unable to remove nonexistent key: : missing value",
    );
    expect(ok({ '': 1, a: 2 }, [{ op: 'remove', path: '' }])).toEqual({ a: 2 });
    // A root that is not an object cannot be turned back into a Kubernetes object (own wording).
    expect(err(doc(), [{ op: 'add', path: '', value: [1] }])).toBe(
      'add operation does not apply: the document root must be replaced by an object',
    );
    expect(err(doc(), [{ op: 'replace', path: '', value: 'x' }])).toBe(
      'replace operation does not apply: the document root must be replaced by an object',
    );
  });

  it('a one-segment path names a key of the root', () => {
    expect(ok({ a: 1 }, [{ op: 'add', path: '/b', value: 2 }])).toEqual({ a: 1, b: 2 });
    expect(ok({ a: 1 }, [{ op: 'remove', path: '/a' }])).toEqual({});
    expect(ok([1, 2], [{ op: 'replace', path: '/0', value: 0 }])).toEqual([0, 2]);
  });

  it('text before the first "/" is ignored, whatever it says', () => {
    expect((ok(doc(), [{ op: 'add', path: '__proto__/spec/b', value: 1 }]) as any).spec.b).toBe(1);
    expect(({} as any).b).toBeUndefined();
  });

  it('a document that is not a container has every path missing', () => {
    expect(err(null, [{ op: 'add', path: '/spec/x', value: 1 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec/x": missing value',
    );
    expect(err('text', [{ op: 'remove', path: '/x' }])).toBe(
      'remove operation does not apply: doc is missing path: "/x": missing value',
    );
  });

  it('copy and move without "from" fail like DecodePatch (validateOperation)', () => {
    expect(err(doc(), [{ op: 'copy', path: '/spec/a' }])).toBe(
      `invalid operation {"op":"copy","path":"/spec/a"}: failed to decode 'from': operation, missing from field: missing value`,
    );
  });
});

// evanphx/json-patch v5.9.11 v5/patch.go: Patch.move, Patch.copy, Patch.test and partialArray.get/add.
describe('move, copy and test at their boundaries (evanphx v5.9.11)', () => {
  it('a segment that could pollute a prototype is refused in "from" too', () => {
    for (const op of ['move', 'copy']) {
      expect(err(doc(), [{ op, from: '/spec/__proto__/x', path: '/spec/b' }])).toBe(
        `${op} operation rejected: path segment "__proto__" is not allowed`,
      );
    }
  });

  it('copy reads list items by partialArray.get: a valid index copies, a non-number fails with strconv.Atoi', () => {
    expect((ok(doc(), [{ op: 'copy', from: '/spec/list/1', path: '/spec/c' }]) as any).spec.c).toBe('y');
    expect((ok(doc(), [{ op: 'copy', from: '/spec/list/-2', path: '/spec/c' }]) as any).spec.c).toBe('x');
    expect(err(doc(), [{ op: 'copy', from: '/spec/list/x', path: '/spec/c' }])).toBe(
      `error in copy for from: '/spec/list/x': strconv.Atoi: parsing "x": invalid syntax`,
    );
    expect(err(doc(), [{ op: 'copy', from: '/spec/zz', path: '/spec/c' }])).toBe(
      "error in copy for from: '/spec/zz': unable to get nonexistent key: zz: missing value",
    );
  });

  it('a failing add of copy and move is wrapped as each wraps con.add errors', () => {
    // copy: fmt.Errorf("error while adding value during copy: %w", err), err from partialArray.add.
    expect(err(doc(), [{ op: 'copy', from: '/spec/a', path: '/spec/list/3' }])).toBe(
      'error while adding value during copy: Unable to access invalid index: 3: invalid index referenced',
    );
    expect(err(doc(), [{ op: 'copy', from: '/spec/a', path: '/spec/list/z' }])).toBe(
      `error while adding value during copy: value was not a proper array index: 'z': strconv.Atoi: parsing "z": invalid syntax`,
    );
    expect(err(doc(), [{ op: 'copy', from: '/spec/a', path: '/nope/b' }])).toBe(
      'copy operation does not apply: doc is missing destination path: /nope/b: missing value',
    );
    // move: fmt.Errorf("error in move for path: '%s': %w", path, err).
    expect(err(doc(), [{ op: 'move', from: '/spec/a', path: '/spec/list/3' }])).toBe(
      "error in move for path: '/spec/list/3': Unable to access invalid index: 3: invalid index referenced",
    );
  });

  it('a missing key on the way is missing, whatever other keys the object has (findObject)', () => {
    const d: Json = { spec: { undefined: { x: 1 } } };
    expect(err(d, [{ op: 'add', path: '/spec/missing/x', value: 2 }])).toBe(
      'add operation does not apply: doc is missing path: "/spec/missing/x": missing value',
    );
  });

  it('move within a list removes first, then adds at the index of the shorter list', () => {
    const d: Json = { spec: { l: ['a', 'b', 'c'] } };
    expect(ok(d, [{ op: 'move', from: '/spec/l/0', path: '/spec/l/2' }])).toEqual({ spec: { l: ['b', 'c', 'a'] } });
    expect(err(d, [{ op: 'move', from: '/spec/l/0', path: '/spec/l/3' }])).toBe(
      "error in move for path: '/spec/l/3': Unable to access invalid index: 3: invalid index referenced",
    );
  });

  it('test without a value is a test for null; "" compares the whole document', () => {
    expect(ok(doc(), [{ op: 'test', path: '/spec/nul' }])).toEqual(doc());
    expect(ok(doc(), [{ op: 'test', path: '/spec/missing' }])).toEqual(doc());
    expect(err(doc(), [{ op: 'test', path: '/spec/a' }])).toBe('testing value /spec/a failed: test failed');
    expect(err(doc(), [{ op: 'test', path: '/spec/nul', value: 1 }])).toBe(
      'testing value /spec/nul failed: test failed',
    );
    expect(ok(doc(), [{ op: 'test', path: '', value: doc() }])).toEqual(doc());
    expect(err(doc(), [{ op: 'test', path: '', value: { spec: {} } }])).toBe('testing value  failed: test failed');
  });

  it('test reports a list index error unless it is ErrMissing (errors.Unwrap(err) != ErrMissing)', () => {
    expect(err(doc(), [{ op: 'test', path: '/spec/list/5', value: 'x' }])).toBe(
      "error in test for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
    );
    expect(err(doc(), [{ op: 'test', path: '/spec/list/x', value: 'x' }])).toBe(
      `error in test for path: '/spec/list/x': strconv.Atoi: parsing "x": invalid syntax`,
    );
    expect(ok(doc(), [{ op: 'test', path: '/spec/list/-1', value: 'y' }])).toEqual(doc());
  });
});

/**
 * The observer (provenance of patched fields): each change with its location resolved against
 * the document it applied to — what RFC 6902 says each operation does (§4.1–4.6): add at a list
 * index inserts before it (`-` is the length), remove and replace name an existing location,
 * move is a remove then an add, copy an add, test changes nothing.
 */
describe('the observer: every change, where it lands', () => {
  const observed = (d: Json, ops: JsonPatchOp[]) => {
    const effects: [number, JsonPatchEffect][] = [];
    const r = applyJsonPatch(d, ops, (i, e) => effects.push([i, e]));
    return { ok: r.ok, effects };
  };

  it('list indexes resolved (-, negative) with the length before the change; object keys without a length', () => {
    expect(observed(doc(), [{ op: 'add', path: '/spec/list/-', value: 'z' }]).effects).toEqual([
      [0, { op: 'add', path: ['spec', 'list', 2], listLength: 2 }],
    ]);
    expect(observed(doc(), [{ op: 'add', path: '/spec/list/-1', value: 'z' }]).effects).toEqual([
      [0, { op: 'add', path: ['spec', 'list', 2], listLength: 2 }],
    ]);
    expect(observed(doc(), [{ op: 'remove', path: '/spec/list/-1' }]).effects).toEqual([
      [0, { op: 'remove', path: ['spec', 'list', 1], listLength: 2 }],
    ]);
    expect(observed(doc(), [{ op: 'replace', path: '/spec/obj/k', value: 'w' }]).effects).toEqual([
      [0, { op: 'replace', path: ['spec', 'obj', 'k'] }],
    ]);
  });

  it('move is a remove then an add, copy an add, test nothing; each with its operation index', () => {
    const { effects } = observed(doc(), [
      { op: 'test', path: '/spec/a', value: 1 },
      { op: 'move', from: '/spec/a', path: '/spec/list/0' },
      { op: 'copy', from: '/spec/obj', path: '/spec/o2' },
    ]);
    expect(effects).toEqual([
      [1, { op: 'remove', path: ['spec', 'a'] }],
      [1, { op: 'add', path: ['spec', 'list', 0], listLength: 2 }],
      [2, { op: 'add', path: ['spec', 'o2'] }],
    ]);
  });

  it('"" replaces the whole document (path []); a failing operation reports nothing', () => {
    expect(observed(doc(), [{ op: 'replace', path: '', value: { spec: {} } }]).effects).toEqual([
      [0, { op: 'replace', path: [] }],
    ]);
    expect(observed(doc(), [{ op: 'add', path: '', value: 'scalar' }])).toEqual({ ok: false, effects: [] });
    expect(observed(doc(), [{ op: 'remove', path: '/spec/zz' }])).toEqual({ ok: false, effects: [] });
  });
});

/**
 * jsonpatch.DecodePatch (evanphx v5.9.11), which CAPI's patch engine runs on every JSONPatch
 * answer (engine.go applyPatchesToRequest): encoding/json's unmarshal errors, then validatePatch
 * per operation — Kind (a non-string op is "unknown"), the value of add/replace, the from of
 * move/copy, the path; a field that is JSON null is missing (a nil *json.RawMessage).
 */
describe('decodeJsonPatch (DecodePatch)', () => {
  const fails = (text: string) => {
    const r = decodeJsonPatch(text);
    return r.ok ? `decoded: ${JSON.stringify(r.ops)}` : r.error;
  };

  it('a JSON null is an empty patch; anything but a list is an unmarshal error naming its JSON kind', () => {
    expect(decodeJsonPatch('null')).toEqual({ ok: true, ops: [] });
    expect(fails('{}')).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(fails('"s"')).toBe('json: cannot unmarshal string into Go value of type jsonpatch.Patch');
    expect(fails('true')).toBe('json: cannot unmarshal bool into Go value of type jsonpatch.Patch');
    expect(fails('1')).toBe('json: cannot unmarshal number into Go value of type jsonpatch.Patch');
  });

  it('each operation must be an object (null is an empty one)', () => {
    expect(fails('[1]')).toBe('json: cannot unmarshal number into Go value of type jsonpatch.Operation');
    expect(fails('[[]]')).toBe('json: cannot unmarshal array into Go value of type jsonpatch.Operation');
    expect(fails('["x"]')).toBe('json: cannot unmarshal string into Go value of type jsonpatch.Operation');
    expect(fails('[null]')).toBe('invalid operation null: unsupported operation');
    expect(fails('[{"op":1,"path":"/a"}]')).toBe('invalid operation {"op":1,"path":"/a"}: unsupported operation');
  });

  it('add and replace need a value field, null included; remove and test do not', () => {
    expect(fails('[{"op":"add","path":"/a"}]')).toBe(
      `invalid operation {"op":"add","path":"/a"}: failed to decode 'value': operation, missing value field: missing value`,
    );
    expect(fails('[{"op":"replace"}]')).toBe(
      `invalid operation {"op":"replace"}: failed to decode 'value': operation, missing value field: missing value`,
    );
    expect(decodeJsonPatch('[{"op":"add","path":"/a","value":null}]')).toEqual({
      ok: true,
      ops: [{ op: 'add', path: '/a', value: null }],
    });
    expect(decodeJsonPatch('[{"op":"remove","path":"/a"},{"op":"test","path":"/b"}]')).toEqual({
      ok: true,
      ops: [
        { op: 'remove', path: '/a' },
        { op: 'test', path: '/b' },
      ],
    });
  });

  it('from: a string for move and copy (missing when null), ignored by the other operations', () => {
    expect(fails('[{"op":"move","path":"/a"}]')).toBe(
      `invalid operation {"op":"move","path":"/a"}: failed to decode 'from': operation, missing from field: missing value`,
    );
    expect(fails('[{"from":3,"op":"move","path":"/a"}]')).toBe(
      `invalid operation {"from":3,"op":"move","path":"/a"}: failed to decode 'from': json: cannot unmarshal number into Go value of type string`,
    );
    expect(fails('[{"from":null,"op":"copy","path":"/a"}]')).toBe(
      `invalid operation {"from":null,"op":"copy","path":"/a"}: failed to decode 'from': operation, missing from field: missing value`,
    );
    expect(decodeJsonPatch('[{"op":"remove","path":"/a","from":1}]')).toEqual({
      ok: true,
      ops: [{ op: 'remove', path: '/a' }],
    });
  });

  it('path: required (missing when null) and a string', () => {
    expect(fails('[{"op":"remove"}]')).toBe(
      `invalid operation {"op":"remove"}: failed to decode 'path': operation missing path field: missing value`,
    );
    expect(fails('[{"op":"remove","path":null}]')).toBe(
      `invalid operation {"op":"remove","path":null}: failed to decode 'path': operation missing path field: missing value`,
    );
    expect(fails('[{"op":"remove","path":1}]')).toBe(
      `invalid operation {"op":"remove","path":1}: failed to decode 'path': json: cannot unmarshal number into Go value of type string`,
    );
    expect(fails('[{"op":"remove","path":{}}]')).toBe(
      `invalid operation {"op":"remove","path":{}}: failed to decode 'path': json: cannot unmarshal object into Go value of type string`,
    );
    expect(fails('[{"op":"remove","path":true}]')).toBe(
      `invalid operation {"op":"remove","path":true}: failed to decode 'path': json: cannot unmarshal bool into Go value of type string`,
    );
  });
});
