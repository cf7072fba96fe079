/**
 * The two ways the topology controller turns a ClusterClass template into an object
 * (src/topology/objects.ts): CAPI exp/topology/desiredstate/desired_state.go `templateToObject`
 * (through controllers/external/util.go `GenerateTemplate`) and `templateToTemplate`, the owner
 * reference to the Cluster (internal/topology/ownerrefs `OwnerReferenceTo`) and the references in
 * the holder's API version. Expected values follow those functions (cited per test); the origins
 * are the provenance explain reports (README, explain), checked through an OriginRecorder.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster, JsonObject } from '../../src/core/model.js';
import type { Path } from '../../src/core/path.js';
import { OriginRecorder } from '../../src/provenance/recorder.js';
import {
  buildMetadata,
  clusterOwnerReferences,
  identityOf,
  objectRef,
  templateToObject,
  templateToTemplate,
} from '../../src/topology/objects.js';
import { fixed as fixedSource, sourceLayer } from '../../src/topology/origins.js';

const cluster = { name: 'c1', namespace: 'ns' };
const withUid = { ...cluster, uid: 'u-1' };
const OWNER = [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', uid: 'u-1' }];
const CLONED = {
  'cluster.x-k8s.io/cloned-from-name': 'infra',
  'cluster.x-k8s.io/cloned-from-groupkind': 'DevClusterTemplate.infrastructure.cluster.x-k8s.io',
};
const OWNED = { 'cluster.x-k8s.io/cluster-name': 'c1', 'topology.cluster.x-k8s.io/owned': '' };

const clusterTemplate = (template: JsonObject | undefined, extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DevClusterTemplate',
  metadata: {
    name: 'infra',
    namespace: 'ns',
    labels: { own: 'template-object' },
    annotations: { own: 'template-object' },
  },
  ...(template ? { spec: { template } } : {}),
  ...extra,
});
const machineTemplate = (extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DevMachineTemplate',
  metadata: {
    name: 'machine',
    namespace: 'ns',
    labels: { tl: 'a', 'cluster.x-k8s.io/cluster-name': 'other' },
    annotations: { ta: 'b', 'cluster.x-k8s.io/cloned-from-name': 'stale' },
  },
  spec: { template: { metadata: { labels: { inner: 'kept' } }, spec: { image: 'x' } } },
  ...extra,
});
const TEMPLATE_ID = (kind: string, name: string) => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind,
  name,
});

const fixed = (detail: string) => ({ kind: 'fixed', detail });
// The origins of the values the controller always sets (README, explain).
const NAMESPACE_ORIGIN = fixed('namespace of the Cluster');
const OWNER_ORIGIN = fixed('owner reference to the Cluster (emitted only when the Cluster has metadata.uid)');
const OWNED_ORIGIN = fixed('label marking objects owned by the topology controller');
const CLUSTER_NAME_ORIGIN = fixed('label with the Cluster name, set on every generated object');

/** Each path's recorded origin (undefined: none recorded). */
const expectOrigins = (rec: OriginRecorder, obj: JsonObject, origins: [Path, object | undefined][]) => {
  for (const [path, source] of origins) expect(rec.sourceOf(obj, path), path.join('.')).toEqual(source);
};

describe('identityOf, clusterOwnerReferences (ownerrefs.OwnerReferenceTo) and objectRef', () => {
  const model = (uid?: string) => ({ name: 'c1', namespace: 'ns', ...(uid ? { uid } : {}) }) as unknown as Cluster;

  it('the Cluster identity keeps the uid only when the Cluster has one', () => {
    expect(identityOf(model())).toEqual(cluster);
    expect(identityOf(model('u-1'))).toEqual(withUid);
  });

  it('OwnerReferenceTo: apiVersion cluster.x-k8s.io/v1beta2, kind Cluster, the name and uid; none without a uid (the API server rejects it)', () => {
    expect(clusterOwnerReferences(withUid)).toEqual(OWNER);
    expect(clusterOwnerReferences(cluster)).toBeUndefined();
  });

  it('v1beta2 holders reference by ContractVersionedObjectReference {apiGroup, kind, name}; v1beta1 by ObjectReference with apiVersion and namespace', () => {
    expect(objectRef('v1beta2', 'infrastructure.cluster.x-k8s.io/v1beta2', 'DevCluster', 'n', 'ns')).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'DevCluster',
      name: 'n',
    });
    expect(objectRef('v1beta1', 'infrastructure.cluster.x-k8s.io/v1beta2', 'DevCluster', 'n', 'ns')).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevCluster',
      name: 'n',
      namespace: 'ns',
    });
  });

  it('buildMetadata: empty labels, annotations and owner references are omitted (ObjectMeta json omitempty)', () => {
    expect(buildMetadata('n', 'ns', {}, {}, [])).toStrictEqual({ name: 'n', namespace: 'ns' });
    expect(buildMetadata('n', 'ns', { b: '2', a: '1' }, { z: '' }, OWNER)).toEqual({
      name: 'n',
      namespace: 'ns',
      labels: { a: '1', b: '2' },
      annotations: { z: '' },
      ownerReferences: OWNER,
    });
  });
});

