/**
 * Structural defaulting, case by case against `structuraldefaulting.Default` (apiextensions-apiserver
 * pkg/apiserver/schema/defaulting/algorithm.go), which CAPI's `defaultValue`
 * (internal/topology/variables/cluster_variable_defaulting.go) runs on the variable wrapped as
 * `{<name>: <value>}`. CAPI's JSONSchemaProps has no `nullable`, so every `null` is a
 * non-nullable null (`isNonNullableNull`).
 */
import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../src/core/model.js';
import { applyStructuralDefaults, defaultVariableValue } from '../../src/variables/defaulting.js';
import { parseSchema, type SchemaNode } from '../../src/variables/schema.js';

const schema = (raw: JsonObject): SchemaNode => {
  const issues = { errors: [], ignored: [] };
  const node = parseSchema(raw, 'schema', issues);
  expect(issues).toEqual({ errors: [], ignored: [] });
  return node;
};

describe('properties (`for k, prop := range s.Properties`)', () => {
  const s = schema({
    type: 'object',
    properties: {
      a: { type: 'string', default: 'x' },
      o: { type: 'object', properties: { n: { type: 'integer', default: 3 }, m: { type: 'integer' } } },
    },
  });

  it('a missing or null property takes its default; a present one is kept', () => {
    expect(applyStructuralDefaults({}, s)).toEqual({ a: 'x' });
    expect(applyStructuralDefaults({ a: null }, s)).toEqual({ a: 'x' });
    expect(applyStructuralDefaults({ a: '' }, s)).toEqual({ a: '' });
    expect(applyStructuralDefaults({ a: 'y', extra: null }, s)).toEqual({ a: 'y', extra: null });
  });

  it('recurses into present properties, and only into present ones (no default for "o")', () => {
    expect(applyStructuralDefaults({ o: {} }, s)).toEqual({ a: 'x', o: { n: 3 } });
    expect(applyStructuralDefaults({ o: { n: null, m: null } }, s)).toEqual({ a: 'x', o: { n: 3, m: null } });
    expect(applyStructuralDefaults({ o: { n: 1 } }, s)).toEqual({ a: 'x', o: { n: 1 } });
    expect(applyStructuralDefaults({ o: null }, s)).toEqual({ a: 'x', o: null });
  });

  it('a default is inserted before the recursion, so its own nested defaults apply', () => {
    const nested = schema({
      type: 'object',
      properties: { o: { type: 'object', default: { m: 1 }, properties: { n: { type: 'integer', default: 3 } } } },
    });
    expect(applyStructuralDefaults({}, nested)).toEqual({ o: { m: 1, n: 3 } });
  });

  it('defaults are deep copies (runtime.DeepCopyJSONValue)', () => {
    const withObject = schema({ type: 'object', properties: { o: { type: 'object', default: { l: [1] } } } });
    const first = applyStructuralDefaults({}, withObject) as { o: { l: number[] } };
    first.o.l.push(2);
    expect(applyStructuralDefaults({}, withObject)).toEqual({ o: { l: [1] } });
  });
});

describe('additionalProperties and items', () => {
  it('a null additionalProperties value takes its default; others are recursed into; no key is created', () => {
    const s = schema({
      type: 'object',
      additionalProperties: { type: 'object', default: { x: 1 }, properties: { y: { type: 'integer', default: 2 } } },
    });
    expect(applyStructuralDefaults({}, s)).toEqual({});
    expect(applyStructuralDefaults({ k: null, j: {} }, s)).toEqual({ k: { x: 1, y: 2 }, j: { y: 2 } });
  });

  it('a null additionalProperties value stays null without a default', () => {
    const s = schema({ type: 'object', additionalProperties: { type: 'string' } });
    expect(applyStructuralDefaults({ k: null, j: 'v' }, s)).toEqual({ k: null, j: 'v' });
  });

  it('a null item takes the items default; object items are recursed into', () => {
    const strings = schema({ type: 'array', items: { type: 'string', default: 'd' } });
    expect(applyStructuralDefaults(['a', null], strings)).toEqual(['a', 'd']);
    const objects = schema({
      type: 'array',
      items: { type: 'object', properties: { n: { type: 'integer', default: 3 } } },
    });
    expect(applyStructuralDefaults([{}, { n: 1 }, null], objects)).toEqual([{ n: 3 }, { n: 1 }, null]);
  });

  it('an array without an items schema and scalars are returned as they are', () => {
    const s = schema({ type: 'object', properties: { l: { type: 'array', default: ['z'] } } });
    expect(applyStructuralDefaults({ l: ['a', null, { b: 1 }] }, s)).toEqual({ l: ['a', null, { b: 1 }] });
    expect(applyStructuralDefaults('text', schema({ type: 'string', default: 'd' }))).toBe('text');
  });

  it('never changes its input', () => {
    const s = schema({
      type: 'object',
      properties: {
        o: { type: 'object', properties: { n: { type: 'integer', default: 3 } } },
        l: { type: 'array', items: { type: 'string', default: 'd' } },
      },
    });
    const input: Json = { o: {}, l: [null] };
    const before = structuredClone(input);
    expect(applyStructuralDefaults(input, s)).toEqual({ o: { n: 3 }, l: ['d'] });
    expect(input).toEqual(before);
  });
});

