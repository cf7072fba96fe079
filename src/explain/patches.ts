/**
 * Provenance through the patch engine (topology-semantics §7): the patch request is rebuilt as
 * `patchDesiredState` builds it, then the engine is replayed one JSON patch operation at a time
 * (a compiled patch holding only that definition and operation, so values, selectors and
 * enabledIf are computed by the real engine) while the provenance tree of every request item
 * follows the operation: `add` on a list inserts, `add` on a key and `replace` take over the
 * subtree, `remove` drops it. Finally the write-back of §7.6 (copied fields, preserved fields)
 * moves the template trees onto the desired objects.
 */
import type { Cluster, ClusterVariable, Json, JsonObject, ObjectRef } from '../api/model.js';
import type { Result } from '../krm/result.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import type { DefaultedVariables } from '../variables/index.js';
import type { DesiredState } from '../topology/desired.js';
import { controlPlaneMachineTemplateHolder } from '../topology/render.js';
import { clusterBuiltin, controlPlaneBuiltin, machineDeploymentBuiltin, machinePoolBuiltin } from '../topology/builtins.js';
import { asObject, canonicalJson, cloneJson, isObject } from '../api/json.js';
import { OBJECT_FIELDS, TEMPLATE_FIELDS, isTemplateRole, nestedGet, type Path } from '../patches/writeback.js';
import {
  ALWAYS_PRESERVED,
  CONTROL_PLANE_PRESERVED,
  applyPatches,
  lookupVariable,
  mergeVariables,
  parseVariablePath,
  type CompiledOp,
  type CompiledPatch,
  type CompiledPatches,
  type PatchRequestItem,
  type PatchTargetRole,
} from '../patches/index.js';
import { matchesSelector } from '../patches/selector.js';
import { renderTemplate } from '../patches/templates.js';
import type { PatchEvaluation, PatchSource, VariableUse } from './types.js';
import { resolvePointer, type Seg } from './paths.js';
import { at, cloneNode, extract, fixedNode, insertAt, removeAt, setAt, type PNode } from './tree.js';

/** One patch request item with its provenance. */
export interface Slot {
  role: PatchTargetRole;
  item: PatchRequestItem;
  /** Pre-patch desired object and its tree. */
  desired: JsonObject;
  tree: PNode;
  /** Current (patched so far) template and its tree. */
  template: JsonObject;
  templateTree: PNode;
  patches: PatchEvaluation[];
  /** Variable overrides that apply to this item: defaulted values, as written, and their Cluster path. */
  overrides: { values: ClusterVariable[]; input: ClusterVariable[]; path: string };
}

const valuesOf = (vars: { name: string; value: Json }[]): Record<string, Json> => {
  const out: Record<string, Json> = Object.create(null);
  for (const v of vars) out[v.name] = v.value;
  return out;
};

const INNER_META: Seg[] = ['spec', 'template', 'metadata'];

/** §7.1 requestTemplate with its tree: the class template, desired labels/annotations synced in. */
function requestTemplate(templateObj: JsonObject, templateTree: PNode, desired: JsonObject, desiredTree: PNode, inner: boolean): { doc: JsonObject; tree: PNode } {
  const doc = cloneJson(templateObj);
  const tree = templateTree;
  const base: Seg[] = inner ? INNER_META : ['metadata'];
  let target: JsonObject;
  if (inner) {
    const spec = asObject(doc.spec) ?? (doc.spec = {});
    const template = asObject(spec.template) ?? (spec.template = {});
    target = asObject(template.metadata) ?? ((template.metadata = {}) as JsonObject);
  } else {
    target = asObject(doc.metadata) ?? (doc.metadata = {});
  }
  const meta = asObject(desired.metadata) ?? {};
  for (const key of ['labels', 'annotations'] as const) {
    if (meta[key] !== undefined) {
      setAt(tree, doc, [...base, key], extract(desiredTree, ['metadata', key]));
      target[key] = cloneJson(meta[key] as Json);
    } else {
      if (target[key] !== undefined) removeAt(tree, doc, [...base, key]);
      delete target[key];
    }
  }
  return { doc, tree };
}

