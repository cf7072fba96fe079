import { describe, expect, it } from 'vitest';
import { compileClassVariables, defaultAndValidateClusterVariables } from '../../src/variables/index.js';
import type { Cluster, ClusterClass } from '../../src/core/model.js';

const classRef = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'ClusterClass', name: 'c', namespace: 'ns' };
const clusterRef = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'x', namespace: 'ns' };

function run(rule: string, value: unknown) {
  const cc = {
    name: 'c',
    namespace: 'ns',
    sourceApiVersion: 'cluster.x-k8s.io/v1beta2',
    metadata: {},
    controlPlane: { templateRef: { apiVersion: 'a/v1', kind: 'KT', name: 'k', fieldPath: 'x' } },
    workers: { machineDeployments: [], machinePools: [] },
    variables: [
      {
        name: 'v',
        required: true,
        fieldPath: 'spec.variables[0]',
        schema: {
          openAPIV3Schema: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule }] },
        },
      },
    ],
    patches: [],
  } as unknown as ClusterClass;
  const compiled = compileClassVariables(cc, classRef);
  const cluster = {
    name: 'x',
    namespace: 'ns',
    sourceApiVersion: 'cluster.x-k8s.io/v1beta2',
    metadata: {},
    topology: {
      classRef: { name: 'c' },
      version: 'v1.30.0',
      controlPlane: {},
      workers: { machineDeployments: [], machinePools: [] },
      variables: [{ name: 'v', value }],
    },
  } as unknown as Cluster;
  return defaultAndValidateClusterVariables(compiled.variables, cluster, clusterRef).results;
}

describe('CEL cost limit', () => {
  it('cancels a rule whose nested comprehensions over the value exceed the cost limit', () => {
    const results = run(
      'self.all(x, self.all(y, self.all(z, x + y + z != "")))',
      Array.from({ length: 2000 }, (_, i) => `s${i}`),
    );
    expect(results.map((r) => r.message)).toEqual([
      expect.stringContaining('operation cancelled: actual cost limit exceeded'),
    ]);
    expect(results[0]!.field?.path).toBe('spec.topology.variables[v].value');
  });

  it('evaluates the same rule normally on small values', () => {
    expect(run('self.all(x, self.all(y, x + y != ""))', ['a', 'b', 'c'])).toEqual([]);
  });
});
