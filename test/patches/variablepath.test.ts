import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/core/model.js';
import { lookupVariable, parseVariablePath } from '../../src/patches/variablepath.js';

const vars: Record<string, Json> = {
  str: 'hello',
  num: 3,
  obj: { field: 'f', list: [{ name: 'a' }, { name: 'b' }], nested: { deep: true }, nul: null },
  arr: [10, 20, [30, 40]],
  builtin: { cluster: { name: 'c1' }, machineDeployment: { class: 'default-worker', version: 'v1.31.0' } },
};

const get = (path: string) => lookupVariable(vars, parseVariablePath(path));
const value = (path: string) => {
  const r = get(path);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const error = (path: string) => {
  const r = get(path);
  if (r.ok) throw new Error(`expected failure, got ${JSON.stringify(r.value)}`);
  return r.error;
};

describe('valueFrom.variable lookups', () => {
  it('reads top-level values, fields, indexes and builtins', () => {
    expect(value('str')).toBe('hello');
    expect(value('obj')).toEqual(vars['obj']);
    expect(value('obj.field')).toBe('f');
    expect(value('obj.list[1].name')).toBe('b');
    expect(value('arr[1]')).toBe(20);
    expect(value('arr[2]')).toEqual([30, 40]);
    expect(value('obj.nested.deep')).toBe(true);
    expect(value('obj.nul')).toBeNull();
    expect(value('builtin')).toEqual(vars['builtin']);
    expect(value('builtin.machineDeployment.version')).toBe('v1.31.0');
  });
  it('accepts numeric segments as array indexes (fastjson) and Atoi-style indexes', () => {
    expect(value('obj.list.0.name')).toBe('a');
    expect(value('arr[+1]')).toBe(20);
    expect(value('arr[01]')).toBe(20);
    expect(value('obj.list[0]x.name')).toBe('a'); // text after "]" is ignored, as in CAPI
  });
  it('reports a missing variable with the raw first segment', () => {
    expect(error('missing')).toBe('variable "missing" does not exist');
    expect(error('missing[0].x')).toBe('variable "missing[0]" does not exist');
  });
  it('reports missing segments', () => {
    expect(error('obj.nope')).toBe('variable "obj.nope" does not exist: failed to lookup segment "nope"');
    expect(error('str.x')).toBe('variable "str.x" does not exist: failed to lookup segment "x"');
    expect(error('obj.nul.x')).toBe('variable "obj.nul.x" does not exist: failed to lookup segment "x"');
    expect(error('obj.list.5')).toBe('variable "obj.list.5" does not exist: failed to lookup segment "5"');
    expect(error('builtin.controlPlane.version')).toBe(
      'variable "builtin.controlPlane.version" does not exist: failed to lookup segment "controlPlane"',
    );
  });
  it('reports index problems', () => {
    // CAPI prints a pointer address for the index; we print the index.
    expect(error('arr[3]')).toBe('variable "arr[3]" is invalid: array does not have index 3');
    expect(error('obj.list[2].name')).toBe('variable "obj.list[2].name" is invalid: array does not have index 2');
    expect(error('obj[0]')).toBe(
      `variable "obj[0]" is invalid: failed to get array "obj": value doesn't contain array; it contains object`,
    );
    expect(error('obj.field[0]')).toBe(
      `variable "obj.field[0]" is invalid: failed to get array "field": value doesn't contain array; it contains string`,
    );
    expect(error('num[0]')).toContain('it contains number');
  });
  it('reports malformed segments with CAPI wrapping (first vs later segments)', () => {
    expect(error('arr[0')).toBe('variable "arr[0" is invalid: failed to parse path segment "arr[0"');
    expect(error('arr]0[')).toBe('variable "arr]0[" is invalid: failed to parse path segment "arr]0["');
    expect(error('arr[x]')).toBe(
      'variable "arr[x]" is invalid: failed to parse array index in path segment "arr[x]": strconv.Atoi: parsing "x": invalid syntax',
    );
    expect(error('arr[-1]')).toBe('variable "arr[-1]" is invalid: invalid array index -1 in path segment "arr[-1]"');
    expect(error('obj.list[')).toBe('variable "obj.list[" has invalid syntax: failed to parse path segment "list["');
    expect(error('obj.list[]')).toBe(
      'variable "obj.list[]" has invalid syntax: failed to parse array index in path segment "list[]": strconv.Atoi: parsing "": invalid syntax',
    );
  });
  it('evaluates later segments lazily, like CAPI', () => {
    // The missing variable is reported before the malformed later segment.
    expect(error('missing.a[')).toBe('variable "missing" does not exist');
    expect(error('obj.nope.a[')).toBe('variable "obj.nope.a[" does not exist: failed to lookup segment "nope"');
  });
  it('does not resolve inherited properties', () => {
    expect(error('constructor')).toBe('variable "constructor" does not exist');
    expect(error('obj.__proto__')).toBe(
      'variable "obj.__proto__" does not exist: failed to lookup segment "__proto__"',
    );
    expect(error('obj.toString')).toContain('failed to lookup segment "toString"');
  });
});
