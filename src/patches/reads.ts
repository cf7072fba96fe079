/**
 * What a patch value or `enabledIf` read (for provenance): the variables a `valueFrom.variable`
 * path or a `valueFrom.template` refers to, each with where its value came from.
 */
import type { Json } from '../core/model.js';
import type { VariableOrigin, VariableUse } from '../provenance/sources.js';
import { lookupVariable, parseVariablePath } from './variablepath.js';

/**
 * Variable references of a Go template: `.name…` / `$.name…` chains not preceded by an
 * identifier, `)` or `]`, and `index . "name"`. A heuristic (no scoping of `range`/`with`);
 * callers keep only names that exist.
 */
export function templateReferences(source: string): string[] {
  const out = new Set<string>();
  const chain = /(^|[^\w)\]$])\$?\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/g;
  for (const [, , name = ''] of source.matchAll(chain)) out.add(name);
  for (const [, name = ''] of source.matchAll(/\bindex\s+\$?\.\s+"([^"]+)"/g)) out.add(name);
  return [...out];
}

/**
 * The variables `refs` (variable paths) read from `vars` (the merged variables of one request
 * item), once each: a builtin by its full path, any other variable whole, with its origin.
 */
export function variableUses(
  refs: readonly string[],
  vars: Readonly<Record<string, Json>>,
  originOf: (name: string) => VariableOrigin | undefined,
): VariableUse[] {
  const out: VariableUse[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const [head = ''] = ref.split('.');
    const name = head.replace(/\[.*$/, '');
    if (!Object.hasOwn(vars, name)) continue;
    let use: VariableUse;
    if (name === 'builtin') {
      const r = lookupVariable(vars, parseVariablePath(ref));
      if (!r.ok) continue;
      use = { name: ref, value: r.value, defaulted: false };
    } else {
      use = { name, value: vars[name] ?? null, ...(originOf(name) ?? { defaulted: false }) };
    }
    if (seen.has(use.name)) continue;
    seen.add(use.name);
    out.push(use);
  }
  return out;
}
