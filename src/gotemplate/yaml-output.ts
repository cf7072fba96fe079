/**
 * Parses rendered template text the way Cluster API does (sigs.k8s.io/yaml: go-yaml v2 with
 * YAML 1.1 scalar resolution, then JSON): `yes`/`on` are booleans, `0644` is octal, timestamps and
 * sexagesimal numbers stay strings, and non-finite floats cannot be represented in JSON.
 */
import { cloneJson } from '../api/json.js';
import { parseDocument, type Tags } from 'yaml';
import type { Json } from '../api/model.js';

const DROPPED_TAGS = new Set(['tag:yaml.org,2002:timestamp']);

function customTags(tags: Tags): Tags {
  return tags.filter((t) => {
    if (typeof t !== 'object') return true;
    if (DROPPED_TAGS.has(t.tag)) return false;
    // sexagesimal ints/floats ("1:30") are YAML 1.1 but not resolved by go-yaml v2
    if (t.format === 'TIME') return false;
    return true;
  });
}

function toJson(v: unknown, path: string): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`json: unsupported value: ${v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN'}`);
    return v;
  }
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x, i) => toJson(x, `${path}[${i}]`));
  if (v instanceof Map) {
    const out: { [k: string]: Json } = {};
    for (const [k, val] of v) out[keyString(k)] = toJson(val, `${path}.${keyString(k)}`);
    return out;
  }
  if (v instanceof Set) return [...v].map((x, i) => toJson(x, `${path}[${i}]`));
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) out[k] = toJson(val, `${path}.${k}`);
    return out;
  }
  return String(v);
}

function keyString(k: unknown): string {
  if (k === null || k === undefined) return 'null';
  if (typeof k === 'object') return JSON.stringify(k);
  return String(k);
}

const PARSE_OPTIONS = {
  version: '1.1',
  schema: 'yaml-1.1',
  customTags,
  merge: true,
  uniqueKeys: false,
  intAsBigInt: false,
  prettyErrors: false,
} as const;

type Parsed = { ok: true; value: Json } | { ok: false; error: string };
const CACHE_MAX = 4096;
const cache = new Map<string, Parsed>();

/**
 * Parses template output. The same outputs recur for every Cluster of a class (an image name, a
 * YAML block), so parsed values are memoised by text (bounded); callers get their own copy.
 */
export function parseYamlOutput(text: string): Parsed {
  let r = cache.get(text);
  if (r === undefined) {
    r = parseUncached(text);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(text, r);
  }
  return r.ok ? { ok: true, value: cloneJson(r.value) } : r;
}

/** Alias nodes (`*name` after a separator) allowed in one output; resolving many is quadratic. */
const MAX_ALIASES = 1000;
const ALIAS = /(?:^|[\s[{,])\*[^\s,[\]{}]/g;

function parseUncached(text: string): Parsed {
  // go-yaml refuses such documents too ("excessive aliasing"); counting first keeps it cheap.
  let aliases = 0;
  for (ALIAS.lastIndex = 0; ALIAS.exec(text) !== null; ) {
    if (++aliases > MAX_ALIASES) return { ok: false, error: 'error converting YAML to JSON: yaml: document contains excessive aliasing' };
  }
  try {
    const doc = parseDocument(text, PARSE_OPTIONS);
    if (doc.errors.length > 0) {
      return { ok: false, error: `error converting YAML to JSON: ${doc.errors[0]!.message}` };
    }
    const js = doc.toJS({ mapAsMap: true, maxAliasCount: 100 }) as unknown;
    return { ok: true, value: toJson(js, '') };
  } catch (e) {
    return { ok: false, error: `error converting YAML to JSON: ${(e as Error).message}` };
  }
}
