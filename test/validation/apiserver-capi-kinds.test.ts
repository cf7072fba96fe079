/**
 * The API server's side of CAPI's own kinds, without their CRDs (the product knows its own kinds'
 * schema), through the real CLI. Found by the CAPI oracle (test/oracle/DIVERGENCES.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, run } from '../helpers/tools.js';
import { fleetCluster, fleetDocs, type Obj } from '../helpers/scenario.js';

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
