/**
 * Selector matching (CAPI core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go `matchesSelector`), mirroring `matchesSelector` in CAPI's inline
 * generator: apiVersion + kind must match exactly, then any matchResources branch, decided by
 * the holder reference (kind + field path) and, for MD/MP classes, the class name with `*`,
 * `prefix*` and `*suffix` wildcards.
 */
import { isObject } from '../core/json.js';
import type { Json, JsonObject, PatchSelector } from '../core/model.js';
import type { PatchRequestItem } from './types.js';

/** Decides whether a class name (or, from the builtin fallback, any JSON value) is selected. */
type ClassNameMatcher = (className: Json) => boolean;

export interface CompiledSelector {
  readonly apiVersion: string;
  readonly kind: string;
  readonly infrastructureCluster: boolean;
  readonly controlPlane: boolean;
  /** undefined when the branch is not configured (an empty name list matches nothing). */
  readonly machineDeploymentClass: ClassNameMatcher | undefined;
  readonly machinePoolClass: ClassNameMatcher | undefined;
}

/**
 * CAPI tests each name: `*` or equality, then `*suffix`, then `prefix*`. A class that is not a
 * string (only possible through the builtin fallback) is unquoted by CAPI to "", so only `*`
 * selects it.
 */
function compileNames(names: readonly string[]): ClassNameMatcher {
  const tests = names.map((name): ((cls: string) => boolean) => {
    const suffix = name.startsWith('*') ? name.slice(1) : undefined;
    const prefix = name.endsWith('*') ? name.slice(0, -1) : undefined;
    return (cls) =>
      cls === name ||
      (suffix !== undefined && cls.endsWith(suffix)) ||
      (prefix !== undefined && cls.startsWith(prefix));
  });
  const any = names.includes('*');
  return (cls) => any || (typeof cls === 'string' && tests.some((t) => t(cls)));
}

export function compileSelector(selector: PatchSelector): CompiledSelector {
  const mr = selector.matchResources ?? {};
  return {
    apiVersion: selector.apiVersion,
    kind: selector.kind,
    infrastructureCluster: mr.infrastructureCluster === true,
    controlPlane: mr.controlPlane === true,
    machineDeploymentClass: mr.machineDeploymentClass ? compileNames(mr.machineDeploymentClass.names) : undefined,
    machinePoolClass: mr.machinePoolClass ? compileNames(mr.machinePoolClass.names) : undefined,
  };
}

const MACHINE_FIELD_PATHS: ReadonlySet<string> = new Set([
  'spec.template.spec.bootstrap.configRef',
  'spec.template.spec.infrastructureRef',
]);
// Both control-plane contract spellings of the CP machine template reference; CAPI accepts
// either whatever the contract (these field paths are used for nothing else).
const CP_MACHINE_FIELD_PATHS: ReadonlySet<string> = new Set([
  'spec.machineTemplate.infrastructureRef',
  'spec.machineTemplate.spec.infrastructureRef',
]);

/**
 * `builtin.<part>.class` of the item variables, as `GetVariableValue` finds it: undefined unless
 * `builtin` and `builtin.<part>` are objects holding the key; then its value, whatever its type.
 */
function builtinClass(variables: Record<string, Json>, part: 'machineDeployment' | 'machinePool'): Json | undefined {
  const b = variables['builtin'];
  const p = isObject(b) && Object.hasOwn(b, part) ? b[part] : undefined;
  return isObject(p) && Object.hasOwn(p, 'class') ? p['class'] : undefined;
}

/** `template` is the item's current (possibly already patched) document; apiVersion/kind never change. */
export function matchesSelector(
  item: PatchRequestItem,
  s: CompiledSelector,
  template: JsonObject = item.template,
): boolean {
  if (template['apiVersion'] !== s.apiVersion || template['kind'] !== s.kind) return false;
  const { kind, fieldPath } = item.holder;

  if (s.infrastructureCluster && kind === 'Cluster' && fieldPath === 'spec.infrastructureRef') return true;

  if (s.controlPlane) {
    if (kind === 'Cluster' && fieldPath === 'spec.controlPlaneRef') return true;
    if (CP_MACHINE_FIELD_PATHS.has(fieldPath)) return true;
  }

  if (s.machineDeploymentClass && kind === 'MachineDeployment' && MACHINE_FIELD_PATHS.has(fieldPath)) {
    const cls = item.className ?? builtinClass(item.variables, 'machineDeployment');
    if (cls !== undefined && s.machineDeploymentClass(cls)) return true;
  }

  if (s.machinePoolClass && kind === 'MachinePool' && MACHINE_FIELD_PATHS.has(fieldPath)) {
    const cls = item.className ?? builtinClass(item.variables, 'machinePool');
    if (cls !== undefined && s.machinePoolClass(cls)) return true;
  }

  return false;
}
