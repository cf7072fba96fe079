/**
 * Small hand-written ClusterClass / request builders for the patch engine tests. Test files that
 * mock the template engine (vi.mock) import this module after registering the mock.
 */
import type {
  ClusterClass,
  ClusterClassPatch,
  Json,
  JsonObject,
  ObjectRef,
  PatchDefinition,
} from '../../src/core/model.js';
import { applyPatches, compilePatches, type PatchRequest, type PatchRequestItem } from '../../src/patches/index.js';

export const INFRA_API = 'infrastructure.cluster.x-k8s.io/v1beta1';
export const CP_API = 'controlplane.cluster.x-k8s.io/v1beta2';
export const BOOT_API = 'bootstrap.cluster.x-k8s.io/v1beta2';

export const classRef: ObjectRef = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'ClusterClass',
  name: 'quick-start',
  namespace: 'default',
};
const clusterRef: ObjectRef = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  name: 'c1',
  namespace: 'default',
};

function makeClass(patches: ClusterClassPatch[]): ClusterClass {
  const ref = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, name, fieldPath: 'x' });
  return {
    name: 'quick-start',
    namespace: 'default',
    sourceApiVersion: 'cluster.x-k8s.io/v1beta2',
    metadata: {},
    infrastructure: { templateRef: ref(INFRA_API, 'DevClusterTemplate', 'quick-start-cluster') },
    controlPlane: { templateRef: ref(CP_API, 'KubeadmControlPlaneTemplate', 'quick-start-cp') },
    workers: { machineDeployments: [], machinePools: [] },
    variables: [],
    patches,
  };
}

function tpl(apiVersion: string, kind: string, name: string, spec: JsonObject = {}): JsonObject {
  return {
    apiVersion,
    kind,
    metadata: { name, namespace: 'default', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } },
    spec: { template: { metadata: { labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } }, spec } },
  };
}

export function infraItem(spec: JsonObject = {}): PatchRequestItem {
  return {
    role: 'InfrastructureCluster',
    template: tpl(INFRA_API, 'DevClusterTemplate', 'quick-start-cluster', spec),
    holder: {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      name: 'c1',
      fieldPath: 'spec.infrastructureRef',
    },
    variables: {},
  };
}

export function cpItem(spec: JsonObject = {}, variables: Record<string, Json> = {}): PatchRequestItem {
  return {
    role: 'ControlPlane',
    template: tpl(CP_API, 'KubeadmControlPlaneTemplate', 'quick-start-cp', spec),
    holder: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', fieldPath: 'spec.controlPlaneRef' },
    variables: { builtin: { controlPlane: { name: 'c1-cp', version: 'v1.31.0' } }, ...variables },
  };
}

export function cpMachineItem(fieldPath = 'spec.machineTemplate.spec.infrastructureRef'): PatchRequestItem {
  return {
    role: 'ControlPlaneMachineTemplate',
    template: tpl(INFRA_API, 'DevMachineTemplate', 'quick-start-cp-machine'),
    holder: { apiVersion: CP_API, kind: 'KubeadmControlPlane', name: 'c1-cp', fieldPath },
    variables: { builtin: { controlPlane: { name: 'c1-cp', version: 'v1.31.0' } } },
  };
}

export function mdItems(
  topologyName: string,
  cls: string,
  variables: Record<string, Json> = {},
  withClassName = true,
): PatchRequestItem[] {
  const builtin = { machineDeployment: { class: cls, topologyName, name: `c1-${topologyName}`, version: 'v1.31.0' } };
  const base = {
    ...(withClassName ? { className: cls } : {}),
    topologyName,
    variables: { builtin, ...variables },
  };
  return [
    {
      ...base,
      role: 'MachineDeploymentBootstrapTemplate',
      template: tpl(BOOT_API, 'KubeadmConfigTemplate', `${cls}-bootstrap`),
      holder: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        name: `c1-${topologyName}`,
        fieldPath: 'spec.template.spec.bootstrap.configRef',
      },
    },
    {
      ...base,
      role: 'MachineDeploymentInfrastructureTemplate',
      template: tpl(INFRA_API, 'DevMachineTemplate', `${cls}-infra`),
      holder: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        name: `c1-${topologyName}`,
        fieldPath: 'spec.template.spec.infrastructureRef',
      },
    },
  ];
}

export function mpItems(topologyName: string, cls: string): PatchRequestItem[] {
  const builtin = { machinePool: { class: cls, topologyName, name: `c1-${topologyName}` } };
  const base = { className: cls, topologyName, variables: { builtin } };
  return [
    {
      ...base,
      role: 'MachinePoolBootstrapTemplate',
      template: tpl(BOOT_API, 'KubeadmConfigTemplate', `${cls}-mp-bootstrap`),
      holder: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachinePool',
        name: `c1-${topologyName}`,
        fieldPath: 'spec.template.spec.bootstrap.configRef',
      },
    },
    {
      ...base,
      role: 'MachinePoolInfrastructureTemplate',
      template: tpl(INFRA_API, 'DevMachinePoolTemplate', `${cls}-mp-infra`),
      holder: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachinePool',
        name: `c1-${topologyName}`,
        fieldPath: 'spec.template.spec.infrastructureRef',
      },
    },
  ];
}

export function request(items: PatchRequestItem[], globals: Record<string, Json> = {}): PatchRequest {
  return {
    globalVariables: { builtin: { cluster: { name: 'c1', namespace: 'default' } }, ...globals },
    items,
  };
}

export const ctx = (names: string[] = []) => ({ inlineVariableNames: new Set(names), clusterRef, classRef });

type JsonPatches = PatchDefinition['jsonPatches'];

/** A definition for the InfrastructureCluster template. */
export const infraDef = (jsonPatches: JsonPatches): PatchDefinition => ({
  selector: { apiVersion: INFRA_API, kind: 'DevClusterTemplate', matchResources: { infrastructureCluster: true } },
  jsonPatches,
});

/** A definition for the infrastructure templates of the MachineDeployment classes `names`. */
export const mdInfraDef = (jsonPatches: JsonPatches, names = ['*']): PatchDefinition => ({
  selector: {
    apiVersion: INFRA_API,
    kind: 'DevMachineTemplate',
    matchResources: { machineDeploymentClass: { names } },
  },
  jsonPatches,
});

/** A definition for the ControlPlane template. */
export const cpDef = (jsonPatches: JsonPatches): PatchDefinition => ({
  selector: { apiVersion: CP_API, kind: 'KubeadmControlPlaneTemplate', matchResources: { controlPlane: true } },
  jsonPatches,
});

/** compilePatches over a ClusterClass with these patches. */
export const compileClass = (patches: ClusterClassPatch[], skipExternalPatches = false) =>
  compilePatches(makeClass(patches), classRef, { skipExternalPatches });

/** Compiles `patches` and applies them to `req` with `names` as the inline variables; compile results included. */
export function runPatches(
  patches: ClusterClassPatch[],
  req = request([infraItem()]),
  names: string[] = [],
  skipExternalPatches = false,
) {
  const { patches: compiled, results: compileResults } = compileClass(patches, skipExternalPatches);
  return { ...applyPatches(compiled, req, ctx(names)), compileResults };
}

/** Reads spec.template.spec of a template. */
export const innerSpec = (t: JsonObject): Json => ((t['spec'] as JsonObject)['template'] as JsonObject)['spec']!;
