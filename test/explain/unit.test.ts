/** explain on small hand-written classes: each patch operation kind, precedence, preservation, v1beta1 paths. */
import { describe, expect, it } from 'vitest';
import { explainCluster } from '../../src/cli/explain-cluster.js';
import { formatPath, parsePath } from '../../src/provenance/paths.js';
import { templateReferences } from '../../src/patches/reads.js';
import { applyJsonPatch, type JsonPatchEffect, type JsonPatchOp } from '../../src/patches/jsonpatch.js';
import { provenanceReport } from '../../src/provenance/report.js';
import { describeSource, filterFields, selectObject } from '../../src/provenance/format.js';
import { config, fieldOf, itemsOf, objectOf, sourceOf } from './helpers.js';

const CLASS = `
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: small}
spec:
  controlPlane:
    metadata:
      labels: {from-class: c, both: class}
    templateRef: {apiVersion: controlplane.example.com/v1beta2, kind: TestControlPlaneTemplate, name: cp}
  workers:
    machineDeployments:
    - class: w
      bootstrap:
        templateRef: {apiVersion: bootstrap.example.com/v1beta2, kind: TestConfigTemplate, name: boot}
      infrastructure:
        templateRef: {apiVersion: infrastructure.example.com/v1beta2, kind: TestMachineTemplate, name: machine}
  variables:
  - name: flavor
    required: false
    schema: {openAPIV3Schema: {type: string, default: small}}
  - name: enableNever
    required: false
    schema: {openAPIV3Schema: {type: boolean, default: false}}
  patches:
  - name: prepend
    definitions:
    - selector: {apiVersion: controlplane.example.com/v1beta2, kind: TestControlPlaneTemplate, matchResources: {controlPlane: true}}
      jsonPatches:
      - {op: add, path: /spec/template/spec/list/0, value: first}
      - {op: replace, path: /spec/template/spec/replaced, value: new}
      - {op: remove, path: /spec/template/spec/gone}
      - {op: add, path: /spec/template/spec/obj, value: {a: 1, b: 2}}
      - {op: add, path: /spec/template/metadata/labels/patched, value: "yes"}
  - name: override
    definitions:
    - selector: {apiVersion: controlplane.example.com/v1beta2, kind: TestControlPlaneTemplate, matchResources: {controlPlane: true}}
      jsonPatches:
      - {op: add, path: /spec/template/spec/obj/b, valueFrom: {variable: flavor}}
      - {op: add, path: /spec/template/spec/replicas, value: 99}
      - {op: add, path: /spec/template/spec/version, value: v0.0.1}
      - {op: add, path: /spec/template/spec/name, valueFrom: {template: "{{ .builtin.cluster.name }}-{{ .flavor }}"}}
  - name: disabled
    enabledIf: "{{ .enableNever }}"
    definitions:
    - selector: {apiVersion: controlplane.example.com/v1beta2, kind: TestControlPlaneTemplate, matchResources: {controlPlane: true}}
      jsonPatches:
      - {op: add, path: /spec/template/spec/never, value: 1}
---
apiVersion: controlplane.example.com/v1beta2
kind: TestControlPlaneTemplate
metadata: {name: cp}
spec:
  template:
    metadata:
      labels: {both: template, tmpl: t}
    spec:
      list: [a, b]
      replaced: old
      gone: bye
      empty: {}
---
apiVersion: bootstrap.example.com/v1beta2
kind: TestConfigTemplate
metadata: {name: boot}
spec: {template: {spec: {files: []}}}
---
apiVersion: infrastructure.example.com/v1beta2
kind: TestMachineTemplate
metadata: {name: machine}
spec: {template: {spec: {size: s}}}
`;

const CLUSTER = `
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: c1, namespace: default}
spec:
  topology:
    classRef: {name: small}
    version: v1.33.0
    controlPlane:
      replicas: 3
      metadata:
        labels: {both: topology}
    workers:
      machineDeployments:
      - {class: w, name: md-0, replicas: 2}
`;

