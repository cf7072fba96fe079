/**
 * The control plane object (CAPI exp/topology/desiredstate/desired_state.go `computeInfrastructureCluster`; CAPI `computeControlPlane` in
 * exp/topology/desiredstate/desired_state.go): the template's object with the class and topology
 * metadata, the machine template reference and the machine fields at the paths of its contract
 * (CAPI internal/contract/version.go `GetContractVersionForVersion`), replicas, rollout, and the version upgrade sequencing chose.
 */
import type { Cluster, Json, JsonObject } from '../core/model.js';
import type { ContractVersion } from '../krm/config.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { asObject, asStringMap, cloneJson, sortedMap } from '../core/json.js';
import { formatGoDuration } from '../core/go/duration.js';
import type { Recorder } from '../provenance/recorder.js';
import type { Path } from '../core/path.js';
import { CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL, groupOf, mergeMaps } from '../core/labels.js';
import { TIMEOUT_NAMES, identityOf, setIn, templateToObject } from './objects.js';
import {
  builtin,
  classMapLayer,
  clusterMapLayer,
  durationNote,
  eitherSource,
  fixedLabels,
  fromCluster,
  namingDetail,
  recordLayers,
  versionSource,
  type Layer,
} from './origins.js';
import { TopologyNames } from './types.js';

const CONTRACT_PATHS = {
  v1beta2: {
    infrastructureRef: ['spec', 'machineTemplate', 'spec', 'infrastructureRef'],
    readinessGates: ['spec', 'machineTemplate', 'spec', 'readinessGates'],
    taints: ['spec', 'machineTemplate', 'spec', 'taints'],
    timeout: (n: string) => ['spec', 'machineTemplate', 'spec', 'deletion', `${n}Seconds`],
  },
  v1beta1: {
    infrastructureRef: ['spec', 'machineTemplate', 'infrastructureRef'],
    readinessGates: ['spec', 'machineTemplate', 'readinessGates'],
    taints: ['spec', 'machineTemplate', 'taints'],
    timeout: (n: string) => ['spec', 'machineTemplate', n],
  },
} as const;

export function controlPlaneContractPaths(contract: ContractVersion) {
  return CONTRACT_PATHS[contract];
}

export const TOPOLOGY_CP = 'spec.topology.controlPlane';

/** The control plane's merged metadata and, when recording, the layers it was merged from (topology over class). */
interface ControlPlaneMetadata {
  labels: Record<string, string>;
  annotations: Record<string, string> | undefined;
  layers?: { rec: Recorder; labelLayers: Layer[]; annotationLayers: Layer[] };
}

/**
 * CAPI `computeControlPlane`, with a machine infrastructure in the class: the reference to the
 * machine template clone at the contract's path, and the control plane's metadata merged over
 * the template's machineTemplate.metadata.
 */
function setMachineTemplate(
  cp: JsonObject,
  bp: Blueprint,
  cluster: Cluster,
  templateName: string,
  { labels, annotations, layers }: ControlPlaneMetadata,
  rec?: Recorder,
): void {
  const mi = bp.controlPlaneMachineInfrastructure;
  if (!mi) return;
  const paths = CONTRACT_PATHS[bp.controlPlaneContract];
  const ref: JsonObject =
    bp.controlPlaneContract === 'v1beta2'
      ? { apiGroup: groupOf(mi.ref.apiVersion), kind: mi.ref.kind, name: templateName }
      : { apiVersion: mi.ref.apiVersion, kind: mi.ref.kind, name: templateName, namespace: cluster.namespace };
  setIn(cp, paths.infrastructureRef, ref);
  rec?.set(
    cp,
    paths.infrastructureRef,
    builtin(
      `reference to the control plane machine template clone "${templateName}" (${mi.ref.kind} from ClusterClass ${mi.ref.fieldPath})`,
    ),
  );
  // Topology/class/fixed labels win over what the template already had in machineTemplate.metadata.
  const mtMeta = asObject(asObject(asObject(cp.spec)?.machineTemplate)?.metadata);
  const mtLabels = sortedMap(mergeMaps(labels, asStringMap(mtMeta?.labels)));
  const mtAnnotations = sortedMap(mergeMaps(annotations, asStringMap(mtMeta?.annotations)));
  const metadata: JsonObject = { ...mtMeta };
  delete metadata.labels;
  delete metadata.annotations;
  if (mtLabels) metadata.labels = mtLabels;
  if (mtAnnotations) metadata.annotations = mtAnnotations;
  setIn(cp, ['spec', 'machineTemplate', 'metadata'], metadata);
  // The template's own keys keep the origin of the copied spec; the merged layers override them.
  if (layers) {
    const meta: Path = ['spec', 'machineTemplate', 'metadata'];
    recordLayers(
      cp,
      [...meta, 'labels'],
      [...layers.labelLayers, fixedLabels(layers.rec, [CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL])],
    );
    recordLayers(cp, [...meta, 'annotations'], layers.annotationLayers);
  }
}

