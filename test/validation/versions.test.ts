/**
 * Kubernetes versions as CAPI v1.14 parses them, build metadata included (`v1.36.0+rke2r1`, the
 * form every RKE2 class uses; `v1.31.8+k3s1` for K3s):
 * - Cluster webhook (core/webhooks/admission/cluster.go `validateTopology`): blang `semver.Parse`
 *   of the version without its `v`; `kubernetesVersions` membership is an exact string match.
 * - ClusterClass webhook (core/webhooks/admission/clusterclass.go `validateKubernetesVersions`):
 *   `ParseTolerant`, then `version.Compare(v, previous, WithBuildTags()) <= 0` is an error, so
 *   another build of the same version (Compare = 2) is tolerated but `+2` after `+10` is not.
 * - Update rule (cluster.go `validateTopologyVersionUpdate`): `Compare(..., WithoutPreReleases())`
 *   ignores build metadata; the one-minor ceiling is `old.minor + 2`.
 * Upgrade sequencing with build tags is tested in test/topology/upgrade.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { brief, fleetCluster, fleetDocs, itemsOf, runScenario, type Obj } from '../helpers/scenario.js';

const withVersions = (versions: string[]) => {
  const docs = fleetDocs();
  docs[0].spec.kubernetesVersions = versions;
  return docs;
};
const clusterAt = (version: string) => fleetCluster('c1', (t) => (t.version = version));

describe('Cluster webhook: semver.Parse accepts build metadata', () => {
  it('a Cluster at v1.36.0+rke2r1 renders, with and without the version listed in the class', () => {
    for (const docs of [fleetDocs(), withVersions(['v1.35.3+rke2r1', 'v1.36.0+rke2r1'])]) {
      const r = runScenario([...docs, clusterAt('v1.36.0+rke2r1')]);
      expect(r.errors.map(brief)).toEqual([]);
      expect(r.rendered).toEqual(['fleet/c1']);
      const kcp = r.generated[0]!.objects.find((o: Obj) => o.kind === 'KubeadmControlPlane') as Obj;
      expect(kcp.spec.version).toBe('v1.36.0+rke2r1');
    }
  });

  it('`1.36.0+rke2r1` gets its `v` (mutating webhook) and renders', () => {
    const r = runScenario([...fleetDocs(), clusterAt('1.36.0+rke2r1')]);
    expect(r.errors).toEqual([]);
    const kcp = r.generated[0]!.objects.find((o: Obj) => o.kind === 'KubeadmControlPlane') as Obj;
    expect(kcp.spec.version).toBe('v1.36.0+rke2r1');
  });

  it('rejects what blang semver.Parse rejects: an empty build identifier, a short version', () => {
    for (const version of ['v1.36.0+', 'v1.36+rke2r1', 'v1.36.0+rke2_r1']) {
      const r = runScenario([...fleetDocs(), clusterAt(version)]);
      expect(r.errors.map(brief)).toEqual([
        {
          severity: 'error',
          ref: 'Cluster fleet/c1',
          path: 'spec.topology.version',
          message: `Invalid value: "${version}": version must be a valid semantic version; use a version such as v1.32.0`,
        },
      ]);
    }
  });

  it('kubernetesVersions membership is an exact string match: another build is not listed', () => {
    const r = runScenario([...withVersions(['v1.35.3+rke2r1', 'v1.36.0+rke2r1']), clusterAt('v1.36.0+rke2r2')]);
    expect(r.errors.map((e) => e.message)).toEqual([
      'Invalid value: "v1.36.0+rke2r2": version must match one of the versions defined in the ClusterClass; use one of the versions in the ClusterClass spec.kubernetesVersions, or add this version there',
    ]);
  });
});

describe('ClusterClass webhook: kubernetesVersions ordered with build tags', () => {
  // A class is checked when a Cluster uses it; the Cluster uses the first listed version.
  const classErrors = (versions: string[]) =>
    runScenario([...withVersions(versions), clusterAt(versions[0]!)])
      .errors.filter((e) => e.resourceRef?.kind === 'ClusterClass')
      .map((e) => [e.field?.path, e.message]);

  it('accepts RKE2 and K3s lists, and another build of the same version (Compare = 2)', () => {
    expect(classErrors(['v1.35.3+rke2r1', 'v1.36.0+rke2r1', 'v1.36.0+rke2r2', 'v1.37.1+rke2r1'])).toEqual([]);
    expect(classErrors(['v1.31.8+k3s1', 'v1.32.5+k3s1'])).toEqual([]);
    expect(classErrors(['v1.36.0', 'v1.36.0+1', 'v1.36.0+1.0'])).toEqual([]);
  });

  it('rejects a numerically lower or shorter build of the same version (Compare = -1)', () => {
    expect(classErrors(['v1.36.0+10', 'v1.36.0+2'])).toEqual([
      [
        'spec.kubernetesVersion[1]',
        'Invalid value: "v1.36.0+2": version must be greater than v1.36.0+10; list each version once, in increasing order',
      ],
    ]);
    expect(classErrors(['v1.36.0+rke2r1', 'v1.36.0'])).toEqual([
      [
        'spec.kubernetesVersion[1]',
        'Invalid value: "v1.36.0": version must be greater than v1.36.0+rke2r1; list each version once, in increasing order',
      ],
    ]);
  });
});

describe('Update rule: build metadata does not count, the one-minor ceiling does', () => {
  const update = (from: string, to: string, docs = fleetDocs()) =>
    runScenario(
      [...docs, clusterAt(to)],
      {},
      { previousInputs: itemsOf([...fleetDocs(), clusterAt(from)]) },
    ).errors.filter((e) => e.tags?.rule === 'version-update');

  it('accepts a build-only change in either direction and a one-minor upgrade', () => {
    expect(update('v1.36.0+rke2r2', 'v1.36.0+rke2r1')).toEqual([]);
    expect(update('v1.35.3+rke2r1', 'v1.36.0+rke2r1')).toEqual([]);
  });

  it('rejects two minors up (no kubernetesVersions) and a downgrade, naming the versions as blang prints them', () => {
    expect(update('v1.35.3+rke2r1', 'v1.37.0+rke2r1').map((e) => e.message)).toEqual([
      'Invalid value: "v1.37.0+rke2r1": version cannot be increased from "1.35.3+rke2r1" to "1.37.0+rke2r1"; upgrade one minor version at a time (to v1.36.x first), or list the versions in the ClusterClass spec.kubernetesVersions',
    ]);
    expect(update('v1.36.1+rke2r1', 'v1.36.0+rke2r9').map((e) => e.message)).toEqual([
      'Invalid value: "v1.36.0+rke2r9": version cannot be decreased from "1.36.1+rke2r1" to "1.36.0+rke2r9"; Kubernetes cannot be downgraded: restore version v1.36.1+rke2r1 (or later)',
    ]);
  });
});