describe('explain: hand-written class', () => {
  const items = itemsOf(`${CLASS}---${CLUSTER}`);
  const r = explainCluster(items, config(), 'c1');
  const cp = () => objectOf(r.objects, 'ControlPlane');
  const T = { apiVersion: 'controlplane.example.com/v1beta2', kind: 'TestControlPlaneTemplate', name: 'cp' };

  it('renders and attributes everything', () => {
    expect(r.results.filter((x) => x.severity !== 'info')).toEqual([]);
    for (const o of r.objects)
      for (const f of o.fields) expect(f.source.kind, `${o.ref.kind} ${f.path}`).not.toBe('unknown');
    expect(r.objects.map((o) => o.role)).toEqual([
      'Cluster',
      'ControlPlane',
      'MachineDeploymentBootstrapTemplate md-0',
      'MachineDeploymentInfrastructureTemplate md-0',
      'MachineDeployment md-0',
    ]);
  });

  it('add at list index 0 shifts the template items', () => {
    expect(fieldOf(cp(), 'spec.list[0]')).toMatchObject({
      value: 'first',
      source: {
        kind: 'patch',
        patch: 'prepend',
        patchIndex: 0,
        definitionIndex: 0,
        jsonPatchIndex: 0,
        opPath: '/spec/template/spec/list/0',
      },
    });
    expect(fieldOf(cp(), 'spec.list[1]')).toMatchObject({
      value: 'a',
      source: { kind: 'template', template: T, path: 'spec.template.spec.list[0]' },
    });
    expect(fieldOf(cp(), 'spec.list[2]')).toMatchObject({
      value: 'b',
      source: { kind: 'template', path: 'spec.template.spec.list[1]' },
    });
  });

  it('replace, remove, empty objects', () => {
    expect(sourceOf(cp(), 'spec.replaced')).toMatchObject({
      kind: 'patch',
      patch: 'prepend',
      jsonPatchIndex: 1,
      op: 'replace',
    });
    expect(cp().fields.some((f) => f.path === 'spec.gone')).toBe(false);
    expect(fieldOf(cp(), 'spec.empty')).toMatchObject({
      value: {},
      source: { kind: 'template', path: 'spec.template.spec.empty' },
    });
  });

  it('a later patch wins below an earlier one', () => {
    expect(sourceOf(cp(), 'spec.obj.a')).toMatchObject({ patch: 'prepend', jsonPatchIndex: 3 });
    expect(fieldOf(cp(), 'spec.obj.b')).toMatchObject({
      value: 'small',
      source: {
        patch: 'override',
        patchIndex: 1,
        jsonPatchIndex: 0,
        valueFrom: { variable: 'flavor' },
        variables: [
          {
            name: 'flavor',
            value: 'small',
            defaulted: true,
            defaultFrom: 'spec.variables[0].schema.openAPIV3Schema.default',
          },
        ],
      },
    });
    expect(fieldOf(cp(), 'spec.name')).toMatchObject({
      value: 'c1-small',
      source: {
        patch: 'override',
        variables: [
          { name: 'builtin.cluster.name', value: 'c1' },
          { name: 'flavor', defaulted: true },
        ],
      },
    });
  });

  it('preserved fields keep their desired-state source (§7.6)', () => {
    expect(fieldOf(cp(), 'spec.replicas')).toMatchObject({
      value: 3,
      source: { kind: 'topology', path: 'spec.topology.controlPlane.replicas' },
    });
    expect(fieldOf(cp(), 'spec.version')).toMatchObject({
      value: 'v1.33.0',
      source: { kind: 'topology', path: 'spec.topology.version' },
    });
  });

  it('label precedence and labels added by patches', () => {
    expect(fieldOf(cp(), 'metadata.labels.both')).toMatchObject({
      value: 'topology',
      source: { kind: 'topology', path: 'spec.topology.controlPlane.metadata.labels.both' },
    });
    expect(sourceOf(cp(), 'metadata.labels.from-class')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.metadata.labels.from-class',
    });
    expect(sourceOf(cp(), 'metadata.labels.tmpl')).toEqual({
      kind: 'template',
      template: T,
      path: 'spec.template.metadata.labels.tmpl',
    });
    expect(sourceOf(cp(), 'metadata.labels.patched')).toMatchObject({
      kind: 'patch',
      patch: 'prepend',
      jsonPatchIndex: 4,
    });
  });

  it('disabled patches are listed with their enabledIf result and set nothing', () => {
    expect(cp().fields.some((f) => f.path === 'spec.never')).toBe(false);
    expect(cp().patches).toContainEqual(
      expect.objectContaining({
        patch: 'disabled',
        enabled: false,
        enabledIf: '{{ .enableNever }}',
        enabledIfVariables: [expect.objectContaining({ name: 'enableNever', value: false, defaulted: true })],
      }),
    );
  });

  it('MachineDeployment fields', () => {
    const md = objectOf(r.objects, 'MachineDeployment md-0');
    expect(sourceOf(md, 'spec.replicas')).toEqual({
      kind: 'topology',
      path: 'spec.topology.workers.machineDeployments[0].replicas',
    });
    expect(sourceOf(md, 'spec.template.spec.version')).toEqual({ kind: 'topology', path: 'spec.topology.version' });
    expect(sourceOf(md, 'spec.clusterName')).toMatchObject({ kind: 'fixed' });
    expect(sourceOf(md, 'spec.template.spec.bootstrap.configRef.name')).toMatchObject({ kind: 'builtin' });
    const boot = objectOf(r.objects, 'MachineDeploymentBootstrapTemplate md-0');
    expect(fieldOf(boot, 'spec.template.spec.files')).toMatchObject({
      value: [],
      source: { kind: 'template', path: 'spec.template.spec.files' },
    });
  });

  it('selection, field filters and descriptions', () => {
    expect(selectObject(r.objects, 'testcontrolplane')).toMatchObject({ ok: true });
    expect(selectObject(r.objects, 'MachineDeployment/c1-md-0')).toMatchObject({ ok: true });
    expect(selectObject(r.objects, 'Nope')).toMatchObject({ ok: false, ambiguous: false });
    expect(filterFields(cp().fields, 'spec.list').map((f) => f.path)).toEqual([
      'spec.list[0]',
      'spec.list[1]',
      'spec.list[2]',
    ]);
    expect(filterFields(cp().fields, 'spec.list[1]').map((f) => f.path)).toEqual(['spec.list[1]']);
    expect(
      filterFields(
        objectOf(r.objects, 'MachineDeployment md-0').fields,
        'metadata.labels.cluster.x-k8s.io/cluster-name',
      ),
    ).toHaveLength(1);
    expect(describeSource(sourceOf(cp(), 'spec.replicas'))).toBe('Cluster spec.topology.controlPlane.replicas');
    expect(describeSource(sourceOf(cp(), 'spec.obj.b'))).toContain(
      'patch "override" (spec.patches[1].definitions[0].jsonPatches[0]: add /spec/template/spec/obj/b)',
    );
  });

  it('provenance report', () => {
    const report = provenanceReport({ cluster: r.cluster!, clusterClass: r.clusterClass!, objects: r.objects });
    expect(report).toMatchObject({
      apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
      kind: 'ProvenanceReport',
      metadata: {
        name: 'c1-provenance',
        namespace: 'default',
        annotations: { 'config.kubernetes.io/local-config': 'true' },
      },
      spec: { cluster: { namespace: 'default', name: 'c1' }, clusterClass: { namespace: 'default', name: 'small' } },
    });
    const objects = (
      report.spec as { objects: { kind: string; fields: { path: string; from: string; value?: unknown }[] }[] }
    ).objects;
    const cpReport = objects.find((o) => o.kind === 'TestControlPlane')!;
    expect(cpReport.fields.find((f) => f.path === 'spec.replicas')).toMatchObject({
      from: 'Cluster spec.topology.controlPlane.replicas',
      source: { kind: 'topology' },
    });
    expect(cpReport.fields[0]!.value).toBeUndefined();
    const withValues = provenanceReport({ cluster: r.cluster!, objects: r.objects }, { values: true });
    expect(JSON.stringify(withValues)).toContain('"value":3');
  });
});

