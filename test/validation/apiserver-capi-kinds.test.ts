/**
 * The API server's side of CAPI's own kinds, without their CRDs (the product knows its own kinds'
 * schema), through the real CLI. Found by the CAPI oracle (test/oracle/DIVERGENCES.md).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, run } from '../helpers/tools.js';
import { fleetCluster, fleetDocs, type Obj } from '../helpers/scenario.js';
import { fixtureCrdsMissing, loadFixtureCrds } from '../helpers/fixture-crds.js';

const render = (...args: string[]) => run(binPath, ['render', ...args]);
const stream = (docs: readonly Obj[]) => docs.map((d) => YAML.stringify(d)).join('---\n');

describe('a ClusterClass variable without `required` (ClusterClassVariable.Required is +required)', () => {
  // CAPI api/core/v1beta1 and v1beta2 clusterclass_types.go `ClusterClassVariable.Required`
  // (`+required`, v1.11+): apiextensions' schema validation refuses the class before any webhook.
  const withoutRequired = (docs: Obj[]) => {
    delete docs.find((d) => d.kind === 'ClusterClass').spec.variables[0].required;
    return docs;
  };

  it('refuses the class at spec.variables[0].required, renders none of its Clusters and keeps their earlier output', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-required-'));
    const input = join(dir, 'in.yaml');
    const out = join(dir, 'out');
    writeFileSync(input, stream([...fleetDocs(), fleetCluster('c1')]));
    expect(render(input, '-o', out).code).toBe(0);
    const earlier = readFileSync(join(out, 'fleet', 'c1.yaml'), 'utf8');

    writeFileSync(input, stream([...withoutRequired(fleetDocs()), fleetCluster('c1', (t) => (t.version = 'v1.33.1'))]));
    const listed = render(input, '--format', 'resourcelist');
    expect(listed.code).toBe(1);
    const list = YAML.parse(listed.stdout);
    expect(list.results.filter((x: Obj) => x.severity === 'error')).toContainEqual(
      expect.objectContaining({
        message: expect.stringMatching(/^Required value: the API server would reject this ClusterClass/),
        resourceRef: expect.objectContaining({ kind: 'ClusterClass', name: 'fleet' }),
        field: { path: 'spec.variables[0].required' },
      }),
    );
    expect(list.items.filter((o: Obj) => o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] !== undefined)).toEqual(
      [],
    );
    expect(render(input, '-o', out).code).toBe(1);
    expect(readFileSync(join(out, 'fleet', 'c1.yaml'), 'utf8')).toBe(earlier);
  });

  it('`required: false` is accepted', () => {
    const docs = fleetDocs();
    docs.find((d) => d.kind === 'ClusterClass').spec.variables[0].required = false;
    const dir = mkdtempSync(join(tmpdir(), 'rcc-required-'));
    writeFileSync(join(dir, 'in.yaml'), stream([...docs, fleetCluster('c1')]));
    const r = render(join(dir, 'in.yaml'));
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('the Cluster in classic form gets the namespace it is stored in', () => {
  // CAPI exp/topology/desiredstate/desired_state.go `computeCluster` starts from the stored
  // Cluster, which the API server gave the request's namespace.
  const classicNamespace = (docs: Obj[], ...args: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-ns-'));
    writeFileSync(join(dir, 'in.yaml'), stream(docs));
    const r = render(join(dir, 'in.yaml'), ...args);
    expect(r.code, r.stderr).toBe(0);
    const objects = YAML.parseAllDocuments(r.stdout).map((d) => d.toJS());
    const rendered = objects.filter((o) => o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === 'c1');
    const cluster = rendered.find((o) => o.kind === 'Cluster');
    return {
      cluster: cluster.metadata.namespace,
      others: [...new Set(rendered.filter((o) => o !== cluster).map((o) => o.metadata.namespace))],
    };
  };
  const withoutNamespace = (c: Obj) => {
    delete c.metadata.namespace;
    return c;
  };

  it('`default` when the input has none', () => {
    const docs = fleetDocs().map(withoutNamespace);
    expect(classicNamespace([...docs, withoutNamespace(fleetCluster('c1'))])).toEqual({
      cluster: 'default',
      others: ['default'],
    });
  });

  it("the request's namespace (defaultNamespace)", () => {
    expect(
      classicNamespace([...fleetDocs(), withoutNamespace(fleetCluster('c1'))], '--set', 'defaultNamespace=fleet'),
    ).toEqual({ cluster: 'fleet', others: ['fleet'] });
  });
});

/** The error results of rendering `docs` (with `args`) as a ResourceList, and its exit code. */
function errorsOf(docs: readonly Obj[], ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-crd-'));
  writeFileSync(join(dir, 'in.yaml'), stream(docs));
  const r = render(join(dir, 'in.yaml'), '--format', 'resourcelist', ...args);
  const list = YAML.parse(r.stdout);
  const errors = list.results.filter((x: Obj) => x.severity === 'error');
  return {
    code: r.code,
    errors: errors.map((x: Obj) => ({ kind: x.resourceRef?.kind, path: x.field?.path, message: x.message })),
    rendered: list.items.filter((o: Obj) => o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] !== undefined),
  };
}