describe('defaultVariableValue (the variable wrapped as a property of an object)', () => {
  it('a missing or null value takes the top-level default, then its nested defaults', () => {
    const s = schema({ type: 'object', default: {}, properties: { enabled: { type: 'boolean', default: false } } });
    expect(defaultVariableValue(undefined, s)).toEqual({ enabled: false });
    expect(defaultVariableValue(null, s)).toEqual({ enabled: false });
    expect(defaultVariableValue({ enabled: true }, s)).toEqual({ enabled: true });
  });

  it('without a top-level default a null value stays null', () => {
    expect(defaultVariableValue(null, schema({ type: 'string' }))).toBeNull();
    expect(
      defaultVariableValue(undefined, schema({ type: 'object', properties: { a: { type: 'string', default: 'x' } } })),
    ).toBeNull();
  });
});

describe('the observer (provenance of CRD defaults): told of exactly the defaults algorithm.go applies', () => {
  // algorithm.go sets a default where a declared property is missing or null (`for k, prop := range
  // s.Properties`), where an additionalProperties value is null and where an item is null; nowhere else.
  const s = schema({
    type: 'object',
    properties: {
      a: { type: 'string', default: 'x' },
      o: { type: 'object', default: {}, properties: { n: { type: 'integer', default: 3 } } },
      l: { type: 'array', items: { type: 'object', default: {}, properties: { p: { type: 'string', default: 'q' } } } },
      m: {
        type: 'object',
        additionalProperties: { type: 'object', default: {}, properties: { y: { type: 'integer', default: 2 } } },
      },
    },
  });
  const input: Json = { a: null, l: [null, {}, { p: 'kept' }], m: { k: null, j: { y: 5 } } };
  const defaulted = {
    a: 'x',
    o: { n: 3 },
    l: [{ p: 'q' }, { p: 'q' }, { p: 'kept' }],
    m: { k: { y: 2 }, j: { y: 5 } },
  };
  const sorted = (paths: (string | number)[][]) => paths.map((p) => JSON.stringify(p)).sort();

  it('each default by its path: properties, items, additionalProperties, and defaults inside inserted defaults', () => {
    const paths: (string | number)[][] = [];
    expect(applyStructuralDefaults(input, s, (p) => paths.push(p))).toEqual(defaulted);
    expect(sorted(paths)).toEqual(
      sorted([['a'], ['o'], ['o', 'n'], ['l', 0], ['l', 0, 'p'], ['l', 1, 'p'], ['m', 'k'], ['m', 'k', 'y']]),
    );
  });

  it('paths are below `at`, the path of the value given', () => {
    const paths: (string | number)[][] = [];
    applyStructuralDefaults({ l: [null] }, s, (p) => paths.push(p), ['spec', 'template']);
    expect(sorted(paths)).toEqual(
      sorted([
        ['spec', 'template', 'a'],
        ['spec', 'template', 'o'],
        ['spec', 'template', 'o', 'n'],
        ['spec', 'template', 'l', 0],
        ['spec', 'template', 'l', 0, 'p'],
      ]),
    );
  });

  it('a value that needs no default reports nothing, and the result is the same with or without an observer', () => {
    const paths: (string | number)[][] = [];
    const complete: Json = { a: 'y', o: { n: 1 }, l: [{ p: 'r' }], m: { j: { y: 5 } } };
    expect(applyStructuralDefaults(complete, s, (p) => paths.push(p))).toEqual(complete);
    expect(paths).toEqual([]);
    expect(applyStructuralDefaults(input, s)).toEqual(defaulted);
  });
});
