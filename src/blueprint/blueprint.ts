/**
 * The blueprint: a ClusterClass with its templates resolved and everything per-class compiled
 * once (variable schemas, patches, contract) — reused by every Cluster of the class, as CAPI's
 * `getBlueprint` does for one reconcile.
 */
import type {
  ClusterClass,
  JsonObject,
  MachineDeploymentClass,
  MachinePoolClass,
  ObjectRef,
  TemplateRef,
} from '../core/model.js';
import type { CapiProfile } from '../core/capi-release.js';
import type { Result } from '../core/result.js';
import type { ContractVersion } from '../krm/config.js';
import {
  compileClassVariables,
  inlineVariableNames,
  variableNamesFrom,
  type CompiledVariables,
  type DiscoveredVariables,
} from '../variables/index.js';
import { normalizeDiscoveredVariables } from '../api/normalize.js';
import type { ExtensionClient } from '../extensions/client.js';
import { compilePatches, type CompiledPatches } from '../patches/index.js';
import type { ContractLookup } from './contract.js';
import { objectKindOf } from '../core/labels.js';
import { classWebhookResults } from '../webhooks/clusterclass.js';
import { clusterClassListCaps } from '../apiserver/crd-caps.js';
import type { SchemaCompiler } from '../variables/openapi.js';

/** Looks up template documents by apiVersion/kind/namespace/name. */
export interface TemplateIndex {
  get(apiVersion: string, kind: string, namespace: string, name: string): JsonObject | undefined;
}

export const templateKey = (apiVersion: string, kind: string, namespace: string, name: string): string =>
  `${apiVersion}\0${kind}\0${namespace}\0${name}`;

interface ResolvedTemplate {
  ref: TemplateRef;
  object: JsonObject;
}

export interface MachineDeploymentBlueprint {
  cls: MachineDeploymentClass;
  bootstrap: ResolvedTemplate;
  infrastructure: ResolvedTemplate;
}

export interface MachinePoolBlueprint {
  cls: MachinePoolClass;
  bootstrap: ResolvedTemplate;
  infrastructure: ResolvedTemplate;
}

export interface Blueprint {
  classRef: ObjectRef;
  /** The CAPI release and feature gates the class was compiled under; its Clusters follow them too. */
  capi: CapiProfile;
  cc: ClusterClass;
  infrastructureCluster?: ResolvedTemplate;
  controlPlane: ResolvedTemplate;
  controlPlaneMachineInfrastructure?: ResolvedTemplate;
  controlPlaneContract: ContractVersion;
  machineDeployments: Map<string, MachineDeploymentBlueprint>;
  machinePools: Map<string, MachinePoolBlueprint>;
  variables: CompiledVariables;
  inlineVariables: Set<string>;
  /** Per external patch, the variables its DiscoverVariables extension defined. */
  externalVariables: Map<string, Set<string>>;
  patches: CompiledPatches;
}

export interface BlueprintOptions {
  /** The CAPI release and feature gates whose rules the class and its Clusters follow. */
  capi: CapiProfile;
  skipExternalPatches: boolean;
  contractOf: ContractLookup;
  /** The Runtime SDK client: DiscoverVariables is called for the class (else external hooks are warned about). */
  extensions?: ExtensionClient;
  /** Shared by the classes of a run: a variable schema several classes define is compiled once. */
  schemas: SchemaCompiler;
}

/**
 * The ClusterClass controller's `reconcileVariables` for external patches: each
 * DiscoverVariables extension is called for the class (with the patch's settings) and its
 * answer read like spec.variables; a failed call makes the class unusable, as VariableDiscovery
 * failing does.
 */
function discoverVariables(
  cc: ClusterClass,
  classRef: ObjectRef,
  extensions: ExtensionClient,
  results: Result[],
): DiscoveredVariables[] {
  const discovered: DiscoveredVariables[] = [];
  cc.patches.forEach((p, i) => {
    const extension = p.external?.discoverVariablesExtension;
    if (!extension) return;
    const path = `spec.patches[${i}].external.discoverVariablesExtension`;
    const tags = { patch: p.name, extension, hook: 'DiscoverVariables' };
    const answer = extensions.discoverVariables(extension, p.external?.settings, classRef);
    if (!answer.ok) {
      results.push({
        severity: 'error',
        message: `failed to discover variables for ClusterClass ${cc.name}: VariableDiscovery failed: failed to call DiscoverVariables for patch ${p.name}: ${answer.error}`,
        resourceRef: classRef,
        field: { path },
        tags,
      });
      return;
    }
    if (answer.ignored !== undefined) {
      results.push({
        severity: 'warning',
        message: `patch "${p.name}": DiscoverVariables call to "${extension}" failed and was ignored (failurePolicy Ignore), as CAPI does: ${answer.ignored}`,
        resourceRef: classRef,
        field: { path },
        tags,
      });
    }
    const read = normalizeDiscoveredVariables(answer.response.variables, classRef, `${p.name}.variables`);
    results.push(...read.results);
    discovered.push({ from: p.name, variables: read.value ?? [] });
  });
  return discovered;
}

