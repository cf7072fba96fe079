/**
 * `valueFrom.variable` paths (CAPI core/reconcilers/topology/cluster/patches/variables/value.go), with the behaviour and error texts of
 * CAPI's `GetVariableValue` (core/reconcilers/topology/cluster/patches/variables/value.go),
 * which walks the JSON with valyala/fastjson.
 *
 * Paths are parsed once per ClusterClass (`parseVariablePath`); each segment keeps its own parse
 * outcome because CAPI parses relative segments lazily during the walk, so a malformed later
 * segment is only reported if the earlier segments resolve.
 */
import type { Json } from '../core/model.js';
import { goQuote } from '../gotemplate/fmt.js';
import { goAtoi } from '../core/go/strconv.js';

type Segment = { ok: true; path: string; index: bigint | undefined } | { ok: false; error: string };

export interface ParsedVariablePath {
  /** The full path as written. */
  readonly raw: string;
  /** The first `.`-separated segment as written (brackets included), used in "does not exist". */
  readonly rawName: string;
  readonly name: Segment;
  readonly relative: readonly Segment[];
}

export type LookupResult = { ok: true; value: Json } | { ok: false; error: string; notFound: boolean };

/** parsePathSegment: `name`, or `name[N]` with N a Go int >= 0 (text after `]` is ignored). */
function parsePathSegment(segment: string): Segment {
  const l = segment.indexOf('[');
  const r = segment.indexOf(']');
  if (l >= 0 !== r >= 0) return { ok: false, error: `failed to parse path segment ${goQuote(segment)}` };
  if (l < 0) return { ok: true, path: segment, index: undefined };
  // Go slices segment[l+1:r]; with "]" before "[" that panics in the controller. Report it as
  // an unparsable segment instead.
  if (r < l) return { ok: false, error: `failed to parse path segment ${goQuote(segment)}` };
  const a = goAtoi(segment.slice(l + 1, r));
  if (!a.ok) {
    return { ok: false, error: `failed to parse array index in path segment ${goQuote(segment)}: ${a.error}` };
  }
  if (a.value < 0n) {
    return { ok: false, error: `invalid array index ${a.value} in path segment ${goQuote(segment)}` };
  }
  return { ok: true, path: segment.slice(0, l), index: a.value };
}

export function parseVariablePath(raw: string): ParsedVariablePath {
  const [rawName = '', ...relative] = raw.split('.');
  return { raw, rawName, name: parsePathSegment(rawName), relative: relative.map(parsePathSegment) };
}

/** fastjson Type().String() of a JSON value. */
function fastjsonType(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    default:
      return v ? 'true' : 'false';
  }
}

/** fastjson Value.Get(key) for one key: object member, or array element by Atoi index. */
function fastjsonGet(v: Json, key: string): Json | undefined {
  if (Array.isArray(v)) {
    const a = goAtoi(key);
    if (!a.ok || a.value < 0n || a.value >= BigInt(v.length)) return undefined;
    return v[Number(a.value)];
  }
  if (typeof v === 'object' && v !== null) return Object.hasOwn(v, key) ? v[key] : undefined;
  return undefined;
}

function arrayElement(v: Json, seg: { path: string }, idx: bigint, full: string): LookupResult {
  if (!Array.isArray(v)) {
    return {
      ok: false,
      notFound: false,
      error: `variable ${goQuote(full)} is invalid: failed to get array ${goQuote(seg.path)}: value doesn't contain array; it contains ${fastjsonType(v)}`,
    };
  }
  if (BigInt(v.length) < idx + 1n) {
    // CAPI formats the *int index with %d, which prints a pointer address; the index is printed
    // here instead so messages are stable.
    return {
      ok: false,
      notFound: false,
      error: `variable ${goQuote(full)} is invalid: array does not have index ${idx}`,
    };
  }
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the index is below the length (checked above)
  return { ok: true, value: v[Number(idx)]! };
}

/** Looks a parsed path up in a variables map (name → value, `builtin` included). */
export function lookupVariable(variables: Readonly<Record<string, Json>>, p: ParsedVariablePath): LookupResult {
  const full = p.raw;
  if (!p.name.ok) return { ok: false, notFound: false, error: `variable ${goQuote(full)} is invalid: ${p.name.error}` };
  const nameSeg = p.name;
  if (!Object.hasOwn(variables, nameSeg.path) || variables[nameSeg.path] === undefined) {
    return { ok: false, notFound: true, error: `variable ${goQuote(p.rawName)} does not exist` };
  }
  let value = variables[nameSeg.path] as Json;
  if (nameSeg.index !== undefined) {
    const r = arrayElement(value, nameSeg, nameSeg.index, full);
    if (!r.ok) return r;
    value = r.value;
  }
  for (const seg of p.relative) {
    if (!seg.ok)
      return { ok: false, notFound: false, error: `variable ${goQuote(full)} has invalid syntax: ${seg.error}` };
    const next = fastjsonGet(value, seg.path);
    if (next === undefined) {
      return {
        ok: false,
        notFound: true,
        error: `variable ${goQuote(full)} does not exist: failed to lookup segment ${goQuote(seg.path)}`,
      };
    }
    value = next;
    if (seg.index !== undefined) {
      const r = arrayElement(value, seg, seg.index, full);
      if (!r.ok) return r;
      value = r.value;
    }
  }
  return { ok: true, value };
}
