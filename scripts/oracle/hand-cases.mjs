// Hand-written cases for rules known to differ between CAPI versions or between CAPI and the
// product, each small enough to be its own reproduction. They use the generated kinds (and their
// CRDs, generate.mjs), so they need nothing outside the repository.
import { KINDS } from './generate.mjs';

const ref = (k, name) => ({ apiVersion: `${k.group}/${k.version}`, kind: k.kind, name });
const template = (k, name, ns) => ({ apiVersion: `${k.group}/${k.version}`, kind: k.kind, metadata: { name, namespace: ns }, spec: { template: { spec: {} } } });

function v1beta1Class(ns, variables) {
  return [
    template(KINDS.infraCluster, 'infra', ns),
    template(KINDS.controlPlane, 'cp', ns),
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'ClusterClass',
      metadata: { name: 'class', namespace: ns },
      spec: { infrastructure: { ref: ref(KINDS.infraCluster, 'infra') }, controlPlane: { ref: ref(KINDS.controlPlane, 'cp') }, variables },
    },
  ];
}

function v1beta2Class(ns, workers = {}) {
  return [
    template(KINDS.infraCluster, 'infra', ns),
    template(KINDS.controlPlane, 'cp', ns),
    template(KINDS.machine, 'machines', ns),
    template(KINDS.bootstrap, 'bootstrap', ns),
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'ClusterClass',
      metadata: { name: 'class', namespace: ns },
      spec: {
        infrastructure: { templateRef: ref(KINDS.infraCluster, 'infra') },
        controlPlane: { templateRef: ref(KINDS.controlPlane, 'cp') },
        workers: { machineDeployments: [{ class: 'md', bootstrap: { templateRef: ref(KINDS.bootstrap, 'bootstrap') }, infrastructure: { templateRef: ref(KINDS.machine, 'machines') } }], ...workers },
      },
    },
  ];
}

export const HAND_CASES = [
  {
    name: 'v1beta1-variable-without-required',
    // Up to CAPI v1.10 a webhook defaulted `required: false`; since v1.11 the ClusterClass CRD
    // requires the field in every version (the API server refuses the class).
    objects: (ns) => [
      ...v1beta1Class(ns, [{ name: 'region', schema: { openAPIV3Schema: { type: 'string', default: 'eu' } } }]),
      { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', metadata: { name: 'c1', namespace: ns }, spec: { topology: { class: 'class', version: 'v1.34.2' } } },
    ],
  },
  {
    name: 'v1beta2-variable-without-required',
    objects: (ns) => {
      const objs = v1beta2Class(ns);
      objs.at(-1).spec.variables = [{ name: 'region', schema: { openAPIV3Schema: { type: 'string', default: 'eu' } } }];
      return [...objs, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: ns }, spec: { topology: { classRef: { name: 'class' }, version: 'v1.34.2' } } }];
    },
  },
  {
    name: 'topology-taints',
    // Taints on a MachineDeployment topology: no such field in v1.12's CRD; from v1.13 the
    // Cluster webhook refuses them while the MachineTaintPropagation gate is off (its default).
    objects: (ns) => [
      ...v1beta2Class(ns),
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: 'c1', namespace: ns },
        spec: { topology: { classRef: { name: 'class' }, version: 'v1.34.2', workers: { machineDeployments: [{ class: 'md', name: 'md-0', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule', propagation: 'Always' }] }] } } },
      },
    ],
  },
  {
    name: 'version-with-build-metadata',
    // blang semver accepts build metadata; every version renders the Cluster at that version.
    objects: (ns) => [...v1beta2Class(ns), { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: ns }, spec: { topology: { classRef: { name: 'class' }, version: 'v1.34.2+rke2r1', workers: { machineDeployments: [{ class: 'md', name: 'md-0', replicas: 1 }] } } } }],
  },
  {
    name: 'metadata-and-schema-errors',
    // The API server validates a custom resource's metadata and its schema in one pass
    // (apiextensions-apiserver pkg/registry/customresource/validator.go Validate) and lists every
    // invalid field: an invalid name and label key next to a topology name the CRD's pattern refuses.
    objects: (ns) => [
      ...v1beta2Class(ns),
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'C1', namespace: ns, labels: JSON.parse('{"__proto__": "x", "ok": "fine"}') }, spec: { topology: { classRef: { name: 'class' }, version: 'v1.34.2', workers: { machineDeployments: [{ class: 'md', name: 'md_0' }] } } } },
    ],
  },
  {
    name: 'external-patch-without-runtime-sdk',
    // RuntimeSDK is off by default in v1.12-v1.14 (feature/feature.go): the ClusterClass webhook
    // refuses an external patch (core/webhooks/admission/patch_validation.go `validatePatches`).
    objects: (ns) => {
      const objs = v1beta2Class(ns);
      objs.at(-1).spec.patches = [{ name: 'lb', external: { generatePatchesExtension: 'generate-patches.lb-extension' } }];
      return [...objs, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: ns }, spec: { topology: { classRef: { name: 'class' }, version: 'v1.34.2' } } }];
    },
  },
  {
    name: 'crd-number-bounds',
    // kube-openapi's numberValidator (pkg/validation/validate/validator.go) compares an int64 with
    // its float64 bounds truncated to int64 (values.go MinimumNativeType, MaximumNativeType,
    // MultipleOfNativeType); from the release CAPI v1.14 builds with it knows the node's type and
    // format, and a bound out of that range is an error of its own, compared as float64. The
    // fields are generate.mjs's NUMBER_FIELDS.
    objects: (ns) => {
      const objs = v1beta2Class(ns);
      objs[0].spec.template.spec = { numbers: { ratio: 1, step: 5, wide: 7, count: 9007199254740993n, weight: 1e39 } };
      return [...objs, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: ns }, spec: { topology: { classRef: { name: 'class' }, version: 'v1.34.2' } } }];
    },
  },
];

export const handCase = (name) => HAND_CASES.find((c) => c.name === name);
