/**
 * The webhooks' rules the CAPI oracle found the product judging differently (test/oracle/DIVERGENCES.md,
 * "Fixed"), through the real CLI: a version change over a previous Cluster that never reconciled
 * or whose observed objects are still upgrading, a ClusterClass update refused only in the order
 * CAPI sees it when the class goes first, the defaulting webhook before the API server's schema,
 * and kube-openapi's numeric range and composite errors.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot } from '../helpers/tools.js';
import { fleetCluster, observedControlPlane, type Obj } from '../helpers/scenario.js';
import { generatedCrds, KINDS, type GeneratedKind } from '../../scripts/oracle/generate.mjs';

interface Finding {
  severity: string;
  message: string;
  resourceRef?: { kind: string; name: string };
  field?: { path: string };
  tags?: Record<string, string>;
}

const fleetClass = readFileSync(join(repoRoot, 'test', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');

/** Cluster `c1` of the fleet class at `version`, its MachineDeployment `md-0` of `workerClass`. */
const cluster = (version: string, workerClass = 'general', edit: (topology: Obj) => void = () => {}) =>
  YAML.stringify(
    fleetCluster('c1', (t) => {
      t.version = version;
      t.workers.machineDeployments[0].class = workerClass;
      edit(t);
    }),
  );

/** A class whose patch fails: a Cluster using it never reconciles. */
const brokenClass = fleetClass.replace(
  "path: /spec/template/spec/customImage\n        valueFrom:\n          template: '{{ .imageRepository }}/node:{{ .builtin.machineDeployment.version }}'",
  'path: /spec/template/spec/no/such/field\n        value: x',
);

/** Writes each directory's files below a fresh directory. */
function layout(dirs: Record<string, Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'rcc-update-'));
  for (const [dir, files] of Object.entries(dirs)) {
    mkdirSync(join(root, dir), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, dir, name), text);
  }
  return root;
}

/** `render now [--previous before] [--observed live]` into `out`: exit code, results, files written. */
function render(root: string, ...args: string[]): { status: number | null; results: Finding[]; written: string[] } {
  const has = (d: string) => readdirSync(root).includes(d);
  const out = join(root, 'out');
  const common = [
    join(root, 'now'),
    ...(has('before') ? ['--previous', join(root, 'before')] : []),
    ...(has('live') ? ['--observed', join(root, 'live')] : []),
    ...args,
  ];
  const listed = spawnSync(process.execPath, [binPath, 'render', ...common, '--format', 'resourcelist'], {
    encoding: 'utf8',
  });
  const written = spawnSync(process.execPath, [binPath, 'render', ...common, '-o', out], { encoding: 'utf8' });
  expect(written.status).toBe(listed.status);
  const results = ((YAML.parse(listed.stdout) as { results?: Finding[] }).results ?? []).filter(
    (r) => r.severity !== 'info',
  );
  const files = readdirSync(root).includes('out') ? readdirSync(out, { recursive: true }).map(String) : [];
  return { status: listed.status, results, written: files.filter((f) => f.endsWith('.yaml')) };
}

const errorsAt = (results: Finding[]) =>
  results.filter((r) => r.severity === 'error').map((r) => `${r.resourceRef?.kind} ${r.field?.path}`);

