/** text/template's predefined functions (and, or, not, len, index, slice, print*, html, js, urlquery, comparisons). */
import { byteLength, isPrint, sprint, sprintf, sprintln } from './fmt.js';
import {
  GoComplex,
  GoFuncError,
  GoInt,
  GoObject,
  type GoFunc,
  type GoValue,
  goInt,
  hasKey,
  isMap,
  isTrue,
  makeSlice,
  mapElemType,
  sliceElemType,
  typeName,
  at,
  runeAt,
} from './values.js';

const err = (m: string): never => {
  throw new GoFuncError(m);
};

/** Converts a nil interface to the invalid value (reflect's indirectInterface). */
function ind(v: GoValue): GoValue {
  return v === null ? undefined : v;
}

type BasicKind = 'invalid' | 'bool' | 'complex' | 'int' | 'float' | 'string' | 'uint';

function basicKind(v: GoValue): BasicKind {
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
  }
  if (v instanceof GoInt) return v.signed ? 'int' : 'uint';
  if (v instanceof GoComplex) return 'complex';
  return 'invalid';
}

function isNilish(v: GoValue): boolean {
  return v === undefined || v === null;
}

/** Go 1.25+ names both types (text/template funcs.go, eq and lt); earlier releases named none. */
const incompatible = (a: GoValue, b: GoValue): never =>
  err(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);

function goEq(arg1: GoValue, rest: GoValue[]): boolean {
  arg1 = ind(arg1);
  if (rest.length === 0) err('missing argument for comparison');
  const k1 = basicKind(arg1);
  for (let a of rest) {
    a = ind(a);
    const k2 = basicKind(a);
    let truth = false;
    if (k1 !== k2) {
      if (k1 === 'int' && k2 === 'uint') truth = (arg1 as GoInt).v >= 0n && (arg1 as GoInt).v === (a as GoInt).v;
      else if (k1 === 'uint' && k2 === 'int') truth = (a as GoInt).v >= 0n && (arg1 as GoInt).v === (a as GoInt).v;
      else if (arg1 !== undefined && a !== undefined) incompatible(arg1, a);
    } else {
      switch (k1) {
        case 'bool':
        case 'float':
        case 'string':
          truth = arg1 === a;
          break;
        case 'int':
        case 'uint':
          truth = (arg1 as GoInt).v === (a as GoInt).v;
          break;
        case 'complex':
          truth = (arg1 as GoComplex).re === (a as GoComplex).re && (arg1 as GoComplex).im === (a as GoComplex).im;
          break;
        default: {
          const kindOf = (v: GoValue): string =>
            v === undefined ? 'invalid' : Array.isArray(v) ? 'slice' : isMap(v) ? 'map' : 'ptr';
          const ka = kindOf(arg1);
          const kb = kindOf(a);
          if (ka !== kb && ka !== 'invalid' && kb !== 'invalid') {
            err(
              `non-comparable types ${sprintf('%s', [arg1])}: ${typeName(arg1)}, ${typeName(a)}: ${sprintf('%v', [a])}`,
            );
          }
          if (isNilish(arg1) || isNilish(a)) truth = isNilish(a) === isNilish(arg1);
          else {
            if (!(a instanceof GoObject)) err(`non-comparable type ${sprintf('%s', [a])}: ${typeName(a)}`);
            truth = arg1 === a;
          }
        }
      }
    }
    if (truth) return true;
  }
  return false;
}

function goLt(arg1: GoValue, arg2: GoValue): boolean {
  arg1 = ind(arg1);
  arg2 = ind(arg2);
  const k1 = basicKind(arg1);
  if (k1 === 'invalid') err('invalid type for comparison');
  const k2 = basicKind(arg2);
  if (k2 === 'invalid') err('invalid type for comparison');
  if (k1 !== k2) {
    if (k1 === 'int' && k2 === 'uint') return (arg1 as GoInt).v < 0n || (arg1 as GoInt).v < (arg2 as GoInt).v;
    if (k1 === 'uint' && k2 === 'int') return (arg2 as GoInt).v >= 0n && (arg1 as GoInt).v < (arg2 as GoInt).v;
    incompatible(arg1, arg2);
  }
  switch (k1) {
    case 'bool':
    case 'complex':
      return err('invalid type for comparison');
    case 'float':
      return (arg1 as number) < (arg2 as number);
    case 'string':
      return Buffer.compare(Buffer.from(arg1 as string), Buffer.from(arg2 as string)) < 0;
    default:
      return (arg1 as GoInt).v < (arg2 as GoInt).v;
  }
}

function indexArg(index: GoValue, cap: number): number {
  index = ind(index);
  let x: bigint;
  if (index instanceof GoInt) x = index.v;
  else if (index === undefined) return err('cannot index slice/array with nil');
  else return err(`cannot index slice/array with type ${typeName(index)}`);
  if (x < 0n || x > BigInt(cap)) err(`index out of range: ${x}`);
  return Number(x);
}

