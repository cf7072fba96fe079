/**
 * Folding patched templates back into the desired objects (CAPI core/reconcilers/topology/cluster/patches/engine.go `updateDesiredState`, CAPI core/reconcilers/topology/cluster/patches/engine.go `updateDesiredState`),
 * mirroring CAPI's `updateDesiredState` → `patchObject` / `patchTemplate` → `CopyFields`:
 *
 * 1. remember the preserved fields that exist in the pre-patch desired object;
 * 2. copy the listed fields from the patched template (each only if present there);
 * 3. put the preserved fields back.
 *
 * Lookups follow unstructured.NestedFieldNoCopy (an intermediate null or non-object means
 * "absent"; a final null is present); writes follow unstructured.SetNestedField (missing
 * intermediates are created, a non-object intermediate is an error and the object stays as it
 * was). The result is a fresh object: nothing from the inputs is aliased.
 */
import { cloneJson } from '../core/json.js';
import { isObject } from '../core/json.js';
import type { Json, JsonObject } from '../core/model.js';
import type { Recorder } from '../provenance/recorder.js';
import type { PatchTargetRole } from './types.js';

/** Object keys from the root; write-back never indexes into a list (unlike core/path.ts's Path). */
type Keys = readonly string[];

/** patchObject: template → object (InfraCluster, ControlPlane, MachinePool bootstrap/infra). */
const OBJECT_FIELDS: readonly (readonly [Keys, Keys])[] = [
  [['spec', 'template', 'spec'], ['spec']],
  [
    ['spec', 'template', 'metadata', 'labels'],
    ['metadata', 'labels'],
  ],
  [
    ['spec', 'template', 'metadata', 'annotations'],
    ['metadata', 'annotations'],
  ],
];

/** patchTemplate: template → template (CP machine template, MD bootstrap/infra templates). */
const TEMPLATE_FIELDS: readonly (readonly [Keys, Keys])[] = [
  [
    ['metadata', 'labels'],
    ['metadata', 'labels'],
  ],
  [
    ['metadata', 'annotations'],
    ['metadata', 'annotations'],
  ],
  [
    ['spec', 'template', 'spec'],
    ['spec', 'template', 'spec'],
  ],
  [
    ['spec', 'template', 'metadata', 'labels'],
    ['spec', 'template', 'metadata', 'labels'],
  ],
  [
    ['spec', 'template', 'metadata', 'annotations'],
    ['spec', 'template', 'metadata', 'annotations'],
  ],
];

/** Labels/annotations the topology controller owns; patches can never change or drop them. */
const ALWAYS_PRESERVED: readonly Keys[] = [
  ['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'],
  ['metadata', 'labels', 'topology.cluster.x-k8s.io/owned'],
  ['metadata', 'labels', 'topology.cluster.x-k8s.io/deployment-name'],
  ['metadata', 'labels', 'topology.cluster.x-k8s.io/pool-name'],
  ['metadata', 'annotations', 'cluster.x-k8s.io/cloned-from-name'],
  ['metadata', 'annotations', 'cluster.x-k8s.io/cloned-from-groupkind'],
];

/**
 * ControlPlane fields the topology controller sets itself. CAPI preserves the paths of *both*
 * control-plane contracts regardless of the actual one ("for simplicity", engine.go), so this
 * list is contract-independent.
 */
const CONTROL_PLANE_PRESERVED: readonly Keys[] = [
  ['spec', 'machineTemplate', 'metadata'],
  ['spec', 'machineTemplate', 'readinessGates'], // contract v1beta1
  ['spec', 'machineTemplate', 'spec', 'readinessGates'], // contract v1beta2
  ['spec', 'machineTemplate', 'taints'],
  ['spec', 'machineTemplate', 'spec', 'taints'],
  ['spec', 'machineTemplate', 'infrastructureRef'],
  ['spec', 'machineTemplate', 'spec', 'infrastructureRef'],
  ['spec', 'machineTemplate', 'nodeDrainTimeout'],
  ['spec', 'machineTemplate', 'nodeVolumeDetachTimeout'],
  ['spec', 'machineTemplate', 'nodeDeletionTimeout'],
  ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeDrainTimeoutSeconds'],
  ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeVolumeDetachTimeoutSeconds'],
  ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeDeletionTimeoutSeconds'],
  ['spec', 'replicas'],
  ['spec', 'version'],
  ['spec', 'rollout', 'after'],
];