export interface DesiredTrees {
  infrastructureCluster?: PNode;
  controlPlaneMachineTemplate?: PNode;
  controlPlane: PNode;
  machineDeployments: { bootstrapTemplate: PNode; infrastructureTemplate: PNode }[];
  machinePools: { bootstrapObject: PNode; infrastructureObject: PNode }[];
}

/** The patch request of `patchDesiredState` (src/topology/render.ts), with trees. */
export function buildSlots(bp: Blueprint, cluster: Cluster, desired: DesiredState, variables: DefaultedVariables, trees: DesiredTrees): { slots: Slot[]; globalVariables: Record<string, Json> } {
  const clusterKind = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: cluster.name };
  const slots: Slot[] = [];
  const cpVars = { ...valuesOf(variables.controlPlaneOverrides), builtin: { controlPlane: controlPlaneBuiltin(cluster, desired) } };
  const cpOverrides = { values: variables.controlPlaneOverrides, input: cluster.topology.controlPlane.variables?.overrides ?? [], path: 'spec.topology.controlPlane.variables.overrides' };
  const add = (
    role: PatchTargetRole,
    t: { object: JsonObject; ref: { apiVersion: string; kind: string; name: string } },
    obj: JsonObject,
    tree: PNode,
    inner: boolean,
    item: Omit<PatchRequestItem, 'template' | 'role'>,
    overrides: Slot['overrides'],
  ) => {
    const rt = requestTemplate(t.object, at({ kind: 'template', template: { apiVersion: t.ref.apiVersion, kind: t.ref.kind, name: t.ref.name }, path: '' }), obj, tree, inner);
    slots.push({ role, item: { ...item, role, template: rt.doc }, desired: obj, tree, template: rt.doc, templateTree: rt.tree, patches: [], overrides });
  };
  if (desired.infrastructureCluster && bp.infrastructureCluster && trees.infrastructureCluster) {
    add('InfrastructureCluster', bp.infrastructureCluster, desired.infrastructureCluster, trees.infrastructureCluster, true, { holder: { ...clusterKind, fieldPath: 'spec.infrastructureRef' }, variables: {} }, { values: [], input: [], path: '' });
  }
  add('ControlPlane', bp.controlPlane, desired.controlPlane, trees.controlPlane, true, { holder: { ...clusterKind, fieldPath: 'spec.controlPlaneRef' }, variables: cpVars }, cpOverrides);
  if (desired.controlPlaneMachineTemplate && bp.controlPlaneMachineInfrastructure && trees.controlPlaneMachineTemplate) {
    add(
      'ControlPlaneMachineTemplate',
      bp.controlPlaneMachineInfrastructure,
      desired.controlPlaneMachineTemplate,
      trees.controlPlaneMachineTemplate,
      false,
      {
        holder: controlPlaneMachineTemplateHolder(bp, desired),
        variables: cpVars,
      },
      cpOverrides,
    );
  }
  desired.machineDeployments.forEach((md, i) => {
    const holder = { apiVersion: String(md.machineDeployment.apiVersion), kind: 'MachineDeployment', name: String(asObject(md.machineDeployment.metadata)!.name) };
    const values = variables.machineDeploymentOverrides.get(md.topology.name) ?? [];
    const vars = { ...valuesOf(values), builtin: { machineDeployment: machineDeploymentBuiltin(cluster, md) } };
    const common = { className: md.topology.class, topologyName: md.topology.name, variables: vars };
    const overrides = { values, input: md.topology.variables?.overrides ?? [], path: `spec.topology.workers.machineDeployments[${i}].variables.overrides` };
    const t = trees.machineDeployments[i]!;
    add('MachineDeploymentBootstrapTemplate', md.blueprint.bootstrap, md.bootstrapTemplate, t.bootstrapTemplate, false, { holder: { ...holder, fieldPath: 'spec.template.spec.bootstrap.configRef' }, ...common }, overrides);
    add('MachineDeploymentInfrastructureTemplate', md.blueprint.infrastructure, md.infrastructureTemplate, t.infrastructureTemplate, false, { holder: { ...holder, fieldPath: 'spec.template.spec.infrastructureRef' }, ...common }, overrides);
  });
  desired.machinePools.forEach((mp, i) => {
    const holder = { apiVersion: String(mp.machinePool.apiVersion), kind: 'MachinePool', name: String(asObject(mp.machinePool.metadata)!.name) };
    const values = variables.machinePoolOverrides.get(mp.topology.name) ?? [];
    const vars = { ...valuesOf(values), builtin: { machinePool: machinePoolBuiltin(cluster, mp) } };
    const common = { className: mp.topology.class, topologyName: mp.topology.name, variables: vars };
    const overrides = { values, input: mp.topology.variables?.overrides ?? [], path: `spec.topology.workers.machinePools[${i}].variables.overrides` };
    const t = trees.machinePools[i]!;
    add('MachinePoolBootstrapTemplate', mp.blueprint.bootstrap, mp.bootstrapObject, t.bootstrapObject, true, { holder: { ...holder, fieldPath: 'spec.template.spec.bootstrap.configRef' }, ...common }, overrides);
    add('MachinePoolInfrastructureTemplate', mp.blueprint.infrastructure, mp.infrastructureObject, t.infrastructureObject, true, { holder: { ...holder, fieldPath: 'spec.template.spec.infrastructureRef' }, ...common }, overrides);
  });
  const globalVariables: Record<string, Json> = { ...valuesOf(variables.cluster), builtin: { cluster: clusterBuiltin(cluster, desired, bp.cc.namespace) } };
  return { slots, globalVariables };
}

