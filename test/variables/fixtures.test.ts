import { describe, expect, it } from 'vitest';
import {
  compileClassVariables,
  defaultAndValidateClusterVariables,
  statusVariables,
} from '../../src/variables/index.js';
import {
  classFromDoc,
  classRef,
  clusterFromDoc,
  clusterRef,
  fixtureFiles,
  fixturesAvailable,
  loadDocs,
} from './helpers.js';

const skipMessage = 'real-world fixtures (../shared/fixtures/real-world) not found: skipping';
if (!fixturesAvailable) console.warn(skipMessage);

describe.skipIf(!fixturesAvailable)('real-world ClusterClasses (variables)', () => {
  const files = fixturesAvailable ? fixtureFiles() : [];
  for (const file of files) {
    it(`${file}: class compiles and every Cluster validates cleanly`, () => {
      const docs = loadDocs(file);
      const classes = docs.filter((d) => d.kind === 'ClusterClass').map(classFromDoc);
      const clusters = docs.filter((d) => d.kind === 'Cluster').map(clusterFromDoc);
      expect(classes.length).toBeGreaterThan(0);
      for (const cc of classes) {
        const { variables, results } = compileClassVariables(cc, classRef(cc.name));
        expect(results.filter((r) => r.severity === 'error')).toEqual([]);
        expect(statusVariables(variables).length).toBe(cc.variables.length);
        for (const cluster of clusters.filter((c) => c.className === cc.name)) {
          const out = defaultAndValidateClusterVariables(variables, cluster, clusterRef(cluster.name));
          expect(out.results, cluster.name).toEqual([]);
        }
      }
    });
  }

  it('qs-minimal gets the defaulted variables appended in alphabetical order', () => {
    const docs = loadDocs('capi-docker-quick-start.yaml');
    const cc = classFromDoc(docs.find((d) => d.kind === 'ClusterClass')!);
    const cluster = clusterFromDoc(
      docs.find((d) => d.kind === 'Cluster' && (d.metadata as { name: string }).name === 'qs-minimal')!,
    );
    const { variables } = compileClassVariables(cc, classRef(cc.name));
    const out = defaultAndValidateClusterVariables(variables, cluster, clusterRef(cluster.name));
    expect(out.results).toEqual([]);
    const userNames = cluster.topology.variables.map((v) => v.name);
    const appended = out.variables.cluster.slice(userNames.length);
    expect(out.variables.cluster.slice(0, userNames.length).map((v) => v.name)).toEqual(userNames);
    const expected: Record<string, unknown> = {
      lbImageRepository: 'kindest',
      etcdImageTag: '',
      coreDNSImageTag: '',
      kubeadmControlPlaneMaxSurge: '',
      preLoadImages: [],
      controlPlaneTaint: true,
      externalCloudProvider: false,
      ipv6Primary: false,
    };
    for (const [name, value] of Object.entries(expected)) {
      if (userNames.includes(name)) continue;
      expect(appended.find((v) => v.name === name)?.value, name).toEqual(value);
    }
    const names = appended.map((v) => v.name);
    expect(names).toEqual([...names].sort());
    expect(names).not.toContain('kubeControlPlaneLogLevel');
    expect(names).not.toContain('kubeletLogLevel');
  });

  it('evaluates the messageExpression rule of the quick-start class', () => {
    const docs = loadDocs('capi-docker-quick-start.yaml');
    const cc = classFromDoc(docs.find((d) => d.kind === 'ClusterClass')!);
    const { variables } = compileClassVariables(cc, classRef(cc.name));
    const def = variables.byName.get('kubeadmControlPlaneMaxSurge')!;
    expect(def.cel?.rules[0]?.rule.program).toBeDefined();
    expect(def.cel?.rules[0]?.message?.program).toBeDefined();
  });
});