describe('templateToObject (GenerateTemplate): an object from spec.template of the template', () => {
  const inner = {
    metadata: {
      name: 'ignored',
      labels: { tl: 'template', over: 'template', 'topology.cluster.x-k8s.io/owned': 'x' },
      annotations: { ta: 'template', over: 'template' },
    },
    spec: { backend: { docker: {} } },
    extra: [1],
  };

  it('labels: spec.template.metadata.labels, then the caller labels, then cluster-name and owned forced; annotations: the template, the caller, then cloned-from forced', () => {
    const obj = templateToObject({
      template: clusterTemplate(inner),
      name: 'c1-abc',
      cluster,
      labels: { over: 'caller', cl: 'caller' },
      annotations: { over: 'caller', 'cluster.x-k8s.io/cloned-from-name': 'caller' },
    });
    expect(obj).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevCluster',
      metadata: {
        name: 'c1-abc',
        namespace: 'ns',
        labels: { tl: 'template', over: 'caller', cl: 'caller', ...OWNED },
        annotations: { ta: 'template', over: 'caller', ...CLONED },
      },
      spec: { backend: { docker: {} } },
      extra: [1],
    });
    // NestedMap deep-copies spec.template: the object shares nothing with the template.
    expect(obj.spec).not.toBe(inner.spec);
    expect((obj.spec as JsonObject).backend).not.toBe(inner.spec.backend);
  });

  it('a template without spec.template yields an empty object: apiVersion, kind without the Template suffix, metadata', () => {
    expect(
      templateToObject({ template: clusterTemplate(undefined), name: 'c1-abc', cluster, ownerReferences: OWNER }),
    ).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevCluster',
      metadata: { name: 'c1-abc', namespace: 'ns', labels: OWNED, annotations: CLONED, ownerReferences: OWNER },
    });
  });

  it('apiVersion and kind of spec.template win when set; an empty or non-string one is derived from the template (GetAPIVersion/GetKind == "")', () => {
    const given = templateToObject({
      template: clusterTemplate({ apiVersion: 'other.io/v1', kind: 'Other', spec: {} }),
      name: 'n',
      cluster,
    });
    expect([given.apiVersion, given.kind, given.spec]).toEqual(['other.io/v1', 'Other', {}]);
    for (const bad of ['', 5, null]) {
      const derived = templateToObject({
        template: clusterTemplate({ apiVersion: bad, kind: bad }),
        name: 'n',
        cluster,
      });
      expect([derived.apiVersion, derived.kind]).toEqual(['infrastructure.cluster.x-k8s.io/v1beta2', 'DevCluster']);
    }
  });

  it('the status of spec.template is not desired state and is not rendered (the API server ignores status on create)', () => {
    expect(
      templateToObject({ template: clusterTemplate({ spec: {}, status: { ready: true } }), name: 'n', cluster }).status,
    ).toBeUndefined();
  });

  it('cloned-from-groupkind is the bare Kind for a core-group template; a template without name or kind gives empty values', () => {
    const core = templateToObject({
      template: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'p' } },
      name: 'n',
      cluster,
    });
    expect(core.kind).toBe('Pod');
    expect((core.metadata as JsonObject).annotations).toEqual({
      'cluster.x-k8s.io/cloned-from-groupkind': 'PodTemplate',
      'cluster.x-k8s.io/cloned-from-name': 'p',
    });
    const bare = templateToObject({ template: {}, name: 'n', cluster });
    expect(bare.kind).toBe('');
    expect((bare.metadata as JsonObject).annotations).toEqual({
      'cluster.x-k8s.io/cloned-from-groupkind': '',
      'cluster.x-k8s.io/cloned-from-name': '',
    });
  });

  it('explain: each field from the template path it was copied from; namespace, kind, forced labels and annotations, owner reference as fixed values', () => {
    const rec = new OriginRecorder();
    const template = clusterTemplate(inner);
    const callerLayer = sourceLayer(rec, { cl: 'caller' }, (k) => fixedSource(`caller ${k}`));
    const obj = templateToObject(
      {
        template,
        name: 'n',
        cluster,
        labels: { cl: 'caller' },
        annotations: { ca: 'caller' },
        ownerReferences: OWNER,
        labelLayers: [callerLayer],
        annotationLayers: [sourceLayer(rec, ['ca'], () => fixedSource('caller annotation'))],
      },
      rec,
    );
    const from = (path: string) => ({ kind: 'template', template: TEMPLATE_ID('DevClusterTemplate', 'infra'), path });
    expectOrigins(rec, obj, [
      [['spec', 'backend', 'docker'], from('spec.template.spec.backend.docker')],
      [['extra', 0], from('spec.template.extra[0]')],
      [['apiVersion'], from('apiVersion')],
      [['kind'], fixed('kind of the ClusterClass template (DevClusterTemplate) without "Template"')],
      [['metadata', 'namespace'], NAMESPACE_ORIGIN],
      [['metadata', 'ownerReferences', 0, 'uid'], OWNER_ORIGIN],
      [['metadata', 'labels', 'tl'], from('spec.template.metadata.labels.tl')],
      [['metadata', 'labels', 'cl'], fixed('caller cl')],
      [['metadata', 'labels', 'topology.cluster.x-k8s.io/owned'], OWNED_ORIGIN],
      [['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'], CLUSTER_NAME_ORIGIN],
      [['metadata', 'annotations', 'ta'], from('spec.template.metadata.annotations.ta')],
      [['metadata', 'annotations', 'ca'], fixed('caller annotation')],
      [
        ['metadata', 'annotations', 'cluster.x-k8s.io/cloned-from-name'],
        fixed('name of the ClusterClass template it was cloned from (DevClusterTemplate infra)'),
      ],
    ]);
  });

  it('explain: an apiVersion and kind of spec.template come from there; without owner references none is recorded', () => {
    const rec = new OriginRecorder();
    const template = clusterTemplate({ apiVersion: 'other.io/v1', kind: 'Other' });
    const obj = templateToObject({ template, name: 'n', cluster }, rec);
    const from = (path: string) => ({ kind: 'template', template: TEMPLATE_ID('DevClusterTemplate', 'infra'), path });
    expect(rec.sourceOf(obj, ['apiVersion'])).toEqual(from('spec.template.apiVersion'));
    expect(rec.sourceOf(obj, ['kind'])).toEqual(from('spec.template.kind'));
    expect(rec.sourceOf(obj, ['metadata', 'ownerReferences'])).toBeUndefined();
  });
});