// ------------------------------------------------------------------ variables a value reads

/**
 * Variable references of a Go template: `.name…` / `$.name…` chains not preceded by an
 * identifier, `)` or `]`, and `index . "name"`. A heuristic (no scoping of `range`/`with`);
 * callers keep only names that exist.
 */
export function templateReferences(source: string): string[] {
  const out = new Set<string>();
  const chain = /(^|[^\w)\]$])\$?\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/g;
  for (const m of source.matchAll(chain)) out.add(m[2]!);
  for (const m of source.matchAll(/\bindex\s+\$?\.\s+"([^"]+)"/g)) out.add(m[1]!);
  return [...out];
}

export interface VariableContext {
  bp: Blueprint;
  /** The Cluster as written (variables before defaulting). */
  cluster: Cluster;
  variables: DefaultedVariables;
}

function variableUse(vc: VariableContext, slot: Slot, ref: string, vars: Record<string, Json>): VariableUse | undefined {
  const name = ref.split('.')[0]!.replace(/\[.*$/, '');
  if (!Object.prototype.hasOwnProperty.call(vars, name)) return undefined;
  if (name === 'builtin') {
    const parts = ref.split('.');
    // Keep builtin paths to their documented depth (builtin.<part>.<field>[.<sub>…]).
    const r = lookupVariable(vars, parseVariablePath(parts.join('.')));
    if (!r.ok) return undefined;
    return { name: ref, value: r.value, defaulted: false };
  }
  const value = vars[name] as Json;
  const def = vc.bp.variables.byName.get(name);
  const schemaPath = def ? `${def.definition.fieldPath}.schema.openAPIV3Schema` : undefined;
  const fromList = (values: ClusterVariable[], input: ClusterVariable[], path: string): VariableUse | undefined => {
    if (!values.some((v) => v.name === name)) return undefined;
    const k = input.findIndex((v) => v.name === name);
    const defaulted = k < 0 || canonicalJson(input[k]!.value ?? null) !== canonicalJson(value);
    const use: VariableUse = { name, value, defaulted };
    if (k >= 0) use.from = `${path}[${k}].value`;
    if (defaulted && schemaPath) use.defaultFrom = k < 0 ? `${schemaPath}.default` : schemaPath;
    return use;
  };
  return (
    fromList(slot.overrides.values, slot.overrides.input, slot.overrides.path) ??
    fromList(vc.variables.cluster, vc.cluster.topology.variables ?? [], 'spec.topology.variables') ?? { name, value, defaulted: false }
  );
}

function usesOf(vc: VariableContext, slot: Slot, refs: string[], vars: Record<string, Json>): VariableUse[] {
  const out: VariableUse[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const use = variableUse(vc, slot, ref, vars);
    if (use && !seen.has(use.name)) {
      seen.add(use.name);
      out.push(use);
    }
  }
  return out;
}

// ------------------------------------------------------------------ replay

function opSource(vc: VariableContext, slot: Slot, patch: CompiledPatch & { kind: 'inline' }, defIndex: number, op: CompiledOp, vars: Record<string, Json>, enabledIfVariables: VariableUse[] | undefined): PatchSource {
  const raw = vc.bp.cc.patches[patch.index]?.definitions?.[defIndex]?.jsonPatches?.[op.index];
  const s: PatchSource = { kind: 'patch', patch: patch.name, patchIndex: patch.index, definitionIndex: defIndex, jsonPatchIndex: op.index, op: op.op, opPath: op.path };
  if (patch.enabledIf !== undefined) {
    s.enabledIf = patch.enabledIf.source;
    s.enabledIfResult = true;
    if (enabledIfVariables && enabledIfVariables.length > 0) s.enabledIfVariables = enabledIfVariables;
  }
  if (raw?.valueFrom) {
    const vf: { variable?: string; template?: string } = {};
    if (raw.valueFrom.variable) vf.variable = raw.valueFrom.variable;
    if (raw.valueFrom.template) vf.template = raw.valueFrom.template;
    s.valueFrom = vf;
  }
  const refs = op.value.kind === 'variable' ? [op.value.path.raw] : op.value.kind === 'template' ? templateReferences(op.value.template.source) : [];
  const uses = usesOf(vc, slot, refs, vars);
  if (uses.length > 0) s.variables = uses;
  return s;
}

function followOp(slot: Slot, op: CompiledOp, before: JsonObject, source: PatchSource): void {
  const r = resolvePointer(before, op.path);
  if (!r) return;
  const full = [...r.parent, r.last];
  // After each applied patch only spec, metadata.labels and metadata.annotations are kept (§7.6).
  const kept = full[0] === 'spec' || (full[0] === 'metadata' && (full[1] === 'labels' || full[1] === 'annotations'));
  if (!kept) return;
  const sub = fixedNode(source);
  if (op.op === 'add') {
    if (r.parentIsArray) insertAt(slot.templateTree, before, r.parent, r.last as number, sub);
    else setAt(slot.templateTree, before, full, sub);
  } else if (op.op === 'replace') {
    setAt(slot.templateTree, before, full, sub);
  } else if (op.op === 'remove') {
    removeAt(slot.templateTree, before, full);
  }
}

/** Replays every inline patch, operation by operation; slots end up holding the patched templates and trees. */
export function replayPatches(vc: VariableContext, slots: Slot[], globalVariables: Record<string, Json>, clusterRef: ObjectRef): Result[] {
  const bp = vc.bp;
  const ctx = { inlineVariableNames: bp.inlineVariables, clusterRef, classRef: bp.classRef };
  const vars = slots.map((s) => mergeVariables(globalVariables, s.item.variables, bp.inlineVariables));
  for (const patch of bp.patches.patches) {
    if (patch.kind !== 'inline') continue;
    // Generate phase: which definitions match each item, and whether the patch is enabled for it.
    const active: (Set<number> | undefined)[] = [];
    const enabledIfUses: (VariableUse[] | undefined)[] = [];
    slots.forEach((slot, n) => {
      const defs = patch.definitions.filter((d) => matchesSelector(slot.item, d.selector, slot.template)).map((d) => d.index);
      if (defs.length === 0) return;
      let enabled = true;
      const evaluation: PatchEvaluation = { patch: patch.name, patchIndex: patch.index, definitions: defs, enabled };
      if (patch.enabledIf !== undefined) {
        const r = renderTemplate(patch.enabledIf, vars[n]!);
        enabled = r.ok && r.value === true;
        evaluation.enabled = enabled;
        evaluation.enabledIf = patch.enabledIf.source;
        const uses = usesOf(vc, slot, templateReferences(patch.enabledIf.source), vars[n]!);
        if (uses.length > 0) evaluation.enabledIfVariables = uses;
        enabledIfUses[n] = uses;
      }
      slot.patches.push(evaluation);
      if (enabled) active[n] = new Set(defs);
    });
    for (const def of patch.definitions) {
      for (const op of def.ops) {
        const single: CompiledPatches = {
          classRef: bp.patches.classRef,
          patches: [{ kind: 'inline', index: patch.index, name: patch.name, enabledIf: patch.enabledIf, definitions: [{ index: def.index, selector: def.selector, ops: [op] }] }],
        };
        const out = applyPatches(single, { globalVariables, items: slots.map((s) => ({ ...s.item, template: s.template })) }, ctx);
        if (out.failed) return out.results.filter((r) => r.severity === 'error');
        slots.forEach((slot, n) => {
          const before = slot.template;
          if (active[n]?.has(def.index)) followOp(slot, op, before, opSource(vc, slot, patch, def.index, op, vars[n]!, enabledIfUses[n]));
          slot.template = out.templates[n]!;
        });
      }
    }
  }
  return [];
}

// ------------------------------------------------------------------ write-back (§7.6)
// Same field tables and lookups as the patch engine's write-back; here each copy also carries sources.


/** SetNestedField on the document and the tree together; false when an intermediate is not an object. */
function nestedSet(obj: JsonObject, tree: PNode, path: Path, value: Json, sub: PNode): boolean {
  let m = obj;
  for (const f of path.slice(0, -1)) {
    if (Object.prototype.hasOwnProperty.call(m, f)) {
      const next = m[f];
      if (!isObject(next)) return false;
      m = next;
    } else {
      m = m[f] = {};
    }
  }
  setAt(tree, obj, path, sub);
  m[path[path.length - 1]!] = value;
  return true;
}

/** The desired object after write-back, with its tree (mirrors writeBackPatchedTemplate). */
export function writeBack(slot: Slot): { object: JsonObject; tree: PNode } {
  const preserve = slot.role === 'ControlPlane' ? [...CONTROL_PLANE_PRESERVED, ...ALWAYS_PRESERVED] : ALWAYS_PRESERVED;
  const fields = isTemplateRole(slot.role) ? TEMPLATE_FIELDS : OBJECT_FIELDS;
  const preserved: { path: Path; value: Json; sub: PNode }[] = [];
  for (const path of preserve) {
    const r = nestedGet(slot.desired, path);
    if (r.found) preserved.push({ path, value: r.value, sub: extract(slot.tree, path) });
  }
  const object = structuredClone(slot.desired);
  const tree = cloneNode(slot.tree);
  const unchanged = () => ({ object: structuredClone(slot.desired), tree: cloneNode(slot.tree) });
  for (const [src, dest] of fields) {
    const r = nestedGet(slot.template, src);
    if (!r.found) continue;
    if (!nestedSet(object, tree, dest, structuredClone(r.value), extract(slot.templateTree, src))) return unchanged();
  }
  for (const p of preserved) {
    if (!nestedSet(object, tree, p.path, structuredClone(p.value), p.sub)) return unchanged();
  }
  return { object, tree };
}

