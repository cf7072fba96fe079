/**
 * Plain JSON → YAML text, byte-identical to `YAML.stringify(value, EMIT_OPTIONS)`, for the objects
 * the renderer builds. Serialising thousands of rendered objects through the yaml library's node
 * tree was a third of a fleet render; this writes the common shapes directly and hands anything
 * unusual (multi-line strings, scalars that need quoting, nested lists) to the library, so
 * correctness never depends on the fast path. Both quote the strings Kubernetes' own writer quotes
 * (kubernetes-yaml.ts `writesPlain`).
 */
import YAML from 'yaml';
import type { Json, JsonObject } from '../core/model.js';
import { KUBERNETES_YAML, writesPlain, yamlNumber } from '../yaml/kubernetes.js';

export const EMIT_OPTIONS = { ...KUBERNETES_YAML, lineWidth: 0, aliasDuplicateObjects: false } as const;

/** Characters of strings that need no quoting in any position, unless their text reads as a non-string. */
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;
const isPlainString = (s: string): boolean => PLAIN.test(s) && writesPlain(s);

const byLibrary = (v: Json): string => YAML.stringify(v, EMIT_OPTIONS).replace(/\n$/, '');

function scalar(s: string): string {
  return isPlainString(s) ? s : byLibrary(s);
}

/** Text after `key:` (with its leading space or newline). */
function afterKey(v: Json, indent: string): string {
  if (v === null) return ' null';
  if (typeof v === 'boolean') return v ? ' true' : ' false';
  if (typeof v === 'number') return ` ${yamlNumber(v)}`;
  if (typeof v === 'bigint') return ` ${v}`;
  if (typeof v === 'string') {
    if (!v.includes('\n')) return ` ${scalar(v)}`;
    // Block scalars: let the library choose the style, then indent its body under this key.
    const text = YAML.stringify({ x: v }, EMIT_OPTIONS).replace(/\n$/, '').slice(2);
    return text
      .split('\n')
      .map((line, i) => (i === 0 || line === '' ? line : indent + line))
      .join('\n');
  }
  if (Array.isArray(v)) return v.length === 0 ? ' []' : `\n${sequence(v, `${indent}  `)}`;
  return Object.keys(v).length === 0 ? ' {}' : `\n${mapping(v, `${indent}  `)}`;
}

class Fallback extends Error {}

function mapping(o: JsonObject, indent: string): string {
  let out = '';
  for (const k of Object.keys(o)) {
    // Keys that need quoting (or a complex-key form) are left to the library.
    if (!isPlainString(k)) throw new Fallback();
    if (out !== '') out += '\n';
    out += `${indent}${k}:${afterKey(o[k] as Json, indent)}`;
  }
  return out;
}

function sequence(list: Json[], indent: string): string {
  let out = '';
  for (const v of list) {
    if (out !== '') out += '\n';
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) {
      out += `${indent}- ${mapping(v, `${indent}  `).slice(indent.length + 2)}`;
    } else if (Array.isArray(v) && v.length > 0) {
      throw new Fallback();
    } else {
      out += `${indent}- ${afterKey(v, indent).slice(1)}`;
    }
  }
  return out;
}

/** One object as a YAML document body (ending with a newline). */
export function emitYaml(obj: JsonObject): string {
  try {
    return Object.keys(obj).length === 0 ? '{}\n' : `${mapping(obj, '')}\n`;
  } catch (e) {
    if (e instanceof Fallback) return YAML.stringify(obj, EMIT_OPTIONS);
    throw e;
  }
}