describe('explain: v1beta1 inputs use v1beta1 field paths', () => {
  const text = `
apiVersion: cluster.x-k8s.io/v1beta1
kind: ClusterClass
metadata: {name: old}
spec:
  controlPlane:
    ref: {apiVersion: controlplane.example.com/v1beta1, kind: TestControlPlaneTemplate, name: cp}
  workers:
    machineDeployments:
    - class: w
      template:
        metadata: {labels: {tier: worker}}
        bootstrap: {ref: {apiVersion: bootstrap.example.com/v1beta1, kind: TestConfigTemplate, name: boot}}
        infrastructure: {ref: {apiVersion: infrastructure.example.com/v1beta1, kind: TestMachineTemplate, name: machine}}
      machineHealthCheck:
        unhealthyConditions:
        - {type: Ready, status: "False", timeout: 5m}
      strategy:
        type: RollingUpdate
        rollingUpdate: {maxSurge: 1, deletePolicy: Oldest}
---
apiVersion: controlplane.example.com/v1beta1
kind: TestControlPlaneTemplate
metadata: {name: cp}
spec: {template: {spec: {a: 1}}}
---
apiVersion: bootstrap.example.com/v1beta1
kind: TestConfigTemplate
metadata: {name: boot}
spec: {template: {spec: {b: 1}}}
---
apiVersion: infrastructure.example.com/v1beta1
kind: TestMachineTemplate
metadata: {name: machine}
spec: {template: {spec: {c: 1}}}
---
apiVersion: cluster.x-k8s.io/v1beta1
kind: Cluster
metadata: {name: legacy}
spec:
  topology:
    class: old
    version: v1.30.1
    workers:
      machineDeployments:
      - class: w
        name: md-0
        nodeDrainTimeout: 90s
`;
  const r = explainCluster(itemsOf(text), config(), 'legacy');

  it('renders v1beta1 objects with sources at v1beta1 paths', () => {
    expect(r.results.filter((x) => x.severity === 'error')).toEqual([]);
    for (const o of r.objects)
      for (const f of o.fields) expect(f.source.kind, `${o.ref.kind} ${f.path}`).not.toBe('unknown');
    const md = objectOf(r.objects, 'MachineDeployment md-0');
    expect(md.ref.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(fieldOf(md, 'spec.template.spec.nodeDrainTimeout')).toMatchObject({
      value: '1m30s',
      source: { kind: 'topology', path: 'spec.topology.workers.machineDeployments[0].nodeDrainTimeout' },
    });
    expect(sourceOf(md, 'metadata.labels.tier')).toEqual({
      kind: 'clusterClass',
      path: 'spec.workers.machineDeployments[0].template.metadata.labels.tier',
    });
    expect(sourceOf(md, 'spec.strategy.type')).toEqual({
      kind: 'clusterClass',
      path: 'spec.workers.machineDeployments[0].strategy.type',
    });
    expect(sourceOf(md, 'spec.strategy.rollingUpdate.deletePolicy')).toEqual({
      kind: 'clusterClass',
      path: 'spec.workers.machineDeployments[0].strategy.rollingUpdate.deletePolicy',
    });
    const mhc = objectOf(r.objects, 'MachineDeploymentHealthCheck md-0');
    expect(fieldOf(mhc, 'spec.unhealthyConditions[0].timeout')).toMatchObject({
      value: '5m0s',
      source: {
        kind: 'clusterClass',
        path: 'spec.workers.machineDeployments[0].machineHealthCheck.unhealthyConditions[0].timeout',
      },
    });
    expect(fieldOf(mhc, 'spec.nodeStartupTimeout')).toMatchObject({ value: '10m0s', source: { kind: 'default' } });
  });
});

describe('explain paths', () => {
  it('formats and parses paths', () => {
    const segs = ['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'];
    expect(formatPath(segs)).toBe("metadata.labels['cluster.x-k8s.io/cluster-name']");
    expect(parsePath(formatPath(segs))).toEqual(segs);
    expect(parsePath('spec.files[0].content')).toEqual(['spec', 'files', 0, 'content']);
    expect(parsePath('a["b.c"]')).toEqual(['a', 'b.c']);
    // JSON pointers resolve to segments as the patch engine applies them (and reports them to the recorder).
    const effectOf = (doc: object, op: JsonPatchOp): JsonPatchEffect[] => {
      const seen: JsonPatchEffect[] = [];
      expect(applyJsonPatch(doc as never, [op], (_, e) => seen.push(e)).ok).toBe(true);
      return seen;
    };
    expect(effectOf({ spec: { l: [1, 2] } }, { op: 'add', path: '/spec/l/-', value: 3 })).toEqual([
      { op: 'add', path: ['spec', 'l', 2], listLength: 2 },
    ]);
    expect(effectOf({ spec: { 'a/b': {} } }, { op: 'add', path: '/spec/a~1b/x', value: 1 })).toEqual([
      { op: 'add', path: ['spec', 'a/b', 'x'] },
    ]);
  });

  it('finds the variables a Go template reads', () => {
    expect(templateReferences('kindest/node:{{ .builtin.machineDeployment.version | replace "+" "_" }}')).toEqual([
      'builtin.machineDeployment.version',
    ]);
    expect(
      templateReferences('{{ if .a }}{{ $.b.c }}{{ (semver .v).Major }}{{ index . "http-proxy" }}{{ end }}').sort(),
    ).toEqual(['a', 'b.c', 'http-proxy', 'v']);
  });
});
