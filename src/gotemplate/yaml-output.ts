/**
 * Parses rendered template text the way Cluster API does: `renderValueTemplate`
 * (core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go) unmarshals the output
 * with sigs.k8s.io/yaml into an apiextensionsv1.JSON, i.e. `YAMLToJSON` over go-yaml v2, the
 * decoder every Kubernetes input goes through (src/yaml/kubernetes.ts): `yes`/`on` are
 * booleans, `0644` is octal, timestamps, `1:30` and `e1000` stay strings, and non-finite floats
 * cannot be represented in JSON.
 */
import { cloneJson } from '../core/json.js';
import { parseDocument } from 'yaml';
import type { Json } from '../core/model.js';
import { KUBERNETES_YAML } from '../yaml/kubernetes.js';
import { documentJson } from '../yaml/decode.js';

const PARSE_OPTIONS = { ...KUBERNETES_YAML, uniqueKeys: false, prettyErrors: false } as const;

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
    if (cache.size >= CACHE_MAX) {
      const [oldest] = cache.keys();
      if (oldest !== undefined) cache.delete(oldest);
    }
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
  for (ALIAS.lastIndex = 0; ALIAS.exec(text) !== null;) {
    if (++aliases > MAX_ALIASES)
      return { ok: false, error: 'error converting YAML to JSON: yaml: document contains excessive aliasing' };
  }
  try {
    const doc = parseDocument(text, PARSE_OPTIONS);
    const [firstError] = doc.errors;
    if (firstError !== undefined) return { ok: false, error: `error converting YAML to JSON: ${firstError.message}` };
    return { ok: true, value: documentJson(doc) };
  } catch (e) {
    return { ok: false, error: `error converting YAML to JSON: ${(e as Error).message}` };
  }
}