describe('templateToTemplate: a clone of the whole template', () => {
  it("the template's own labels and annotations kept, cluster-name and owned forced, the caller labels added, cloned-from forced; the owner reference to the Cluster", () => {
    const clone = templateToTemplate({
      template: machineTemplate({ status: { x: 1 }, extra: 'kept' }),
      name: 'c1-xyz',
      cluster: withUid,
      labels: { 'topology.cluster.x-k8s.io/deployment-name': 'md-0' },
    });
    expect(clone).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevMachineTemplate',
      metadata: {
        name: 'c1-xyz',
        namespace: 'ns',
        labels: { tl: 'a', ...OWNED, 'topology.cluster.x-k8s.io/deployment-name': 'md-0' },
        annotations: {
          ta: 'b',
          'cluster.x-k8s.io/cloned-from-name': 'machine',
          'cluster.x-k8s.io/cloned-from-groupkind': 'DevMachineTemplate.infrastructure.cluster.x-k8s.io',
        },
        ownerReferences: OWNER,
      },
      spec: { template: { metadata: { labels: { inner: 'kept' } }, spec: { image: 'x' } } },
      extra: 'kept',
    });
  });

  it('a template without metadata: only the forced labels and annotations; no owner reference without a Cluster uid', () => {
    const { metadata: _, ...bare } = machineTemplate();
    expect(templateToTemplate({ template: bare, name: 'n', cluster }).metadata).toEqual({
      name: 'n',
      namespace: 'ns',
      labels: OWNED,
      annotations: {
        'cluster.x-k8s.io/cloned-from-name': '',
        'cluster.x-k8s.io/cloned-from-groupkind': 'DevMachineTemplate.infrastructure.cluster.x-k8s.io',
      },
    });
  });

  it("explain: every top-level field from the template, the template's labels and annotations from its metadata, the forced ones fixed", () => {
    const rec = new OriginRecorder();
    const template = machineTemplate({ status: { x: 1 } });
    const clone = templateToTemplate(
      { template, name: 'n', cluster: withUid, labels: { 'topology.cluster.x-k8s.io/deployment-name': 'md-0' } },
      rec,
    );
    const from = (path: string) => ({ kind: 'template', template: TEMPLATE_ID('DevMachineTemplate', 'machine'), path });
    expectOrigins(rec, clone, [
      [['apiVersion'], from('apiVersion')],
      [['kind'], from('kind')],
      [['spec', 'template', 'spec', 'image'], from('spec.template.spec.image')],
      [['metadata', 'name'], undefined],
      [['status'], undefined],
      [['metadata', 'namespace'], NAMESPACE_ORIGIN],
      [['metadata', 'ownerReferences'], OWNER_ORIGIN],
      [['metadata', 'labels', 'tl'], from('metadata.labels.tl')],
      [['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'], CLUSTER_NAME_ORIGIN],
      [['metadata', 'labels', 'topology.cluster.x-k8s.io/owned'], OWNED_ORIGIN],
      [
        ['metadata', 'labels', 'topology.cluster.x-k8s.io/deployment-name'],
        fixed('label with the MachineDeployment topology name'),
      ],
      [['metadata', 'annotations', 'ta'], from('metadata.annotations.ta')],
      [
        ['metadata', 'annotations', 'cluster.x-k8s.io/cloned-from-groupkind'],
        fixed('group/kind of the ClusterClass template it was cloned from (DevMachineTemplate)'),
      ],
    ]);
  });
});
