/**
 * capi-in-memory.yaml — CAPI's v1.14 in-memory class: a KubeadmControlPlaneTemplate and a
 * KubeadmConfigTemplate with no `spec` at all, so every control plane field the topology sets is
 * created from nothing (§2.2, §2.5); control plane and MachineDeployment health checks in the
 * class (§2.9). Expectations from the fixture README's "Expected-result hints" and the YAML;
 * each holds with and without the fixture CRDs.
 */
import { describe, expect, it } from 'vitest';
import { MD_NAME, clusterOf, expectNoErrors, fixtureMissing, rendersOf } from './helpers.js';

const FILE = 'capi-in-memory.yaml';
const CLASS_CHECKS = [
  { type: 'Ready', status: 'Unknown', timeoutSeconds: 300 },
  { type: 'Ready', status: 'False', timeoutSeconds: 300 },
];

describe.skipIf(fixtureMissing(FILE))('real-world: capi-in-memory', () => {
  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters with no error result', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/in-memory-1', 'default/in-memory-bare']);
      });

      it('in-memory-1: the KubeadmControlPlane is built from the topology (version, replicas, machine template) although its template has no spec', () => {
        const { controlPlane: kcp, cpMachineTemplate } = clusterOf(render(), 'in-memory-1');
        expect(kcp.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta2');
        expect(kcp.spec.version).toBe('v1.34.2');
        expect(kcp.spec.replicas).toBe(3);
        // Contract v1beta2: machineTemplate.spec.infrastructureRef (apiGroup, kind, name).
        expect(kcp.spec.machineTemplate.spec.infrastructureRef).toEqual({
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: 'DevMachineTemplate',
          name: cpMachineTemplate.metadata.name,
        });
        expect(kcp.spec.machineTemplate.metadata.labels).toMatchObject({
          'Cluster.topology.controlPlane.label': 'Cluster.topology.controlPlane.labelValue',
          'Cluster.topology.controlPlane.label.node.cluster.x-k8s.io': 'Cluster.topology.controlPlane.nodeLabelValue',
        });
        expect(kcp.spec.machineTemplate.metadata.annotations).toMatchObject({
          'Cluster.topology.controlPlane.annotation': 'Cluster.topology.controlPlane.annotationValue',
          'Cluster.topology.controlPlane.annotation.node.cluster.x-k8s.io':
            'Cluster.topology.controlPlane.nodeAnnotationValue',
        });
      });

      it('in-memory-1: the worker KubeadmConfigTemplate clone has no spec either', () => {
        const md = clusterOf(render(), 'in-memory-1').md['md-0']!;
        expect(md.bootstrap.kind).toBe('KubeadmConfigTemplate');
        expect(md.bootstrap.spec).toBeUndefined();
        expect(md.md.spec.replicas).toBe(2);
      });

      it('in-memory-bare: no control plane replicas and no control plane MachineHealthCheck (enabled: false)', () => {
        const c = clusterOf(render(), 'in-memory-bare');
        expect(c.controlPlane.spec.replicas).toBeUndefined();
        expect(c.cpHealthCheck).toBeUndefined();
        expect(c.controlPlane.spec.version).toBe('v1.33.5');
      });

      it('in-memory-bare: one MachineHealthCheck per MachineDeployment; md-b takes the topology checks, md-a the class ones', () => {
        const c = clusterOf(render(), 'in-memory-bare');
        expect(c.mhcs).toHaveLength(2);
        expect(c.mhcs.map((m) => m.spec.selector.matchLabels[MD_NAME]).sort()).toEqual(['md-a', 'md-b']);
        expect(c.md['md-b']!.mhc.spec.checks).toEqual({
          nodeStartupTimeoutSeconds: 600,
          unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 120 }],
        });
        expect(c.md['md-a']!.mhc.spec.checks.unhealthyNodeConditions).toEqual(CLASS_CHECKS);
        expect(c.md['md-b']!.md.spec.replicas).toBe(0);
      });
    });
  }
});