describe('a version change needs the previous Cluster reconciled (validateTopologyVersionUpdate)', () => {
  it('is refused when the previous Cluster never reconciled, and nothing is written for it', () => {
    const root = layout({
      before: { 'class.yaml': brokenClass, 'cluster.yaml': cluster('v1.30.0') },
      now: { 'class.yaml': fleetClass, 'cluster.yaml': cluster('v1.31.0') },
    });
    const r = render(root);
    expect(r.status).toBe(1);
    expect(errorsAt(r.results)).toEqual(['Cluster spec.topology.version']);
    expect(r.results[0]?.message).toContain(
      'version cannot be changed: failed to check if control plane is upgrading: failed to get control plane object: cannot get object - object reference not set',
    );
    expect(r.results[0]?.message).toContain('land its fix at version v1.30.0 first');
    expect(r.written).toEqual([]);
  });

  it('renders the fix landed without the version change, and a version change once a control plane is observed', () => {
    const fixOnly = layout({
      before: { 'class.yaml': brokenClass, 'cluster.yaml': cluster('v1.30.0') },
      now: { 'class.yaml': fleetClass, 'cluster.yaml': cluster('v1.30.0') },
    });
    expect(render(fixOnly)).toMatchObject({ status: 0, results: [] });
    const observed = layout({
      before: { 'class.yaml': brokenClass, 'cluster.yaml': cluster('v1.30.0') },
      now: { 'class.yaml': fleetClass, 'cluster.yaml': cluster('v1.31.0') },
      live: { 'kcp.yaml': YAML.stringify(observedControlPlane('v1.30.0', 'v1.30.0')) },
    });
    const r = render(observed);
    expect(errorsAt(r.results)).toEqual([]);
    expect(r.written.length).toBeGreaterThan(0);
  });

  it('is refused while the observed control plane is still upgrading', () => {
    const root = layout({
      before: { 'class.yaml': fleetClass, 'cluster.yaml': cluster('v1.30.0') },
      now: { 'class.yaml': fleetClass, 'cluster.yaml': cluster('v1.31.0') },
      live: { 'kcp.yaml': YAML.stringify(observedControlPlane('v1.30.0', 'v1.29.0')) },
    });
    const r = render(root);
    expect(r.status).toBe(1);
    expect(errorsAt(r.results)).toEqual(['Cluster spec.topology.version']);
    expect(r.results[0]?.message).toContain(
      'version cannot be changed: control plane is still completing a previous upgrade',
    );
  });
});

describe('a ClusterClass update is checked against the Clusters stored when it is applied', () => {
  const withoutGpu = fleetClass
    .replace(/ {4}- class: gpu\n(?: {6}.*\n)+?(?= {2}variables:)/, '')
    .replace('names: [gpu]', 'names: [general]');

  it('refuses removing a worker class only previous Clusters use, saying the refusal depends on the apply order', () => {
    expect(withoutGpu).not.toContain('class: gpu');
    const root = layout({
      before: { 'class.yaml': fleetClass, 'cluster.yaml': cluster('v1.30.0', 'gpu') },
      now: { 'class.yaml': withoutGpu, 'cluster.yaml': cluster('v1.30.0', 'general') },
    });
    const r = render(root);
    expect(r.status).toBe(1);
    expect(r.results).toEqual([
      expect.objectContaining({
        severity: 'error',
        resourceRef: expect.objectContaining({ kind: 'ClusterClass', name: 'fleet' }),
        field: { path: 'spec.workers.machineDeployments' },
        tags: expect.objectContaining({ rule: 'class-update-order', clusters: 'c1' }),
      }),
      expect.objectContaining({
        severity: 'error',
        resourceRef: expect.objectContaining({ kind: 'Cluster', name: 'c1' }),
        tags: expect.objectContaining({ rule: 'class-update-refused' }),
      }),
    ]);
    expect(r.results[0]?.message).toMatch(
      /MachineDeploymentClass "gpu" cannot be deleted because it is used by Cluster "c1".*depends on the order.*kustomize's legacy order puts Clusters before ClusterClasses.*later commit/,
    );
    // CAPI keeps the previous class: nothing is rendered against the new one.
    expect(r.written).toEqual([]);
  });

  it('takes a class whose previous version its webhook refused on create as a create, not an update', () => {
    // The previous class was never stored (its default fails its schema), so CAPI creates this one.
    const refusedBefore = fleetClass.replace(
      '{type: string, default: registry.example.com}',
      '{type: string, default: 5}',
    );
    expect(refusedBefore).not.toBe(fleetClass);
    const root = layout({
      before: { 'class.yaml': refusedBefore, 'cluster.yaml': cluster('v1.30.0', 'gpu') },
      now: { 'class.yaml': withoutGpu, 'cluster.yaml': cluster('v1.30.0', 'general') },
    });
    const r = render(root);
    expect(r.results.filter((x) => x.severity === 'error')).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.written.length).toBeGreaterThan(0);
  });

  it('reports the refusal once, as an error of any order, while the Cluster of the input still uses the class', () => {
    const root = layout({
      before: { 'class.yaml': fleetClass, 'cluster.yaml': cluster('v1.30.0', 'gpu') },
      now: { 'class.yaml': withoutGpu, 'cluster.yaml': cluster('v1.30.0', 'gpu') },
    });
    const classResults = render(root).results.filter((r) => r.resourceRef?.kind === 'ClusterClass');
    expect(classResults.map((r) => r.tags?.rule)).toEqual(['class-removed']);
  });
});