/**
 * Builds the blueprint. Returns `blueprint: undefined` when the class cannot be used at all
 * (missing template, invalid definitions); the results say why, and every Cluster of the class
 * then gets an error pointing at them.
 */
export function buildBlueprint(
  cc: ClusterClass,
  classRef: ObjectRef,
  templates: TemplateIndex,
  options: BlueprintOptions,
): { blueprint?: Blueprint; results: Result[] } {
  const refused = clusterClassListCaps(cc, classRef);
  if (refused.length > 0) return { results: refused };
  const results: Result[] = classWebhookResults(cc, classRef, options.capi);
  const resolve = (ref: TemplateRef): ResolvedTemplate | undefined => {
    const object = templates.get(ref.apiVersion, ref.kind, cc.namespace, ref.name);
    if (!object) {
      results.push({
        severity: 'error',
        message: `${ref.kind} "${ref.name}" (${ref.apiVersion}) referenced by ClusterClass "${cc.name}" not found in namespace "${cc.namespace}": add the template to the input`,
        resourceRef: classRef,
        field: { path: ref.fieldPath },
        tags: { rule: 'template-missing' },
      });
      return undefined;
    }
    return { ref, object };
  };

  const infrastructureCluster = cc.infrastructure ? resolve(cc.infrastructure.templateRef) : undefined;
  const controlPlane = resolve(cc.controlPlane.templateRef);
  const cpMachine = cc.controlPlane.machineInfrastructure
    ? resolve(cc.controlPlane.machineInfrastructure.templateRef)
    : undefined;
  const machineDeployments = new Map<string, MachineDeploymentBlueprint>();
  for (const cls of cc.workers.machineDeployments) {
    const bootstrap = resolve(cls.bootstrap.templateRef);
    const infrastructure = resolve(cls.infrastructure.templateRef);
    if (bootstrap && infrastructure && !machineDeployments.has(cls.class))
      machineDeployments.set(cls.class, { cls, bootstrap, infrastructure });
  }
  const machinePools = new Map<string, MachinePoolBlueprint>();
  for (const cls of cc.workers.machinePools) {
    const bootstrap = resolve(cls.bootstrap.templateRef);
    const infrastructure = resolve(cls.infrastructure.templateRef);
    if (bootstrap && infrastructure && !machinePools.has(cls.class))
      machinePools.set(cls.class, { cls, bootstrap, infrastructure });
  }

  const discovered = options.extensions ? discoverVariables(cc, classRef, options.extensions, results) : undefined;
  const compiledVariables = compileClassVariables(cc, classRef, discovered, options.schemas);
  results.push(...compiledVariables.results);
  const compiledPatches = compilePatches(cc, classRef, {
    skipExternalPatches: options.skipExternalPatches,
    extensionsAvailable: options.extensions !== undefined,
  });
  results.push(...compiledPatches.results);

  if (results.some((r) => r.severity === 'error') || !controlPlane) return { results };
  const blueprint: Blueprint = {
    classRef,
    capi: options.capi,
    cc,
    controlPlane,
    // The contract belongs to the control plane's own CRD (KubeadmControlPlane), not its template's.
    controlPlaneContract: options.contractOf(controlPlane.ref.apiVersion, objectKindOf(controlPlane.ref.kind)),
    machineDeployments,
    machinePools,
    variables: compiledVariables.variables,
    inlineVariables: inlineVariableNames(compiledVariables.variables),
    externalVariables: new Map(
      cc.patches.filter((p) => p.external).map((p) => [p.name, variableNamesFrom(compiledVariables.variables, p.name)]),
    ),
    patches: compiledPatches.patches,
  };
  if (infrastructureCluster) blueprint.infrastructureCluster = infrastructureCluster;
  if (cpMachine) blueprint.controlPlaneMachineInfrastructure = cpMachine;
  return { blueprint, results };
}