function isTemplateRole(role: PatchTargetRole): boolean {
  return (
    role === 'ControlPlaneMachineTemplate' ||
    role === 'MachineDeploymentBootstrapTemplate' ||
    role === 'MachineDeploymentInfrastructureTemplate'
  );
}

/** unstructured.NestedFieldNoCopy, reduced to "found or not". */
function nestedGet(obj: Json, path: Keys): { found: true; value: Json } | { found: false } {
  let cur: Json = obj;
  for (const field of path) {
    const next = isObject(cur) && Object.hasOwn(cur, field) ? cur[field] : undefined;
    if (next === undefined) return { found: false };
    cur = next;
  }
  return { found: true, value: cur };
}

/** unstructured.SetNestedField on an object we own. Returns an error text or undefined. */
function nestedSet(obj: JsonObject, path: Keys, value: Json): string | undefined {
  const last = path.at(-1);
  if (last === undefined) return undefined;
  let m = obj;
  for (const [i, field] of path.slice(0, -1).entries()) {
    if (Object.hasOwn(m, field)) {
      const next = m[field];
      if (!isObject(next))
        return `value cannot be set because .${path.slice(0, i + 1).join('.')} is not a map[string]interface{}`;
      m = next;
    } else {
      const created: JsonObject = {};
      m[field] = created;
      m = created;
    }
  }
  m[last] = value;
  return undefined;
}

export interface WriteBackResult {
  object: JsonObject;
  /** Non-empty when a field could not be set; `object` is then the unchanged desired object (copy). */
  errors: string[];
}

/**
 * CAPI core/reconcilers/topology/cluster/patches/engine.go `updateDesiredState` write-back with error reporting. `controlPlaneContract` is accepted for symmetry with the
 * rest of the pipeline but does not change anything: CAPI preserves both contracts' paths.
 * A recorder learns where each field of the result came from: the desired object, the patched
 * template for the copied fields, the desired object again for the preserved ones.
 */
export function writeBackPatchedTemplate(
  role: PatchTargetRole,
  desired: JsonObject,
  patchedTemplate: JsonObject,
  _controlPlaneContract: 'v1beta1' | 'v1beta2',
  rec?: Recorder,
): WriteBackResult {
  const preserve = role === 'ControlPlane' ? [...CONTROL_PLANE_PRESERVED, ...ALWAYS_PRESERVED] : ALWAYS_PRESERVED;
  const fields = isTemplateRole(role) ? TEMPLATE_FIELDS : OBJECT_FIELDS;

  const preserved: { path: Keys; value: Json }[] = [];
  for (const path of preserve) {
    const r = nestedGet(desired, path);
    if (r.found) preserved.push({ path, value: r.value });
  }

  const copyOfDesired = (): JsonObject => {
    const copy = cloneJson(desired);
    rec?.copy(desired, [], copy, []);
    rec?.writtenBack(patchedTemplate, copy);
    return copy;
  };
  const out = copyOfDesired();
  const kind = typeof desired['kind'] === 'string' ? desired['kind'] : 'object';
  const failed = (path: Keys, e: string): WriteBackResult => ({
    object: copyOfDesired(),
    errors: [`failed to apply patch to ${kind}: failed to set field "${path.join('.')}": ${e}`],
  });
  for (const [src, dest] of fields) {
    const r = nestedGet(patchedTemplate, src);
    if (!r.found) continue;
    const e = nestedSet(out, dest, cloneJson(r.value));
    if (e !== undefined) return failed(dest, e);
    rec?.copy(patchedTemplate, src, out, dest);
  }
  for (const p of preserved) {
    const e = nestedSet(out, p.path, cloneJson(p.value));
    if (e !== undefined) return failed(p.path, e);
    rec?.copy(desired, p.path, out, p.path);
  }
  return { object: out, errors: [] };
}

/** CAPI core/reconcilers/topology/cluster/patches/engine.go `updateDesiredState` write-back: the desired object after patching (errors dropped; see writeBackPatchedTemplate). */
export function updateDesiredObject(
  role: PatchTargetRole,
  desired: JsonObject,
  patchedTemplate: JsonObject,
  controlPlaneContract: 'v1beta1' | 'v1beta2',
  rec?: Recorder,
): JsonObject {
  return writeBackPatchedTemplate(role, desired, patchedTemplate, controlPlaneContract, rec).object;
}
