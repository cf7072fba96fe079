/**
 * The proposal's basic example (ClusterClass "mixed", Cluster "foo"), checked field by field
 * against the spec, and the committed rendered file kept in sync with the renderer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runRender } from '../src/cli/render.js';
import { fakeIO } from './helpers/io.js';

const example = join(import.meta.dirname, '..', 'examples', 'basic');

async function renderExample() {
  const io = fakeIO();
  const code = await runRender([example], io);
  const docs = YAML.parseAllDocuments(io.out).map((d) => d.toJS());
  return { code, docs, err: io.err };
}

describe('examples/basic: ClusterClass mixed, Cluster foo', () => {
  it('renders InfraCluster, KCP, machine templates, MachineDeployments and health checks as the spec says', async () => {
    const { code, docs } = await renderExample();
    expect(code).toBe(0);
    const rendered = docs.filter((d) => d.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === 'foo');
    const byKind = (kind: string) => rendered.filter((d) => d.kind === kind);

    const [vsphereCluster] = byKind('VSphereCluster');
    expect(vsphereCluster.metadata.annotations['cluster.x-k8s.io/cloned-from-name']).toBe(
      'vsphere-prod-cluster-template',
    );
    expect(vsphereCluster.spec.server).toBe('vcenter.example.com');

    const [kcp] = byKind('KubeadmControlPlane');
    expect(kcp.spec.version).toBe('v1.19.1');
    expect(kcp.spec.replicas).toBe(3);
    const cpMachineTemplate = byKind('VSphereMachineTemplate').find(
      (t) => !t.metadata.labels['topology.cluster.x-k8s.io/deployment-name'],
    );
    // v1beta1 KubeadmControlPlane → contract v1beta1 shape of the machine template reference.
    expect(kcp.spec.machineTemplate.infrastructureRef).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'VSphereMachineTemplate',
      name: cpMachineTemplate.metadata.name,
      namespace: 'bar',
    });

    const mds = byKind('MachineDeployment');
    expect(
      mds.map((md) => [md.metadata.labels['topology.cluster.x-k8s.io/deployment-name'], md.spec.replicas]),
    ).toEqual([
      ['big-pool-of-machines-1', 5],
      ['small-pool-of-machines-1', 1],
      ['microsoft-1', 3],
    ]);
    // Topology labels are additive to the class labels; fixed labels always present.
    expect(mds[0].metadata.labels).toEqual({
      'cluster.x-k8s.io/cluster-name': 'foo',
      'custom-label': 'production',
      'topology.cluster.x-k8s.io/deployment-name': 'big-pool-of-machines-1',
      'topology.cluster.x-k8s.io/owned': '',
    });
    expect(mds[0].spec.template.metadata.labels).toEqual(mds[0].metadata.labels);
    expect(mds[1].metadata.labels['custom-label']).toBeUndefined();
    for (const md of mds) {
      expect(md.spec.template.spec.version).toBe('v1.19.1');
      expect(md.spec.selector.matchLabels).toEqual({
        'cluster.x-k8s.io/cluster-name': 'foo',
        'topology.cluster.x-k8s.io/deployment-name': md.metadata.labels['topology.cluster.x-k8s.io/deployment-name'],
        'topology.cluster.x-k8s.io/owned': '',
      });
    }

    const mhcs = byKind('MachineHealthCheck');
    expect(mhcs).toHaveLength(4);
    const cpMhc = mhcs.find((m) => m.metadata.name === kcp.metadata.name);
    expect(cpMhc.spec.selector.matchLabels).toEqual({
      'cluster.x-k8s.io/control-plane': '',
      'topology.cluster.x-k8s.io/owned': '',
    });
    expect(cpMhc.spec.maxUnhealthy).toBe('33%');
    expect(cpMhc.spec.nodeStartupTimeout).toBe('3m0s');
    for (const md of mds) {
      const mhc = mhcs.find((m) => m.metadata.name === md.metadata.name);
      expect(mhc.spec.selector.matchLabels).toEqual({
        'topology.cluster.x-k8s.io/deployment-name': md.metadata.labels['topology.cluster.x-k8s.io/deployment-name'],
        'topology.cluster.x-k8s.io/owned': '',
      });
      expect(mhc.spec.unhealthyConditions).toHaveLength(2);
    }

    // expand mode: the Cluster in classic form points at the rendered objects.
    const [cluster] = docs.filter((d) => d.kind === 'Cluster');
    expect(cluster.spec.topology).toBeUndefined();
    expect(cluster.spec.infrastructureRef.name).toBe(vsphereCluster.metadata.name);
    expect(cluster.spec.controlPlaneRef.name).toBe(kcp.metadata.name);
  });

  it('the committed rendered file is what the renderer produces now', async () => {
    const io = fakeIO();
    expect(await runRender([example, '--format', 'all'], io)).toBe(0);
    const generated = YAML.parseAllDocuments(io.out)
      .map((d) => d.toJS())
      .filter((d) => d.metadata.annotations?.['internal.config.kubernetes.io/path'] === 'rendered/bar/foo.yaml');
    const committed = YAML.parseAllDocuments(readFileSync(join(example, 'rendered', 'bar', 'foo.yaml'), 'utf8')).map(
      (d) => d.toJS(),
    );
    const strip = (d: { metadata: { annotations?: Record<string, string> } }) => {
      for (const k of Object.keys(d.metadata.annotations ?? {}))
        if (k.includes('config.kubernetes.io/')) delete d.metadata.annotations![k];
      return d;
    };
    expect(committed.map(strip)).toEqual(generated.map(strip));
  });
});

describe('provenance option', () => {
  it('writes a provenance report next to the rendered file', async () => {
    const { mkdtempSync, readFileSync: read, existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const out = mkdtempSync(join(tmpdir(), 'rcc-prov-'));
    const io = fakeIO();
    expect(await runRender([example, '--set', 'provenance=true', '-o', out], io)).toBe(0);
    const file = join(out, 'bar', 'foo_provenance.yaml');
    expect(existsSync(file)).toBe(true);
    const report = YAML.parse(read(file, 'utf8'));
    expect(report.kind).toBe('ProvenanceReport');
    const kcp = report.spec.objects.find((o: { kind: string }) => o.kind === 'KubeadmControlPlane');
    const replicas = kcp.fields.find((f: { path: string }) => f.path === 'spec.replicas');
    expect(replicas.source).toMatchObject({ kind: 'topology', path: 'spec.topology.controlPlane.replicas' });
  });
});