function goIndex(item: GoValue, indexes: GoValue[]): GoValue {
  item = ind(item);
  if (item === undefined) err('index of untyped nil');
  for (let index of indexes) {
    index = ind(index);
    if (item === null) err('index of nil pointer');
    if (typeof item === 'string') {
      const bytes = Buffer.from(item, 'utf8');
      const x = indexArg(index, bytes.length);
      if (x >= bytes.length) err(`reflect: string index out of range`);
      item = GoInt.of('uint8', BigInt(at(bytes, x)));
    } else if (Array.isArray(item)) {
      const x = indexArg(index, item.length);
      if (x >= item.length) err('reflect: slice index out of range');
      item = item[x];
    } else if (isMap(item)) {
      if (index === undefined) err('value is nil; should be of type string');
      if (typeof index !== 'string') err(`value has type ${typeName(index)}; should be string`);
      if (hasKey(item, index as string)) item = item[index as string];
      else item = mapElemType(item) === 'string' ? '' : null;
    } else err(`can't index item of type ${typeName(item)}`);
  }
  return item;
}

function goSlice(item: GoValue, indexes: GoValue[]): GoValue {
  item = ind(item);
  if (item === undefined) err('slice of untyped nil');
  if (indexes.length > 3) err(`too many slice indexes: ${indexes.length}`);
  let len: number;
  let bytes: Buffer | undefined;
  if (typeof item === 'string') {
    if (indexes.length === 3) err('cannot 3-index slice a string');
    bytes = Buffer.from(item, 'utf8');
    len = bytes.length;
  } else if (Array.isArray(item)) len = item.length;
  else return err(`can't slice item of type ${typeName(item)}`);
  const [low = 0, high = len, max = len] = indexes.map((index) => indexArg(index, len));
  if (low > high) err(`invalid slice index: ${low} > ${high}`);
  if (indexes.length === 3 && high > max) err(`invalid slice index: ${high} > ${max}`);
  if (bytes) return bytes.subarray(low, high).toString('utf8');
  const arr = item as GoValue[];
  return makeSlice(arr.slice(low, high), sliceElemType(arr));
}

function goLen(item: GoValue): GoInt {
  if (item === undefined) err('reflect: call of reflect.Value.Type on zero Value');
  if (item === null) err('len of nil pointer');
  if (typeof item === 'string') return goInt(byteLength(item));
  if (Array.isArray(item)) return goInt(item.length);
  if (isMap(item)) return goInt(Object.keys(item).length);
  return err(`len of type ${typeName(item)}`);
}

/** evalArgs from text/template: a single string is used as is, otherwise fmt.Sprint. */
function evalArgs(args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null || a === undefined ? '<no value>' : a)));
}

function htmlEscape(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) => {
    switch (c) {
      case '\0':
        return '\uFFFD';
      case '"':
        return '&#34;';
      case "'":
        return '&#39;';
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      default:
        return '&gt;';
    }
  });
}

function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = runeAt(ch);
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (c < 0x20) out += '\\u00' + c.toString(16).toUpperCase().padStart(2, '0');
    else if (c < 0x80) out += ch;
    else if (isPrint(c)) out += ch;
    else out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

/** url.QueryEscape */
function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export function builtinFuncs(): GoFunc[] {
  return [
    { name: 'and', params: ['rv'], variadic: 'rv', fn: () => err('unreachable') },
    { name: 'or', params: ['rv'], variadic: 'rv', fn: () => err('unreachable') },
    { name: 'not', params: ['rv'], fn: ([a]) => !isTrue(ind(a)) },
    { name: 'len', params: ['rv'], fn: ([a]) => goLen(a) },
    { name: 'index', params: ['rv'], variadic: 'rv', fn: ([a, ...rest]) => goIndex(a, rest) },
    { name: 'slice', params: ['rv'], variadic: 'rv', fn: ([a, ...rest]) => goSlice(a, rest) },
    { name: 'print', params: [], variadic: 'any', fn: (args) => sprint(args) },
    { name: 'printf', params: ['string'], variadic: 'any', fn: ([f, ...args]) => sprintf(f as string, args) },
    { name: 'println', params: [], variadic: 'any', fn: (args) => sprintln(args) },
    { name: 'html', params: [], variadic: 'any', fn: (args) => htmlEscape(evalArgs(args)) },
    { name: 'js', params: [], variadic: 'any', fn: (args) => jsEscape(evalArgs(args)) },
    { name: 'urlquery', params: [], variadic: 'any', fn: (args) => queryEscape(evalArgs(args)) },
    { name: 'eq', params: ['rv'], variadic: 'rv', fn: ([a, ...rest]) => goEq(a, rest) },
    { name: 'ne', params: ['rv', 'rv'], fn: ([a, b]) => !goEq(a, [b]) },
    { name: 'lt', params: ['rv', 'rv'], fn: ([a, b]) => goLt(a, b) },
    { name: 'le', params: ['rv', 'rv'], fn: ([a, b]) => goLt(a, b) || goEq(a, [b]) },
    { name: 'gt', params: ['rv', 'rv'], fn: ([a, b]) => !(goLt(a, b) || goEq(a, [b])) },
    { name: 'ge', params: ['rv', 'rv'], fn: ([a, b]) => !goLt(a, b) },
    {
      name: 'call',
      params: ['rv'],
      variadic: 'rv',
      // evalCall puts the callee's source text first.
      fn: ([callee, f]) => {
        if (f === undefined || f === null) err('call of nil');
        return err(`non-function ${callee as string} of type ${typeName(f)}`);
      },
    },
  ];
}
