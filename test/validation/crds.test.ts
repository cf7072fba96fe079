import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, ObjectRef } from '../../src/core/model.js';
import {
  applyCrdDefaults,
  contractVersionsFromCrds,
  loadCrds,
  pruneUnknownFields,
  validateAgainstCrd,
  withValueOrigins,
  type CrdIndex,
} from '../../src/apiserver/crds.js';
import type { Result } from '../../src/core/result.js';
import { fixtureCrdsMissing, loadFixtureCrds } from '../helpers/fixture-crds.js';

const available = !fixtureCrdsMissing();

const ref = (o: JsonObject): ObjectRef => ({
  apiVersion: String(o.apiVersion),
  kind: String(o.kind),
  name: String((o.metadata as JsonObject).name),
  namespace: 'default',
});

describe.skipIf(!available)('CRDs from ../shared/fixtures/crds', () => {
  let crds: CrdIndex;
  beforeAll(() => {
    const loaded = loadCrds(loadFixtureCrds());
    expect(loaded.results).toEqual([]);
    crds = loaded.crds;
  });

  it('indexes every served and unserved version of the 72 CRDs', () => {
    expect(crds.kinds.size).toBe(72);
    const awsct = crds.versions.get('infrastructure.cluster.x-k8s.io/v1beta2/AWSClusterTemplate');
    expect(awsct?.served).toBe(true);
    expect(crds.versions.get('infrastructure.cluster.x-k8s.io/v1beta1/AWSClusterTemplate')?.served).toBe(false);
    expect(crds.versions.get('controlplane.cluster.x-k8s.io/v1beta1/KubeadmControlPlane')?.deprecated).toBe(true);
  });

  it('derives contract versions from the labels', () => {
    const c = contractVersionsFromCrds(crds);
    expect(c['controlplane.cluster.x-k8s.io/v1beta1/KubeadmControlPlane']).toBe('v1beta1');
    expect(c['controlplane.cluster.x-k8s.io/v1beta2/KubeadmControlPlane']).toBe('v1beta2');
    // CAPA: `cluster.x-k8s.io/v1beta1: v1beta1_v1beta2` → its v1beta2 API follows contract v1beta1.
    expect(c['infrastructure.cluster.x-k8s.io/v1beta2/AWSClusterTemplate']).toBe('v1beta1');
    expect(c['infrastructure.cluster.x-k8s.io/v1beta1/AWSMachineTemplate']).toBe('v1beta1');
    expect(c['infrastructure.cluster.x-k8s.io/v1alpha4/AWSMachineTemplate']).toBeUndefined();
    expect(c['infrastructure.cluster.x-k8s.io/v1beta1/AzureClusterTemplate']).toBe('v1beta1');
    expect(c['infrastructure.cluster.x-k8s.io/v1beta2/DevMachineTemplate']).toBe('v1beta2');
    // Core types carry no contract label.
    expect(c['cluster.x-k8s.io/v1beta2/MachineDeployment']).toBeUndefined();
  });

  describe('AWSClusterTemplate defaults (spec §1.1, capa-ci-selfhosted divergence)', () => {
    const template = (spec: JsonObject): JsonObject => ({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'AWSClusterTemplate',
      metadata: { name: 'ci-default', namespace: 'default' },
      spec: { template: { spec } },
    });
    const inner = (o: JsonObject) => ((o.spec as JsonObject).template as JsonObject).spec as JsonObject;

    it('fills availabilityZoneUsageLimit when network.vpc exists, without mutating the input', () => {
      const input = template({ network: { vpc: {} } });
      const before = JSON.stringify(input);
      const out = applyCrdDefaults(crds, input);
      expect(JSON.stringify(input)).toBe(before);
      const vpc = (inner(out).network as JsonObject).vpc as JsonObject;
      expect(vpc.availabilityZoneUsageLimit).toBe(3);
      expect(vpc.availabilityZoneSelection).toBe('Ordered');
    });

    it('does NOT create network.vpc when the template has no network (CRD has no default for network or vpc)', () => {
      // Verified against the CRD: neither `network` nor `network.vpc` has a default, so structural
      // defaulting cannot create the path; live, CAPA's defaulting webhook does (fixtures README, Gaps).
      const out = applyCrdDefaults(crds, template({ region: 'us-east-1' }));
      expect(inner(out).network).toBeUndefined();
      const withNetwork = applyCrdDefaults(crds, template({ network: {} }));
      expect((inner(withNetwork).network as JsonObject).vpc).toBeUndefined();
    });

    it('drops non-nullable nulls and leaves unknown kinds untouched', () => {
      const out = applyCrdDefaults(
        crds,
        template({ region: null, network: { vpc: { availabilityZoneUsageLimit: null } } }),
      );
      expect('region' in inner(out)).toBe(false);
      expect(((inner(out).network as JsonObject).vpc as JsonObject).availabilityZoneUsageLimit).toBe(3);
      const other = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'x' }, spec: { a: null } };
      expect(applyCrdDefaults(crds, other)).toEqual(other);
    });
  });

  describe('validateAgainstCrd', () => {
    const devMachineTemplate = (spec: JsonObject): JsonObject => ({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevMachineTemplate',
      metadata: { name: 'c1-md-0-abcde', namespace: 'default', labels: { a: 'b' } },
      spec: { template: { spec } },
    });

    it('accepts a valid object', () => {
      const o = devMachineTemplate({
        backend: {
          docker: { extraMounts: [{ containerPath: '/var/run/docker.sock', hostPath: '/var/run/docker.sock' }] },
        },
      });
      expect(validateAgainstCrd(crds, o, ref(o))).toEqual([]);
    });

    it('reports a wrong type with its field path as an error', () => {
      const o = devMachineTemplate({ backend: { docker: { extraMounts: [{ containerPath: 42 }] } } });
      const results = validateAgainstCrd(crds, o, ref(o));
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({
        severity: 'error',
        resourceRef: { kind: 'DevMachineTemplate', name: 'c1-md-0-abcde', namespace: 'default' },
        field: { path: 'spec.template.spec.backend.docker.extraMounts[0].containerPath' },
        tags: { rule: 'crd-schema' },
      });
      expect(results[0]!.message).toBe(
        'Invalid value: "integer": spec.template.spec.backend.docker.extraMounts[0].containerPath in body must be of type string: "integer": ' +
          'the API server would reject this DevMachineTemplate (infrastructure.cluster.x-k8s.io/v1beta2 CRD schema); fix the value in the template or the patch/variable that produces it',
      );
    });

    it('reports fields the API server would prune as warnings', () => {
      const o = devMachineTemplate({ backend: { docker: { extraMount: [] } }, customImag: 'x' });
      const results = validateAgainstCrd(crds, o, ref(o));
      expect(results.map((r) => [r.severity, r.field?.path])).toEqual([
        ['warning', 'spec.template.spec.backend.docker.extraMount'],
        ['warning', 'spec.template.spec.customImag'],
      ]);
      expect(results[1]!.message).toContain('unknown field "spec.template.spec.customImag"');
      expect(results[1]!.message).toContain('remove it or fix its name/indentation');
      expect(pruneUnknownFields(crds, o).pruned).toEqual([
        'spec.template.spec.backend.docker.extraMount',
        'spec.template.spec.customImag',
      ]);
    });

    /** A rendered MachineDeployment of Cluster c1 with a bootstrap configRef and `machine` added to its machine spec. */
    const machineDeployment = (name: string, machine: JsonObject, spec: JsonObject = {}): JsonObject => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: { name, namespace: 'default' },
      spec: {
        clusterName: 'c1',
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' } },
          spec: {
            clusterName: 'c1',
            bootstrap: {
              configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: 'x' },
            },
            ...machine,
          },
        },
        ...spec,
      },
    });

    it('reports missing required fields and enum violations of a rendered MachineDeployment', () => {
      const md = machineDeployment('c1-md-0', {}, { rollout: { strategy: { type: 'Sideways' } } });
      const results = validateAgainstCrd(crds, md, ref(md));
      const paths = results.map((r) => `${r.severity} ${r.field?.path} ${r.message.split(':')[0]}`);
      expect(paths).toContain('error spec.template.spec.infrastructureRef Required value');
      expect(paths).toContain('error spec.rollout.strategy.type Unsupported value');
    });

    it('says how to fix: the allowed values of a missing enum field; why an empty list is rejected', () => {
      const md = machineDeployment('c1-md-large-abcde', {
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachineTemplate', name: 'y' },
        taints: [{ key: 'example.com/dedicated', value: 'large', effect: 'NoSchedule' }],
      });
      const taint = validateAgainstCrd(crds, md, ref(md));
      expect(taint.map((r) => [r.field?.path, r.message.split(': the API server')[0]])).toEqual([
        ['spec.template.spec.taints[0].propagation', 'Required value (set it to one of: "Always", "OnInitialization")'],
      ]);
      const kct: JsonObject = {
        apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
        kind: 'KubeadmConfigTemplate',
        metadata: { name: 'capv-1-md-0-abcde', namespace: 'default' },
        spec: { template: { spec: { files: [], users: [{ name: 'capv' }] } } },
      };
      const files = validateAgainstCrd(crds, kct, ref(kct));
      expect(files).toHaveLength(1);
      expect(files[0]!.field?.path).toBe('spec.template.spec.files');
      expect(files[0]!.message).toBe(
        'Invalid value: []: spec.template.spec.files in body should have at least 1 items (an empty list is not the same as leaving the field out: ' +
          'the API server keeps `[]` and rejects it; remove the field where it is set to `[]`, e.g. a patch adding `value: []`, or add at least one item): ' +
          'the API server would reject this KubeadmConfigTemplate (bootstrap.cluster.x-k8s.io/v1beta2 CRD schema); fix the value in the template or the patch/variable that produces it',
      );
    });

    it('an input object is to be fixed where it is written', () => {
      const o = devMachineTemplate({ backend: { docker: { extraMounts: [{ containerPath: 42 }] } } });
      const [r] = validateAgainstCrd(crds, o, ref(o), 'input');
      expect(r!.message).toBe(
        'Invalid value: "integer": spec.template.spec.backend.docker.extraMounts[0].containerPath in body must be of type string: "integer": ' +
          'the API server would reject this DevMachineTemplate as written (infrastructure.cluster.x-k8s.io/v1beta2 CRD schema); fix it in the input',
      );
      const unserved = {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'AWSClusterTemplate',
        metadata: { name: 'x' },
        spec: {},
      };
      expect(validateAgainstCrd(crds, unserved, ref(unserved), 'input')[0]!.message).toMatch(
        /use apiVersion infrastructure\.cluster\.x-k8s\.io\/v1beta2$/,
      );
    });

    it('evaluates the CRD x-kubernetes-validations rules (CEL) of a well-typed object', () => {
      const kcp = (extraArgs: JsonObject[]): JsonObject => ({
        apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
        kind: 'KubeadmControlPlane',
        metadata: { name: 'c1-abcde', namespace: 'default' },
        spec: {
          version: 'v1.34.0',
          replicas: 1,
          machineTemplate: {
            spec: {
              infrastructureRef: {
                apiGroup: 'infrastructure.cluster.x-k8s.io',
                kind: 'DevMachineTemplate',
                name: 'c1-cp',
              },
            },
          },
          kubeadmConfigSpec: { clusterConfiguration: { apiServer: { extraArgs } } },
        },
      });
      const ok = kcp([
        { name: 'v', value: '2' },
        { name: 'cloud-provider', value: 'external' },
      ]);
      expect(validateAgainstCrd(crds, ok, ref(ok)).filter((r) => r.severity !== 'info')).toEqual([]);
      const dup = kcp([
        { name: 'v', value: '2' },
        { name: 'v', value: '4' },
      ]);
      const results = validateAgainstCrd(crds, dup, ref(dup));
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({
        severity: 'error',
        resourceRef: { kind: 'KubeadmControlPlane', name: 'c1-abcde' },
        field: { path: 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs' },
        tags: { rule: 'crd-cel' },
      });
      expect(results[0]!.message).toBe(
        'Invalid value: "array": extraArgs name must be unique: the API server would reject this KubeadmControlPlane (controlplane.cluster.x-k8s.io/v1beta2 CRD schema); fix the value in the template or the patch/variable that produces it',
      );
    });

    it('rejects an unserved version and skips kinds without a CRD', () => {
      const o = {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'AWSClusterTemplate',
        metadata: { name: 'x' },
        spec: {},
      };
      const results = validateAgainstCrd(crds, o, ref(o));
      expect(results).toEqual([
        {
          severity: 'error',
          message:
            'AWSClusterTemplate version v1beta1 is not served by its CustomResourceDefinition "awsclustertemplates.infrastructure.cluster.x-k8s.io" (served: v1beta2): use apiVersion infrastructure.cluster.x-k8s.io/v1beta2 in the template',
          resourceRef: ref(o),
          field: { path: 'apiVersion' },
          tags: { rule: 'crd-version' },
        },
      ]);
      const unknown = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'x' } };
      expect(validateAgainstCrd(crds, unknown, ref(unknown))).toEqual([]);
    });
  });
});

