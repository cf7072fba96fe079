/**
 * The comparison itself (scripts/oracle/compare.mjs): names agree only outside CAPI's random bytes,
 * and a product object that differs from CAPI's desired object in one field is one difference at
 * that field, while the product's bookkeeping annotations and generated names are not.
 */
import { describe, expect, it } from 'vitest';
import { compareAnswers, namesAgree, signatureOf, type OracleAnswer, type ProductRender } from '../../scripts/oracle/compare.mjs';

describe('CAPI oracle comparison', () => {
  it('matches names outside the five random bytes only', () => {
    expect(namesAgree('c1-md-0-x7k2p', 'c1-md-0-b9qzz', [8, 13])).toBe(true);
    expect(namesAgree('c1-md-0-x7k2p', 'c1-md-1-b9qzz', [8, 13])).toBe(false);
    expect(namesAgree('c1-md-0-x7k2p', 'c1-md-0-B9QZZ', [8, 13])).toBe(false);
    expect(namesAgree('c1-infra', 'c1-infrx', undefined)).toBe(false);
  });

  const cluster = (infra: string) => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'ns', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } }, spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'GenCluster', name: infra } } });
  const infra = (name: string, size: number) => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'GenCluster', metadata: { name, namespace: 'ns', annotations: { 'cluster.x-k8s.io/cloned-from-name': 'infra' } }, spec: { size, owner: `${name}-owner` } });
  const answer: OracleAnswer = {
    oracle: { capi: 'v1.14.2' },
    admission: [{ kind: 'Cluster', namespace: 'ns', name: 'c1', allowed: true }],
    clusterClasses: [],
    clusters: [{ kind: 'Cluster', namespace: 'ns', name: 'c1', objects: [{ role: 'Cluster', object: cluster('c1-abcde') }, { role: 'InfrastructureCluster', object: infra('c1-abcde', 3), nameRandom: [3, 8] }] }],
  };
  const render = (size: number): ProductRender => {
    const mark = (o: Record<string, any>) => ({ ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, 'render-clusterclass.dev/cluster': 'ns/c1', 'config.kubernetes.io/index': '0' } } });
    return { code: 0, stderr: '', results: [], items: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'ns' }, spec: { topology: {} } }, mark(cluster('c1-zzzzz')), mark(infra('c1-zzzzz', size))] };
  };

  it('sees no difference modulo bookkeeping annotations and generated names', () => {
    expect(compareAnswers(answer, render(3)).differences).toEqual([]);
  });

  it('names the field that differs', () => {
    expect(compareAnswers(answer, render(4)).differences.map(signatureOf)).toEqual(['object Cluster ns/c1 InfrastructureCluster: spec.size']);
  });

  it('reads an object whose name the API server refuses as a failed render: the product must fail the Cluster', () => {
    // A v1beta1 topology name `Upper_Case`: CAPI admits the Cluster and computes the objects, and
    // the topology controller's create of the MachineDeployment fails.
    const nameRefused = { errors: [{ origin: 'apiserver', type: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value: "c1-Upper_Case-abcde"' }] };
    const refused: OracleAnswer = { ...answer, clusters: [{ ...answer.clusters[0]!, objects: [...answer.clusters[0]!.objects.slice(0, 1), { ...answer.clusters[0]!.objects[1]!, apiServer: nameRefused }] }] };
    const failed: ProductRender = {
      code: 1,
      stderr: '',
      results: [{ severity: 'error', message: 'failed to generate name for MachineDeployment', resourceRef: { kind: 'Cluster', namespace: 'ns', name: 'c1' }, field: { path: 'spec.topology.workers.machineDeployments[Upper_Case].name' } }],
      items: render(3).items.slice(0, 1),
    };
    expect(compareAnswers(refused, failed).differences).toEqual([]);
    expect(compareAnswers(refused, render(3)).differences.map(signatureOf)).toEqual([
      'render Cluster ns/c1: oracle not rendered; product no error',
      'render Cluster ns/c1: oracle not rendered; product rendered 2 objects',
    ]);
  });
});
