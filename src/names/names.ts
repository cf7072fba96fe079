/**
 * Deterministic object names (CAPI internal/topology/names/names.go, made deterministic by src/names/names.ts): the controller's shapes (prefix, 58-byte
 * truncation, 5 characters from the apimachinery alphabet) with the random characters replaced
 * by a SHA-256 digest — of the object's identity for objects that never rotate, of the patched
 * content for the template clones that rotate when their spec changes.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../core/model.js';
import { canonicalJson } from '../core/json.js';
import { goQuote } from '../gotemplate/fmt.js';
import { executeTemplate, parseTemplate } from '../gotemplate/index.js';

/** k8s.io/apimachinery/pkg/util/rand alphabet: no vowels, no 0, 1, 3. */
export const RANDOM_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_NAME_BYTES = 63;
const PREFIX_BYTES = 58;
/** `0` is outside the alphabet, so a placeholder can never equal a real name. */
export const PLACEHOLDER_SUFFIX = '00000';

export type StableRole =
  | 'infrastructure-cluster'
  | 'control-plane'
  | 'machine-deployment'
  | 'machine-pool'
  | 'mp-bootstrap'
  | 'mp-infrastructure';

/** det5(parts…): five alphabet characters from SHA-256 over the parts joined by NUL. */
export function det5(...parts: string[]): string {
  const digest = createHash('sha256').update(parts.join('\0')).digest();
  let out = '';
  for (const byte of digest.subarray(0, 5)) out += RANDOM_ALPHABET[byte % RANDOM_ALPHABET.length];
  return out;
}

const UTF8 = new TextEncoder();

/** The longest prefix of `s` within `max` UTF-8 bytes: encodeInto writes whole characters only. */
export function truncateBytes(s: string, max: number): string {
  return s.slice(0, UTF8.encodeInto(s, new Uint8Array(max)).read);
}

/** Prefix generator (SimpleNameGenerator shape): prefix cut to 58 bytes + 5 characters. */
export const prefixName = (prefix: string, suffix: string): string => truncateBytes(prefix, PREFIX_BYTES) + suffix;

/** Content hash of a rotating template clone: its apiVersion, kind and spec after patching. */
export function contentSuffix(template: JsonObject): string {
  const content: JsonObject = {
    apiVersion: template.apiVersion ?? null,
    kind: template.kind ?? null,
    spec: template.spec ?? null,
  };
  return det5('template', canonicalJson(content));
}

export interface NameTemplateInput {
  role: StableRole;
  namespace: string;
  clusterName: string;
  /** MD/MP topology name (for `.machineDeployment.topologyName` / `.machinePool.topologyName`). */
  topologyName?: string;
  /** Custom `naming.template` of the class, if any. */
  template?: string;
  /** Which builtin the topology name is exposed as. */
  topologyKey?: 'machineDeployment' | 'machinePool';
}

export type NameOutcome = { ok: true; name: string } | { ok: false; error: string };

/**
 * Template generator (CAPI internal/topology/names/names.go; `templateGenerator.GenerateName` in CAPI's internal/topology/names):
 * renders the naming template (Go builtins only, missingkey=error) with a deterministic `.random`;
 * results over 63 bytes are cut to 58 bytes plus a second deterministic suffix. Errors carry
 * CAPI's wrapping (`parsing template %q` / `rendering template`).
 */
export function generateStableName(input: NameTemplateInput): NameOutcome {
  const identity = [
    input.namespace,
    input.clusterName,
    ...(input.topologyName !== undefined ? [input.topologyName] : []),
  ];
  const random = det5(input.role, ...identity);
  let rendered: string;
  if (input.template === undefined) {
    rendered = [input.clusterName, ...(input.topologyName !== undefined ? [input.topologyName] : []), random].join('-');
  } else {
    const parsed = parseTemplate(input.template, { name: 'template name generator', functions: 'builtins' });
    if (!parsed.ok) return { ok: false, error: `parsing template ${goQuote(input.template)}: ${parsed.error}` };
    const data: JsonObject = { cluster: { name: input.clusterName }, random };
    if (input.topologyKey && input.topologyName !== undefined)
      data[input.topologyKey] = { topologyName: input.topologyName };
    const out = executeTemplate(parsed.template, data, { missingKey: 'error' });
    if (!out.ok) return { ok: false, error: `rendering template: ${out.error}` };
    rendered = out.output;
  }
  if (Buffer.byteLength(rendered) > MAX_NAME_BYTES) {
    const extra = det5(
      `${input.role}-truncate`,
      input.namespace,
      input.clusterName,
      input.topologyName ?? '',
      rendered,
    );
    rendered = prefixName(rendered, extra);
  }
  return { ok: true, name: rendered };
}

/** Stable prefix-generated name (MachinePool bootstrap/infrastructure objects). */
export const stablePrefixName = (
  role: StableRole,
  namespace: string,
  clusterName: string,
  topologyName: string,
): string => prefixName(`${clusterName}-${topologyName}-`, det5(role, namespace, clusterName, topologyName));