describe('loadCrds without fixtures', () => {
  const crd = (name: string, extra: JsonObject = {}): JsonObject => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name,
      labels: { 'cluster.x-k8s.io/v1beta1': 'v1alpha1_v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta1' },
    },
    spec: {
      group: 'example.com',
      names: { kind: 'Widget' },
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    size: { type: 'integer', default: 1, minimum: 1 },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    items: {
                      type: 'array',
                      items: { type: 'object', properties: { n: { type: 'string', default: 'x' } } },
                    },
                    maybe: { type: 'string', nullable: true },
                  },
                },
              },
            },
          },
        },
      ],
      ...extra,
    },
  });

  it('reports malformed and duplicate CRDs', () => {
    const { crds, results } = loadCrds([
      crd('widgets.example.com'),
      crd('widgets2.example.com'),
      { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition', metadata: { name: 'old' } },
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'broken' },
        spec: {},
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ignored' } },
    ]);
    expect(crds.versions.size).toBe(1);
    expect(results.map((r) => [r.severity, r.resourceRef?.name, r.field?.path])).toEqual([
      ['warning', 'widgets2.example.com', 'spec.versions[0]'],
      ['warning', 'old', 'apiVersion'],
      ['error', 'broken', 'spec'],
    ]);
  });

  it('takes the newest contract listing a version', () => {
    const { crds } = loadCrds([crd('widgets.example.com')]);
    expect(contractVersionsFromCrds(crds)).toEqual({
      'example.com/v1alpha1/Widget': 'v1beta1',
      'example.com/v1beta1/Widget': 'v1beta2',
    });
  });

  it('defaults through properties, additionalProperties and items, keeping preserved and nullable fields', () => {
    const { crds } = loadCrds([crd('widgets.example.com')]);
    const out = applyCrdDefaults(crds, {
      apiVersion: 'example.com/v1beta1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { extra: { anything: { goes: null } }, items: [{}, { n: 'y' }], maybe: null, labels: { a: 'b' } },
    });
    expect(out.spec).toEqual({
      size: 1,
      extra: { anything: { goes: null } },
      items: [{ n: 'x' }, { n: 'y' }],
      maybe: null,
      labels: { a: 'b' },
    });
    expect(
      applyCrdDefaults(crds, { apiVersion: 'example.com/v1beta1', kind: 'Widget', metadata: { name: 'w' } }).spec,
    ).toBeUndefined();
  });

  it('validates bounds and keeps preserve-unknown-fields subtrees', () => {
    const { crds } = loadCrds([crd('widgets.example.com')]);
    const o = {
      apiVersion: 'example.com/v1beta1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'ns' },
      spec: { size: 0, extra: { free: 1 }, labels: { a: 1 } },
    };
    const results = validateAgainstCrd(crds, o, {
      apiVersion: 'example.com/v1beta1',
      kind: 'Widget',
      name: 'w',
      namespace: 'ns',
    });
    expect(results.map((r) => [r.field?.path, r.message.split(': the API')[0]])).toEqual([
      ['spec.size', 'Invalid value: 0: spec.size in body should be greater than or equal to 1'],
      ['spec.labels.a', 'Invalid value: "integer": spec.labels.a in body must be of type string: "integer"'],
    ]);
  });
});