/** The machine fields of the control plane's machine template, topology over class, at the contract's paths: readiness gates, taints, deletion timeouts. */
function setMachineFields(
  cp: JsonObject,
  bp: Blueprint,
  topo: Cluster['topology']['controlPlane'],
  rec?: Recorder,
): void {
  const cls = bp.cc.controlPlane;
  const paths = CONTRACT_PATHS[bp.controlPlaneContract];
  const gates = topo.readinessGates ?? cls.readinessGates;
  if (gates) {
    setIn(cp, paths.readinessGates, cloneJson(gates as unknown as Json));
    rec?.set(
      cp,
      paths.readinessGates,
      eitherSource(!!topo.readinessGates, `${TOPOLOGY_CP}.readinessGates`, 'spec.controlPlane.readinessGates'),
    );
  }
  const taints = topo.taints ?? cls.taints;
  if (taints) {
    setIn(cp, paths.taints, cloneJson(taints as unknown as Json));
    rec?.set(cp, paths.taints, eitherSource(!!topo.taints, `${TOPOLOGY_CP}.taints`, 'spec.controlPlane.taints'));
  }
  // Contract v1beta1 holds the timeouts as Go durations, v1beta2 as seconds.
  const duration = bp.controlPlaneContract === 'v1beta1';
  for (const n of TIMEOUT_NAMES) {
    const topologySecs = topo.deletion?.[`${n}Seconds`];
    const fromTopology = topologySecs !== undefined;
    const secs = topologySecs ?? cls.deletion?.[`${n}Seconds`];
    if (secs === undefined) continue;
    setIn(cp, paths.timeout(n), duration ? formatGoDuration(secs) : secs);
    rec?.set(
      cp,
      paths.timeout(n),
      eitherSource(
        fromTopology,
        `${TOPOLOGY_CP}.deletion.${n}Seconds`,
        `spec.controlPlane.deletion.${n}Seconds`,
        durationNote(duration),
      ),
    );
  }
}

/** CAPI `computeControlPlane`. */
export function computeControlPlane(
  bp: Blueprint,
  cluster: Cluster,
  names: TopologyNames,
  kubernetesVersion: string,
  reason: string | undefined,
  rec?: Recorder,
): JsonObject {
  const topo = cluster.topology.controlPlane;
  const cls = bp.cc.controlPlane;
  const identity = identityOf(cluster);
  const labels = {
    ...mergeMaps(topo.metadata?.labels, cls.metadata?.labels),
    [CLUSTER_NAME_LABEL]: cluster.name,
    [TOPOLOGY_OWNED_LABEL]: '',
  };
  const annotations = mergeMaps(topo.metadata?.annotations, cls.metadata?.annotations);
  // mergeMaps: the topology's metadata wins over the class's.
  const layers = rec && {
    rec,
    labelLayers: [
      classMapLayer(rec, cls.metadata?.labels, 'spec.controlPlane.metadata.labels'),
      clusterMapLayer(rec, topo.metadata?.labels, `${TOPOLOGY_CP}.metadata.labels`),
    ],
    annotationLayers: [
      classMapLayer(rec, cls.metadata?.annotations, 'spec.controlPlane.metadata.annotations'),
      clusterMapLayer(rec, topo.metadata?.annotations, `${TOPOLOGY_CP}.metadata.annotations`),
    ],
  };
  const cp = templateToObject(
    {
      template: bp.controlPlane.object,
      name: names.controlPlane,
      cluster: identity,
      labels,
      ...(annotations ? { annotations } : {}),
      ...(layers ? { labelLayers: layers.labelLayers, annotationLayers: layers.annotationLayers } : {}),
    },
    rec,
  );
  rec?.set(
    cp,
    ['metadata', 'name'],
    builtin(
      namingDetail(
        'ControlPlane',
        cls.naming?.template,
        'spec.controlPlane.naming.template',
        '{{ .cluster.name }}-{{ .random }}',
      ),
    ),
  );
  const spec = asObject(cp.spec) ?? {};
  cp.spec = spec;
  if (names.controlPlaneMachineTemplate)
    setMachineTemplate(
      cp,
      bp,
      cluster,
      names.controlPlaneMachineTemplate,
      { labels, annotations, ...(layers ? { layers } : {}) },
      rec,
    );
  if (topo.replicas !== undefined) {
    spec.replicas = topo.replicas;
    rec?.set(cp, ['spec', 'replicas'], fromCluster(`${TOPOLOGY_CP}.replicas`));
  }
  if (topo.rollout?.after) {
    setIn(cp, ['spec', 'rollout', 'after'], topo.rollout.after);
    rec?.set(cp, ['spec', 'rollout', 'after'], fromCluster(`${TOPOLOGY_CP}.rollout.after`));
  }
  setMachineFields(cp, bp, topo, rec);
  spec.version = kubernetesVersion;
  rec?.set(cp, ['spec', 'version'], versionSource(cluster, kubernetesVersion, reason));
  return cp;
}