describe('a repeated key of a list-type map (apiextensions structurallisttype.ValidateListSetsAndMaps)', () => {
  it('a second MachineDeployment topology `md-0` is a Duplicate value at the item, and nothing else', () => {
    const cluster = fleetCluster('c1', (t) => t.workers.machineDeployments.push({ class: 'gpu', name: 'md-0' }));
    const r = errorsOf([...fleetDocs(), cluster]);
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      {
        kind: 'Cluster',
        path: 'spec.topology.workers.machineDeployments[1]',
        message: expect.stringMatching(/^Duplicate value: \{"name":"md-0"\}: the API server would reject this Cluster/),
      },
    ]);
    expect(r.rendered).toEqual([]);
  });

  it('a third appearance is not reported again; a second MachineDeployment class is, on the class', () => {
    const docs = fleetDocs();
    const cc = docs.find((d) => d.kind === 'ClusterClass');
    cc.spec.workers.machineDeployments.push({ ...cc.spec.workers.machineDeployments[0] });
    cc.spec.workers.machineDeployments.push({ ...cc.spec.workers.machineDeployments[0] });
    const r = errorsOf([...docs, fleetCluster('c1')]);
    expect(r.errors.filter((e: Obj) => e.kind === 'ClusterClass')).toEqual([
      {
        kind: 'ClusterClass',
        path: 'spec.workers.machineDeployments[2]',
        message: expect.stringMatching(/^Duplicate value: \{"class":"general"\}: /),
      },
    ]);
  });

  it('taints are keyed by key and effect (v1.13+); under 1.12 they are an unknown field', () => {
    const taint = { key: 'a', effect: 'NoSchedule', propagation: 'Always' };
    const cluster = fleetCluster(
      'c1',
      (t) => (t.workers.machineDeployments[0].taints = [taint, { ...taint, value: 'x' }]),
    );
    expect(errorsOf([...fleetDocs(), cluster]).errors).toEqual([
      {
        kind: 'Cluster',
        path: 'spec.topology.workers.machineDeployments[0].taints[1]',
        message: expect.stringMatching(/^Duplicate value: \{"effect":"NoSchedule","key":"a"\}: /),
      },
    ]);
    expect(errorsOf([...fleetDocs(), cluster], '--capi-version', '1.12').errors.map((e: Obj) => e.path)).toEqual([
      'spec.topology.workers.machineDeployments[0].taints',
    ]);
  });
});