describe('template values as the API server of CAPI v1.14 judges them (kube-openapi)', () => {
  // apiextensions-apiserver pkg/apiserver/validation/validation.go `ValidateCustomResource` with
  // kube-openapi validate/schema.go `SchemaValidator.numberValidator` (v0.0.0-20260317180543, the
  // release of apiextensions-apiserver v0.36 that CAPI v1.14 builds with): values.go
  // `IsValueValidAgainstRange`, a plain error `kubeOpenAPIResultToFieldErrors` reports at the
  // object's root with the bad value "".
  const ref = (k: GeneratedKind, name: string) => ({
    apiVersion: `${k.group}/${k.version}`,
    kind: k.kind,
    name,
  });
  const template = (k: GeneratedKind, name: string, spec: object = {}) => ({
    apiVersion: `${k.group}/${k.version}`,
    kind: k.kind,
    metadata: { name, namespace: 'default' },
    spec: { template: { spec } },
  });
  const inputs = (size: number) =>
    [
      ...generatedCrds(),
      template(KINDS.infraCluster, 'infra', { size }),
      template(KINDS.controlPlane, 'cp'),
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'ClusterClass',
        metadata: { name: 'gen', namespace: 'default' },
        spec: {
          infrastructure: { templateRef: ref(KINDS.infraCluster, 'infra') },
          controlPlane: { templateRef: ref(KINDS.controlPlane, 'cp') },
        },
      },
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: 'c1', namespace: 'default' },
        spec: { topology: { classRef: { name: 'gen' }, version: 'v1.34.2' } },
      },
    ]
      .map((d) => YAML.stringify(d))
      .join('---\n');

  it('a fraction for an integer field fails its type and, from v1.14, the range check at the root', () => {
    const root = layout({ now: { 'all.yaml': inputs(2.5) } });
    const v14 = render(root, '--capi-version', '1.14');
    const templateErrors = v14.results.filter((r) => r.resourceRef?.kind === 'GenClusterTemplate');
    expect(templateErrors.map((r) => r.field?.path ?? '')).toEqual(['spec.template.spec.size', '']);
    expect(templateErrors[1]?.message).toMatch(
      /^Invalid value: "": Checked value must be of type integer \(default format\) in spec\.template\.spec\.size/,
    );
    const v13 = render(root, '--capi-version', '1.13');
    expect(
      v13.results.filter((r) => r.resourceRef?.kind === 'GenClusterTemplate').map((r) => r.field?.path ?? ''),
    ).toEqual(['spec.template.spec.size']);
    expect(render(layout({ now: { 'all.yaml': inputs(3) } }), '--capi-version', '1.14').status).toBe(0);
  });
});