describe('withValueOrigins', () => {
  const objRef = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', namespace: 'ns' };
  const err = (path: string, rule = 'crd-schema', severity: Result['severity'] = 'error'): Result => ({
    severity,
    message: `bad ${path}`,
    resourceRef: objRef,
    field: { path },
    tags: { rule },
  });
  const fields = [
    { path: 'spec.files', origin: 'patch "createEmptyArrays"' },
    { path: 'spec.taints[0].key', origin: 'Cluster spec.topology.workers.machineDeployments[1].taints[0].key' },
    { path: 'spec.size', origin: 'template WidgetTemplate/w spec.template.spec.size' },
  ];

  it('appends where the value (or the object lacking a field) came from', () => {
    const out = withValueOrigins(
      [err('spec.files'), err('spec.taints[0]'), err('spec.taints[0].propagation'), err('spec.other.deep')],
      () => fields,
    );
    expect(out.map((r) => r.message)).toEqual([
      'bad spec.files (spec.files comes from patch "createEmptyArrays")',
      'bad spec.taints[0] (spec.taints[0] comes from Cluster spec.topology.workers.machineDeployments[1].taints[0].key)',
      'bad spec.taints[0].propagation (next to spec.taints[0].key, which comes from Cluster spec.topology.workers.machineDeployments[1].taints[0].key)',
      'bad spec.other.deep',
    ]);
  });

  it('leaves warnings, other rules and objects without origins alone, and asks only when needed', () => {
    let asked = 0;
    const originsOf = () => {
      asked++;
      return fields;
    };
    const untouched = [
      err('spec.files', 'crd-pruned', 'warning'),
      err('spec.files', 'crd-version'),
      { severity: 'error', message: 'no path', tags: { rule: 'crd-schema' } } as Result,
    ];
    expect(withValueOrigins(untouched, originsOf)).toEqual(untouched);
    expect(asked).toBe(0);
    expect(withValueOrigins([err('spec.files')], () => undefined)[0]!.message).toBe('bad spec.files');
  });
});
