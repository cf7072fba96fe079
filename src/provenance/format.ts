/** Presentation of explain results: one-line source descriptions, object selection, field filters, text. */
import type { Json } from '../core/model.js';
import type { ExplainResult, ExplainedObject, FieldOrigin, PatchEvaluation, Source, VariableUse } from './types.js';
import { parsePath, segsHavePrefix, type Seg } from './paths.js';
import { jsonString } from '../core/json.js';

const short = (v: Json, max = 60): string => {
  const s = jsonString(v) ?? 'null';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

function describeVariables(uses: VariableUse[] | undefined): string {
  if (!uses || uses.length === 0) return '';
  return uses
    .map((u) => {
      const where = u.name.startsWith('builtin')
        ? ''
        : u.defaulted
          ? ` (default${u.defaultFrom ? ` from ClusterClass ${u.defaultFrom}` : ''})`
          : u.from
            ? ` (Cluster ${u.from})`
            : '';
      return `${u.name}=${short(u.value, 40)}${where}`;
    })
    .join(', ');
}

/** One line saying where a value came from. */
export function describeSource(s: Source, clusterClassName?: string): string {
  switch (s.kind) {
    case 'template':
      return `template ${s.template.kind}/${s.template.name} ${s.path}${s.note ? ` (${s.note})` : ''}`;
    case 'clusterClass':
      return `ClusterClass${clusterClassName ? ` ${clusterClassName}` : ''} ${s.path}${s.note ? ` (${s.note})` : ''}`;
    case 'topology':
      return `Cluster ${s.path}${s.note ? ` (${s.note})` : ''}`;
    case 'patch': {
      const parts = [
        `patch ${JSON.stringify(s.patch)} (spec.patches[${s.patchIndex}].definitions[${s.definitionIndex}].jsonPatches[${s.jsonPatchIndex}]: ${s.op} ${s.opPath})`,
      ];
      if (s.valueFrom?.variable) parts.push(`valueFrom.variable ${s.valueFrom.variable}`);
      else if (s.valueFrom?.template) parts.push('valueFrom.template');
      else if (s.op !== 'remove') parts.push('literal value');
      const vars = describeVariables(s.variables);
      if (vars) parts.push(`reads ${vars}`);
      if (s.enabledIf !== undefined) {
        const ev = describeVariables(s.enabledIfVariables);
        parts.push(`enabledIf ${JSON.stringify(s.enabledIf)} → true${ev ? ` with ${ev}` : ''}`);
      }
      return parts.join('; ');
    }
    case 'externalPatch': {
      const op = s.op !== undefined ? `: operations[${s.operationIndex}] ${s.op} ${s.opPath}` : '';
      return `external patch ${JSON.stringify(s.patch)} (spec.patches[${s.patchIndex}], extension ${s.extension})${op}`;
    }
    case 'builtin':
      return `builtin: ${s.detail}`;
    case 'fixed':
      return `fixed: ${s.detail}`;
    case 'default':
      return `default: ${s.detail}`;
    case 'unknown':
      return `UNATTRIBUTED: ${s.detail}`;
  }
}

export function describePatch(p: PatchEvaluation): string {
  const state = p.enabled ? 'applied' : 'disabled';
  const cond =
    p.enabledIf !== undefined
      ? ` (enabledIf ${JSON.stringify(p.enabledIf)} → ${p.enabled}${p.enabledIfVariables?.length ? ` with ${describeVariables(p.enabledIfVariables)}` : ''})`
      : '';
  return `spec.patches[${p.patchIndex}] ${JSON.stringify(p.patch)}: ${state}${cond}, definitions ${p.definitions.join(', ')}`;
}

// ------------------------------------------------------------------ selection

export type Selection = { ok: true; objects: ExplainedObject[] } | { ok: false; ambiguous: boolean; message: string };

const label = (o: ExplainedObject) => `${o.ref.kind}/${o.ref.name}`;

/**
 * `KIND/NAME`, `KIND` (when one object has that kind) or `NAME`; kinds are case-insensitive and
 * a name may be given without its generated suffix when that is unambiguous.
 */
export function selectObject(objects: ExplainedObject[], selector: string): Selection {
  const slash = selector.indexOf('/');
  const kind = slash >= 0 ? selector.slice(0, slash) : selector;
  const name = slash >= 0 ? selector.slice(slash + 1) : undefined;
  const byKind = (k: string) => objects.filter((o) => o.ref.kind.toLowerCase() === k.toLowerCase());
  const byName = (list: ExplainedObject[], n: string) => {
    const exact = list.filter((o) => o.ref.name === n);
    return exact.length > 0 ? exact : list.filter((o) => o.ref.name.startsWith(n));
  };
  let found: ExplainedObject[];
  if (name !== undefined) found = byName(byKind(kind), name);
  else {
    found = byKind(kind);
    if (found.length === 0) found = byName(objects, selector);
  }
  if (found.length === 1) return { ok: true, objects: found };
  const all = objects.map(label).join(', ');
  if (found.length === 0)
    return { ok: false, ambiguous: false, message: `no rendered object matches "${selector}"; objects: ${all}` };
  return {
    ok: false,
    ambiguous: true,
    message: `"${selector}" matches ${found.length} objects (${found.map(label).join(', ')}); use KIND/NAME`,
  };
}

const plainPath = (segs: readonly Seg[]): string =>
  segs.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');

/** Fields at `path` or below it (`spec.kubeadmConfigSpec`, `spec.x.files[0]`, `metadata.labels['a.b/c']`, or plain dots). */
export function filterFields(fields: FieldOrigin[], path: string): FieldOrigin[] {
  const prefix = parsePath(path);
  return fields.filter((f) => {
    const segs = parsePath(f.path) ?? [];
    if (prefix && segsHavePrefix(segs, prefix)) return true;
    const plain = plainPath(segs);
    return plain === path || plain.startsWith(`${path}.`) || plain.startsWith(`${path}[`);
  });
}

// ------------------------------------------------------------------ text

export interface TextOptions {
  clusterClassName?: string;
  /** Print the patches considered for each object (default true). */
  patches?: boolean;
}

function formatObjectText(o: ExplainedObject, fields: FieldOrigin[], options: TextOptions = {}): string {
  const lines = [`${o.ref.kind} ${o.ref.namespace}/${o.ref.name} (${o.ref.apiVersion}${o.role ? `, ${o.role}` : ''})`];
  const rows = fields.map((f) => ({ left: `${f.path} = ${short(f.value)}`, source: f.source }));
  const width = Math.min(90, Math.max(0, ...rows.map((r) => r.left.length)));
  for (const { left, source } of rows)
    lines.push(`  ${left.padEnd(width)}  ← ${describeSource(source, options.clusterClassName)}`);
  if (options.patches !== false && o.patches && o.patches.length > 0) {
    lines.push('  patches whose selectors match this object:');
    for (const p of o.patches) lines.push(`    ${describePatch(p)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function formatText(
  result: ExplainResult,
  objects: { object: ExplainedObject; fields: FieldOrigin[] }[],
  options: TextOptions = {},
): string {
  const head = result.cluster
    ? `# Cluster ${result.cluster.namespace}/${result.cluster.name}${result.clusterClass ? `, ClusterClass ${result.clusterClass.namespace}/${result.clusterClass.name}` : ''}\n`
    : '';
  return head + objects.map(({ object, fields }) => formatObjectText(object, fields, options)).join('\n');
}