describe('variable values as CAPI v1.14 judges them (kube-openapi)', () => {
  const withSchema = (schema: object) =>
    fleetClass.replace(
      '  patches:',
      `  - name: sizing\n    required: false\n    schema:\n      openAPIV3Schema: ${JSON.stringify(schema)}\n  patches:`,
    );
  const sized = (value: unknown) =>
    cluster('v1.30.0', 'general', (t) => {
      t.variables = [{ name: 'sizing', value }];
    });

  it('a fraction for an integer fails its type and, from v1.14, the range check at the value', () => {
    const schema = { type: 'object', properties: { count: { type: 'integer' } } };
    const root = layout({ now: { 'class.yaml': withSchema(schema), 'cluster.yaml': sized({ count: 2.5 }) } });
    const v14 = render(root, '--capi-version', '1.14');
    expect(errorsAt(v14.results)).toEqual([
      'Cluster spec.topology.variables[sizing].value.count',
      'Cluster spec.topology.variables[sizing].value',
    ]);
    expect(v14.results[1]?.message).toContain('Checked value must be of type integer (default format) in count');
    expect(errorsAt(render(root, '--capi-version', '1.12').results)).toEqual([
      'Cluster spec.topology.variables[sizing].value.count',
    ]);
  });

  it('an int32 beyond its range fails at the value; an int-or-string is not range-checked', () => {
    const schema = {
      type: 'object',
      properties: { small: { type: 'integer', format: 'int32' }, any: { 'x-kubernetes-int-or-string': true } },
    };
    const root = layout({
      now: { 'class.yaml': withSchema(schema), 'cluster.yaml': sized({ small: 3000000000, any: 3000000000 }) },
    });
    const r = render(root, '--capi-version', '1.14');
    expect(errorsAt(r.results)).toEqual(['Cluster spec.topology.variables[sizing].value']);
    expect(r.results[0]?.message).toContain('Checked value must be of type integer with format int32 in small');
  });

  it('a float64 beyond ±2^53 is not an integer, for an int-or-string too (kube-openapi type.go, swag IsFloat64AJSONInteger)', () => {
    const schema = { type: 'object', properties: { any: { 'x-kubernetes-int-or-string': true } } };
    const root = layout({ now: { 'class.yaml': withSchema(schema), 'cluster.yaml': sized({ any: 1e300 }) } });
    const r = render(root, '--capi-version', '1.14');
    expect(errorsAt(r.results)).toEqual(['Cluster spec.topology.variables[sizing].value.any']);
    expect(r.results[0]?.message).toContain('any in body must be of type integer,string: "number"');
  });

  it('reports an anyOf no branch passes at the root of the value, naming the field', () => {
    const schema = {
      type: 'object',
      properties: { count: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } },
    };
    const root = layout({ now: { 'class.yaml': withSchema(schema), 'cluster.yaml': sized({ count: 1.5 }) } });
    const r = render(root);
    expect(errorsAt(r.results)).toEqual([
      'Cluster spec.topology.variables[sizing].value.count',
      'Cluster spec.topology.variables[sizing].value',
    ]);
    expect(r.results[1]?.message).toContain('"count" must validate at least one schema (anyOf)');
  });

  it('runs the defaulting webhook before the API server schema: its refusal is the only one', () => {
    const schema = { type: 'object', properties: { count: { type: 'integer' } } };
    const twice = cluster('v1.30.0', 'general', (t) => {
      t.workers.machineDeployments.push({ class: 'general', name: 'md-0' });
      t.variables = [{ name: 'sizing', value: { count: 'many' } }];
    });
    const refusedByWebhook = render(layout({ now: { 'class.yaml': withSchema(schema), 'cluster.yaml': twice } }));
    expect(errorsAt(refusedByWebhook.results)).toEqual(['Cluster spec.topology.variables[sizing].value.count']);
    const valid = twice.replace('count: many', 'count: 3');
    const refusedBySchema = render(layout({ now: { 'class.yaml': withSchema(schema), 'cluster.yaml': valid } }));
    expect(errorsAt(refusedBySchema.results)).toEqual(['Cluster spec.topology.workers.machineDeployments[1]']);
  });
});
