/**
 * Selector matching (topology-semantics §7.3), mirroring `matchesSelector` in CAPI's inline
 * generator: apiVersion + kind must match exactly, then any matchResources branch, decided by
 * the holder reference (kind + field path) and, for MD/MP classes, the class name with `*`,
 * `prefix*` and `*suffix` wildcards.
 */
import type { Json, JsonObject, PatchSelector } from '../api/model.js';
import type { PatchRequestItem } from './types.js';

export type ClassNameMatcher = (className: string) => boolean;

export interface CompiledSelector {
  readonly apiVersion: string;
  readonly kind: string;
  readonly infrastructureCluster: boolean;
  readonly controlPlane: boolean;
  /** undefined when the branch is not configured (an empty name list matches nothing). */
  readonly machineDeploymentClass: ClassNameMatcher | undefined;
  readonly machinePoolClass: ClassNameMatcher | undefined;
}

/** CAPI checks each name in order: `*` or equality, then `*suffix`, then `prefix*`. */
function compileNames(names: readonly string[]): ClassNameMatcher {
  const tests: ClassNameMatcher[] = names.map((name) => {
    const suffix = name.startsWith('*') ? name.slice(1) : undefined;
    const prefix = name.endsWith('*') ? name.slice(0, -1) : undefined;
    return (cls) =>
      name === '*' ||
      cls === name ||
      (suffix !== undefined && cls.endsWith(suffix)) ||
      (prefix !== undefined && cls.startsWith(prefix));
  });
  return (cls) => tests.some((t) => t(cls));
}

export function compileSelector(selector: PatchSelector): CompiledSelector {
  const mr = selector.matchResources ?? {};
  return {
    apiVersion: selector.apiVersion,
    kind: selector.kind,
    infrastructureCluster: mr.infrastructureCluster === true,
    controlPlane: mr.controlPlane === true,
    machineDeploymentClass: mr.machineDeploymentClass ? compileNames(mr.machineDeploymentClass.names ?? []) : undefined,
    machinePoolClass: mr.machinePoolClass ? compileNames(mr.machinePoolClass.names ?? []) : undefined,
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

/** `builtin.<part>.class` of the item variables, if it is a string (CAPI reads it from there). */
function builtinClass(variables: Record<string, Json>, part: 'machineDeployment' | 'machinePool'): string | undefined {
  const b = variables['builtin'];
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return undefined;
  const p = Object.hasOwn(b, part) ? b[part] : undefined;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return undefined;
  const c = Object.hasOwn(p, 'class') ? p['class'] : undefined;
  return typeof c === 'string' ? c : undefined;
}

/** `template` is the item's current (possibly already patched) document; apiVersion/kind never change. */
export function matchesSelector(item: PatchRequestItem, s: CompiledSelector, template: JsonObject = item.template): boolean {
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