describe("a topology or class taint's required fields and enums (MachineTaint, CAPI v1.13+)", () => {
  // CAPI api/core/v1beta2 common_types.go `MachineTaint` (v1.13.6, v1.14.2): key, effect and
  // propagation are +required, effect and propagation enums; the API server refuses the object
  // before CAPI's webhook would refuse the taints for the MachineTaintPropagation gate.
  it('a taint without propagation and with an unknown effect is refused for those alone', () => {
    const cluster = fleetCluster(
      'c1',
      (t) => (t.workers.machineDeployments[0].taints = [{ key: 'a', effect: 'Never' }]),
    );
    const r = errorsOf([...fleetDocs(), cluster]);
    expect(r.errors.map((e: Obj) => [e.path, e.message.replace(/: the API server.*/, '')])).toEqual([
      ['spec.topology.workers.machineDeployments[0].taints[0].propagation', 'Required value'],
      [
        'spec.topology.workers.machineDeployments[0].taints[0].effect',
        'Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ]);
    expect(r.rendered).toEqual([]);
  });

  it('a class taint without key is refused on the class', () => {
    const docs = fleetDocs();
    docs.find((d) => d.kind === 'ClusterClass').spec.controlPlane.taints = [
      { effect: 'NoSchedule', propagation: 'Always' },
    ];
    expect(errorsOf([...docs, fleetCluster('c1')]).errors.filter((e: Obj) => e.kind === 'ClusterClass')).toEqual([
      {
        kind: 'ClusterClass',
        path: 'spec.controlPlane.taints[0].key',
        message: expect.stringMatching(/^Required value: /),
      },
    ]);
  });
});

describe('a variable schema keyword of the wrong type (JSONSchemaProps types it)', () => {
  // CAPI api/core/v1beta2 clusterclass_types.go `JSONSchemaProps.Minimum` is an *int64: the API
  // server's schema validation refuses `minimum: 0.5` at the variable's index before any webhook.
  it('is reported by index, as the API server reports it, and the class renders nothing', () => {
    const docs = fleetDocs();
    docs
      .find((d) => d.kind === 'ClusterClass')
      .spec.variables.push({
        name: 'fraction',
        required: false,
        schema: { openAPIV3Schema: { type: 'number', minimum: 0.5 } },
      });
    const r = errorsOf([...docs, fleetCluster('c1')]);
    expect(r.errors.filter((e: Obj) => e.kind === 'ClusterClass').map((e: Obj) => e.path)).toEqual([
      'spec.variables[1].schema.openAPIV3Schema.minimum',
    ]);
    expect(r.rendered).toEqual([]);
  });
});

describe('a Cluster whose variables the defaulting webhook refuses', () => {
  // CAPI v1.14.2 core/webhooks/admission/cluster.go (v1.12.10, v1.13.6 internal/webhooks/cluster.go)
  // `Cluster.Default` -> `DefaultAndValidateVariables`: mutating admission refuses the request
  // before the validating webhook (its create and update rules) runs.
  const badVariable = (t: Obj) => (t.variables = [{ name: 'imageRepository', value: 3 }]);

  it('is refused for its variables only, not for its invalid topology label', () => {
    const cluster = fleetCluster('c1', (t) => {
      badVariable(t);
      t.controlPlane = { metadata: { labels: { 'bad key!': 'x' } } };
    });
    expect(errorsOf([...fleetDocs(), cluster]).errors.map((e: Obj) => e.path)).toEqual([
      'spec.topology.variables[imageRepository].value',
    ]);
  });

  it('is refused for its variables only, not for a version downgrade from its previous state', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-default-'));
    mkdirSync(join(dir, 'previous'));
    writeFileSync(
      join(dir, 'previous', 'in.yaml'),
      stream([...fleetDocs(), fleetCluster('c1', (t) => (t.version = 'v1.34.0'))]),
    );
    const downgraded = (edit: (t: Obj) => void) =>
      fleetCluster('c1', (t) => {
        t.version = 'v1.33.0';
        edit(t);
      });
    const errors = (cluster: Obj) => {
      writeFileSync(join(dir, 'in.yaml'), stream([...fleetDocs(), cluster]));
      const r = render(join(dir, 'in.yaml'), '--previous', join(dir, 'previous'), '--format', 'resourcelist');
      return YAML.parse(r.stdout)
        .results.filter((x: Obj) => x.severity === 'error')
        .map((x: Obj) => x.field?.path);
    };
    expect(errors(downgraded(() => {}))).toContain('spec.topology.version');
    expect(errors(downgraded(badVariable))).toEqual(['spec.topology.variables[imageRepository].value']);
  });
});

describe('a v1beta1 topology name that makes an invalid object name', () => {
  // CAPI admits the Cluster (the v1beta1 CRD checks only the length) and the class; names.go
  // `GenerateName` does not validate, so the topology controller's create of the MachineDeployment
  // fails: that Cluster's render fails, at its topology name, and its earlier output stays.
  const v1beta1Cluster = (name: string, mdName: string): Obj => ({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Cluster',
    metadata: { name, namespace: 'fleet' },
    spec: {
      topology: {
        class: 'fleet',
        version: 'v1.33.0',
        workers: { machineDeployments: [{ class: 'general', name: mdName }] },
      },
    },
  });
  const withNamingTemplate = (docs: Obj[]) => {
    const md = docs.find((d) => d.kind === 'ClusterClass').spec.workers.machineDeployments[0];
    md.naming = { template: '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}' };
    return docs;
  };

  it.each([
    ['the default naming', fleetDocs],
    ['a class naming template using the topology name', () => withNamingTemplate(fleetDocs())],
  ])('with %s: the Cluster fails to render, not the class; its earlier output is kept', (_, docs) => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-names-'));
    const input = join(dir, 'in.yaml');
    const out = join(dir, 'out');
    writeFileSync(input, stream([...docs(), v1beta1Cluster('c1', 'md-0'), v1beta1Cluster('c2', 'md-0')]));
    expect(render(input, '-o', out).code).toBe(0);
    const earlier = readFileSync(join(out, 'fleet', 'c1.yaml'), 'utf8');

    writeFileSync(input, stream([...docs(), v1beta1Cluster('c1', 'Upper_Case'), v1beta1Cluster('c2', 'md-0')]));
    const r = errorsOf([...docs(), v1beta1Cluster('c1', 'Upper_Case'), v1beta1Cluster('c2', 'md-0')]);
    expect(r.errors).toEqual([
      {
        kind: 'Cluster',
        path: 'spec.topology.workers.machineDeployments[Upper_Case].name',
        message: expect.stringMatching(
          /^failed to generate name for MachineDeployment: metadata.name: Invalid value: "c1-Upper_Case-/,
        ),
      },
    ]);
    expect(new Set(r.rendered.map((o: Obj) => o.metadata.labels['cluster.x-k8s.io/cluster-name']))).toEqual(
      new Set(['c2']),
    );
    expect(render(input, '-o', out).code).toBe(1);
    expect(readFileSync(join(out, 'fleet', 'c1.yaml'), 'utf8')).toBe(earlier);
  });
});

describe.skipIf(fixtureCrdsMissing())('CAPI CRDs given with --crds: a schema error refuses the object', () => {
  // apiextensions-apiserver validates a custom resource against its CRD's schema before any
  // validating webhook (pkg/registry/customresource/validator.go): CAPI never sees such a Cluster
  // or ClusterClass, so nothing is rendered for it and its earlier output is kept.
  const crdDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-crds-'));
    // Only the Cluster and ClusterClass CRDs: the fleet's templates are not what is tested here.
    loadFixtureCrds()
      .filter((crd) =>
        ['clusters.cluster.x-k8s.io', 'clusterclasses.cluster.x-k8s.io'].includes((crd.metadata as Obj).name),
      )
      .forEach((crd, i) => writeFileSync(join(dir, `${i}.yaml`), YAML.stringify(crd)));
    return dir;
  };

  it('a Cluster its CRD refuses, and a ClusterClass its CRD refuses, are not rendered; the others are', () => {
    const crds = crdDir();
    const dir = mkdtempSync(join(tmpdir(), 'rcc-crd-refused-'));
    const input = join(dir, 'in.yaml');
    const out = join(dir, 'out');
    const clusters = () => [fleetCluster('c1'), fleetCluster('c2')];
    writeFileSync(input, stream([...fleetDocs(), ...clusters()]));
    expect(render(input, '--crds', crds, '-o', out).code).toBe(0);
    const earlier = (name: string) => readFileSync(join(out, 'fleet', `${name}.yaml`), 'utf8');
    const [c1, c2] = [earlier('c1'), earlier('c2')];

    // minReadySeconds has `minimum: 0` in the v1beta2 Cluster CRD; the built-in rules do not check it.
    const negative = fleetCluster(
      'c1',
      (t) => ((t.workers.machineDeployments[0].minReadySeconds = -1), (t.version = 'v1.33.1')),
    );
    writeFileSync(input, stream([...fleetDocs(), negative, fleetCluster('c2', (t) => (t.version = 'v1.33.1'))]));
    const refused = render(input, '--crds', crds, '-o', out);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'Cluster fleet/c1 spec.topology.workers.machineDeployments[0].minReadySeconds: Invalid value: -1: spec.topology.workers.machineDeployments[0].minReadySeconds in body should be greater than or equal to 0',
    );
    expect(earlier('c1')).toBe(c1);
    expect(earlier('c2')).not.toBe(c2);

    // The same bound in the ClusterClass CRD: no Cluster of the class is rendered, none of the
    // class's webhook rules is reported (the API server refused it first).
    const docs = fleetDocs();
    docs.find((d) => d.kind === 'ClusterClass').spec.workers.machineDeployments[0].minReadySeconds = -1;
    writeFileSync(input, stream([...docs, fleetCluster('c1'), fleetCluster('c2')]));
    const classRefused = render(input, '--crds', crds, '-o', out);
    expect(classRefused.code).toBe(1);
    expect(classRefused.stderr).toContain(
      'ClusterClass fleet/fleet spec.workers.machineDeployments[0].minReadySeconds: Invalid value: -1',
    );
    expect(classRefused.stderr).toContain('Cluster fleet/c1 spec.topology: ClusterClass "fleet/fleet" is invalid');
    expect(classRefused.stderr).not.toContain('Cluster fleet/c2 spec.topology.workers');
    expect(earlier('c1')).toBe(c1);
  });
});
