/**
 * Rendering one Cluster: validate → variables → names → desired state → patches → what the
 * controller applies (./applied.ts), with the two-pass naming of CAPI internal/topology/names/names.go, made deterministic by src/names/names.ts so
 * rotating template clones are named from their patched content. Pure: the same blueprint and
 * Cluster always give the same objects. With a recorder, the final pass records where every value
 * of the rendered objects came from.
 */
import type { Cluster, JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { defaultAndValidateClusterVariables, type DefaultedVariables } from '../variables/index.js';
import type { Recorder } from '../provenance/recorder.js';
import type { ExternalHooks } from '../extensions/hooks.js';
import { validateClusterDeep, validateClusterTopology } from '../webhooks/cluster.js';
import { objectNameErrors } from '../core/go/k8s-validation.js';
import { computeDesiredState, type DesiredState } from './desired.js';
import { patchDesiredState } from './patching.js';
import { dropIgnoredPaths } from './applied.js';
import {
  controlPlaneKindOf,
  currentStateOf,
  deferredWorkers,
  sequenceUpgrade,
  targetVersions,
  type DeferredWorker,
  type TopologyVersions,
} from './upgrade.js';
import { atHub } from '../api/conversion/index.js';
import { PLACEHOLDER_SUFFIX, contentSuffix, generateStableName, prefixName, stablePrefixName } from '../names/names.js';
import { keyed } from '../core/fixes.js';
import { UpgradePolicy } from '../krm/config.js';
import { CoreVersion, TopologyNames } from './types.js';

export interface RenderedCluster {
  desired: DesiredState;
  /** Cluster-level variables after defaulting (what the mutating webhook writes back). */
  variables: DefaultedVariables;
  /** The Kubernetes version of each object (CAPI exp/topology/desiredstate/upgrade_plan.go `ComputeUpgradePlan`). */
  versions: TopologyVersions;
  /** With `sequenceFrom`: the workers upgrade sequencing holds back on the way from those objects. */
  deferred?: DeferredWorker[];
}

/**
 * A render, or why there is none. `validated` is false when the Cluster defaulting webhook refused
 * it: CAPI's validating webhook, with its update rules (pipeline/update.ts), never ran. `admitted`
 * is true when the webhooks accept the Cluster and only its topology fails to reconcile (names,
 * upgrade plan, patches): CAPI stores such a Cluster, with no control plane reference.
 */
export type ClusterOutcome =
  | { ok: true; rendered: RenderedCluster; results: Result[] }
  | { ok: false; results: Result[]; validated: boolean; admitted: boolean };

/** Rotating clone prefixes (CAPI internal/topology/names/names.go): `<cluster>-` and `<cluster>-<md>-`. */
function rotatingNames(
  cluster: Cluster,
  bp: Blueprint,
  suffixes?: Map<string, string>,
): Pick<TopologyNames, 'controlPlaneMachineTemplate'> & {
  md: Map<string, { bootstrapTemplate: string; infrastructureTemplate: string }>;
} {
  const pick = (key: string) => suffixes?.get(key) ?? PLACEHOLDER_SUFFIX;
  const md = new Map<string, { bootstrapTemplate: string; infrastructureTemplate: string }>();
  for (const t of cluster.topology.workers.machineDeployments) {
    const prefix = `${cluster.name}-${t.name}-`;
    md.set(t.name, {
      bootstrapTemplate: prefixName(prefix, pick(`md/${t.name}/bootstrap`)),
      infrastructureTemplate: prefixName(prefix, pick(`md/${t.name}/infrastructure`)),
    });
  }
  const out: ReturnType<typeof rotatingNames> = { md };
  if (bp.controlPlaneMachineInfrastructure)
    out.controlPlaneMachineTemplate = prefixName(`${cluster.name}-`, pick('cp/machine'));
  return out;
}

/** Names of the objects that never rotate, or the naming-template errors. */
function stableNames(
  bp: Blueprint,
  cluster: Cluster,
  clusterRef: ObjectRef,
): { names?: Omit<TopologyNames, 'controlPlaneMachineTemplate'>; results: Result[] } {
  const results: Result[] = [];
  const base = { namespace: cluster.namespace, clusterName: cluster.name };
  const fail = (what: string, path: string, error: string, on: ObjectRef = bp.classRef) =>
    results.push({
      severity: 'error',
      message: `failed to generate name for ${what}: ${error}`,
      resourceRef: on,
      field: { path },
      tags: { cluster: `${cluster.namespace}/${cluster.name}`, rule: 'naming-template' },
    });
  /** `topologyPath`: the Cluster's MachineDeployment or MachinePool entry, whose name the default naming uses. */
  const gen = (
    what: string,
    path: string,
    input: Parameters<typeof generateStableName>[0],
    topologyPath?: string,
  ): string => {
    const out = generateStableName(input);
    if (!out.ok) {
      fail(what, path, out.error);
      return '';
    }
    // A name the API server would refuse: made by a naming template for this Cluster alone
    // (`{{ if eq .cluster.name "x" }}X{{ end }}`), or from a v1beta1 topology name (its CRD checks
    // only the length). CAPI admits the class (its webhook checks templates with sample names) and
    // the Cluster; names.go `GenerateName` does not validate, so the topology controller's create
    // of the object fails: this Cluster's render fails, at its topology name when it has one.
    const refused = objectNameErrors(out.name);
    if (refused.length > 0) {
      const error = `metadata.name: Invalid value: ${JSON.stringify(out.name)}: ${refused.join(', ')}`;
      fail(what, topologyPath ? `${topologyPath}.name` : 'metadata.name', error, clusterRef);
      return '';
    }
    return out.name;
  };
  const tmpl = (t: string | undefined) => (t !== undefined ? { template: t } : {});
  const names: Omit<TopologyNames, 'controlPlaneMachineTemplate'> = {
    controlPlane: gen('ControlPlane', 'spec.controlPlane.naming.template', {
      ...base,
      role: 'control-plane',
      ...tmpl(bp.cc.controlPlane.naming?.template),
    }),
    machineDeployments: new Map(),
    machinePools: new Map(),
  };
  if (bp.infrastructureCluster) {
    names.infrastructureCluster = gen('InfrastructureCluster', 'spec.infrastructure.naming.template', {
      ...base,
      role: 'infrastructure-cluster',
      ...tmpl(bp.cc.infrastructure?.naming?.template),
    });
  }
  for (const t of cluster.topology.workers.machineDeployments) {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the Cluster webhook rules reject a worker whose class the ClusterClass lacks
    const cls = bp.machineDeployments.get(t.class)!.cls;
    names.machineDeployments.set(t.name, {
      machineDeployment: gen(
        'MachineDeployment',
        `${cls.fieldPath}.naming.template`,
        {
          ...base,
          role: 'machine-deployment',
          topologyName: t.name,
          topologyKey: 'machineDeployment',
          ...tmpl(cls.naming?.template),
        },
        keyed('spec.topology.workers.machineDeployments', t.name),
      ),
      bootstrapTemplate: '',
      infrastructureTemplate: '',
    });
  }
  for (const t of cluster.topology.workers.machinePools) {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the Cluster webhook rules reject a worker whose class the ClusterClass lacks
    const cls = bp.machinePools.get(t.class)!.cls;
    names.machinePools.set(t.name, {
      machinePool: gen(
        'MachinePool',
        `${cls.fieldPath}.naming.template`,
        {
          ...base,
          role: 'machine-pool',
          topologyName: t.name,
          topologyKey: 'machinePool',
          ...tmpl(cls.naming?.template),
        },
        keyed('spec.topology.workers.machinePools', t.name),
      ),
      bootstrapObject: stablePrefixName('mp-bootstrap', cluster.namespace, cluster.name, t.name),
      infrastructureObject: stablePrefixName('mp-infrastructure', cluster.namespace, cluster.name, t.name),
    });
  }
  return results.length > 0 ? { results } : { names, results };
}

function withRotating(
  stable: Omit<TopologyNames, 'controlPlaneMachineTemplate'>,
  rotating: ReturnType<typeof rotatingNames>,
): TopologyNames {
  const names: TopologyNames = { ...stable, machineDeployments: new Map() };
  for (const [k, v] of stable.machineDeployments) names.machineDeployments.set(k, { ...v, ...rotating.md.get(k) });
  if (rotating.controlPlaneMachineTemplate) names.controlPlaneMachineTemplate = rotating.controlPlaneMachineTemplate;
  return names;
}

/**
 * A rotating clone's content suffix, of the clone as stored at the hub version: CAPI compares the
 * current clone with the desired one after the API server's conversion and rotates only on a spec
 * change (core/reconcilers/topology/cluster/reconcile_state.go `reconcileReferencedTemplate`), so
 * a template moved to v1beta2 by `convert` keeps its clones' names.
 */
const storedSuffix = (template: JsonObject): string => contentSuffix(atHub(template));

/** Content suffixes of the rotating clones of a (patched) desired state. */
function rotatingSuffixes(desired: DesiredState): Map<string, string> {
  const out = new Map<string, string>();
  if (desired.controlPlaneMachineTemplate) out.set('cp/machine', storedSuffix(desired.controlPlaneMachineTemplate));
  for (const md of desired.machineDeployments) {
    out.set(`md/${md.topology.name}/bootstrap`, storedSuffix(md.bootstrapTemplate));
    out.set(`md/${md.topology.name}/infrastructure`, storedSuffix(md.infrastructureTemplate));
  }
  return out;
}

export interface RenderClusterOptions {
  coreVersion: CoreVersion;
  /** How a version change reaches the objects; default `control-plane-first` (it needs a current state to differ). */
  upgrade?: UpgradePolicy;
  /** What is known of the Cluster's current objects: an earlier render and/or observed (live) objects. */
  current?: { previous?: readonly JsonObject[]; observed?: readonly JsonObject[] };
  /**
   * The Cluster's objects before a planned change (plan's base): the render stays at the target
   * versions and says which workers sequencing holds back on the way from them.
   */
  sequenceFrom?: readonly JsonObject[];
  /** The Runtime SDK client for external patches and ValidateTopology. */
  extensions?: ExternalHooks;
  /** Learns where every value of the rendered objects came from (provenance); a plain render has none. */
  recorder?: Recorder;
  /**
   * The validating webhook's update rules refuse the Cluster (pipeline/update.ts): its create
   * rules are still reported with them, as `ValidateUpdate` lists both, but nothing is rendered.
   */
  updateRefused?: boolean;
  /**
   * Why the class's own reconcile fails (a template refused): CAPI's webhooks then judge the
   * Cluster without its variables, and the admitted Cluster is not reconciled.
   */
  classUnreconciled?: Result;
}

/**
 * A Cluster of a class whose reconcile fails (status.observedGeneration lags): the defaulting
 * webhook neither defaults nor validates its variables (CAPI v1.14.2 core/webhooks/admission/
 * cluster.go, v1.12/v1.13 internal/webhooks/cluster.go, `Cluster.Default`: `clusterClassNotReconciled`),
 * the validating webhook still judges it against the class, and once admitted its topology is
 * not reconciled (`why`). `updateRefused`: its update rules refuse it (RenderClusterOptions).
 */
function judgedOnly(
  bp: Blueprint,
  input: Cluster,
  clusterRef: ObjectRef,
  why: Result,
  updateRefused: boolean,
): ClusterOutcome {
  const results: Result[] = [
    ...validateClusterTopology(bp, input, clusterRef).results,
    ...validateClusterDeep(input, clusterRef, bp.capi, bp.cc),
  ];
  const admitted = !updateRefused && !results.some((r) => r.severity === 'error');
  if (admitted) results.push(why);
  return { ok: false, results, validated: true, admitted };
}

export function renderCluster(
  bp: Blueprint,
  input: Cluster,
  clusterRef: ObjectRef,
  options: RenderClusterOptions,
): ClusterOutcome {
  if (options.classUnreconciled)
    return judgedOnly(bp, input, clusterRef, options.classUnreconciled, options.updateRefused === true);
  const rec = options.recorder;
  // The Cluster defaulting webhook defaults and validates the variables (CAPI v1.14.2
  // core/webhooks/admission/cluster.go, v1.12.10 and v1.13.6 internal/webhooks/cluster.go,
  // `Cluster.Default` -> `DefaultAndValidateVariables`). Mutating admission runs before the
  // validating webhook, so a refusal there is the only one reported.
  const vars = defaultAndValidateClusterVariables(bp.variables, input, clusterRef, { origins: !!rec });
  if (vars.results.some((r) => r.severity === 'error'))
    return { ok: false, results: vars.results, validated: false, admitted: false };
  const validation = validateClusterTopology(bp, input, clusterRef, rec);
  const results: Result[] = [
    ...vars.results,
    ...validation.results,
    ...validateClusterDeep(input, clusterRef, bp.capi, bp.cc),
  ];
  const admitted = !results.some((r) => r.severity === 'error');
  if (!validation.cluster || options.updateRefused) return { ok: false, results, validated: true, admitted: false };
  const cluster = validation.cluster;
  // Past the webhooks, what fails is the topology's reconcile.
  const unreconciled = { ok: false, results, validated: true, admitted } as const;
  const stable = stableNames(bp, cluster, clusterRef);
  results.push(...stable.results);
  if (results.some((r) => r.severity === 'error') || !stable.names) return unreconciled;
  const current = options.current ? currentStateOf(cluster, controlPlaneKindOf(bp.cc), options.current) : undefined;
  const sequenced = current
    ? sequenceUpgrade(cluster, bp.cc, current, options.upgrade ?? 'control-plane-first', clusterRef)
    : undefined;
  results.push(...(sequenced?.results ?? []));
  if (results.some((r) => r.severity === 'error')) return unreconciled;
  const versions = sequenced?.versions ?? targetVersions(cluster);

  const hasPatches = bp.cc.patches.length > 0;
  // Pass A: placeholder names for rotating clones; their patched content decides the final names.
  const passA = computeDesiredState(
    bp,
    cluster,
    withRotating(stable.names, rotatingNames(cluster, bp)),
    options.coreVersion,
    versions,
  );
  if (hasPatches) {
    const patchResults = patchDesiredState(bp, cluster, clusterRef, passA, vars.variables, options.extensions, false);
    results.push(...patchResults);
    if (patchResults.some((r) => r.severity === 'error')) return unreconciled;
  }
  // Pass B: final names, so builtins and references carry them; what is recorded is this pass.
  const finalNames = withRotating(stable.names, rotatingNames(cluster, bp, rotatingSuffixes(passA)));
  const passB = computeDesiredState(bp, cluster, finalNames, options.coreVersion, versions, rec);
  if (hasPatches) {
    const passBResults = patchDesiredState(
      bp,
      cluster,
      clusterRef,
      passB,
      vars.variables,
      options.extensions,
      true,
      rec,
    );
    const errors = passBResults.filter((r) => r.severity === 'error');
    if (errors.length > 0) return { ...unreconciled, results: [...results, ...errors] };
    // Pass A's warnings are already in; ValidateTopology only runs in pass B.
    results.push(...passBResults.filter((r) => r.tags?.hook === 'ValidateTopology'));
  }
  dropIgnoredPaths(passB.infrastructureCluster, rec);
  dropIgnoredPaths(passB.controlPlane, rec);
  const rendered: RenderedCluster = { desired: passB, variables: vars.variables, versions };
  if (options.sequenceFrom)
    rendered.deferred = deferredWorkers(
      cluster,
      bp.cc,
      options.sequenceFrom,
      options.upgrade ?? 'control-plane-first',
      clusterRef,
    );
  return { ok: true, rendered, results };
}
