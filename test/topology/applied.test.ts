/**
 * What the topology controller applies of the InfrastructureCluster and ControlPlane
 * (src/topology/applied.ts). Cases and expected values from CAPI:
 * internal/contract/infrastructure_cluster_test.go `TestInfrastructureClusterIgnorePaths` (which
 * paths are ignored) and internal/util/ssa/filterintent_test.go `Test_filterIgnoredPaths` (the
 * ignored paths leave the intent, and so do the maps emptied by it, up to `spec`).
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import { dropIgnoredPaths } from '../../src/topology/applied.js';

const applied = (spec: JsonObject | undefined): JsonObject => {
  const obj: JsonObject = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSCluster',
    metadata: { name: 'c1-abcde' },
  };
  if (spec !== undefined) obj.spec = spec;
  dropIgnoredPaths(obj);
  return obj;
};

describe('dropIgnoredPaths (CAPI contract IgnorePaths + FilterIntent)', () => {
  it('no ignore paths: endpoint unset, null, {} or set to non-zero values', () => {
    for (const spec of [
      { server: '1.2.3.4' },
      { controlPlaneEndpoint: null },
      { controlPlaneEndpoint: {} },
      { controlPlaneEndpoint: { host: 'example.com' } },
      { controlPlaneEndpoint: { port: 6443 } },
    ] as JsonObject[]) {
      expect(applied(structuredClone(spec)).spec).toEqual(spec);
    }
  });

  it('host "" and port 0 are ignored, each on its own', () => {
    expect(applied({ region: 'r', controlPlaneEndpoint: { host: '', port: 6443 } }).spec).toEqual({
      region: 'r',
      controlPlaneEndpoint: { port: 6443 },
    });
    expect(applied({ region: 'r', controlPlaneEndpoint: { host: 'example.com', port: 0 } }).spec).toEqual({
      region: 'r',
      controlPlaneEndpoint: { host: 'example.com' },
    });
  });

  it('both zero: the emptied endpoint goes, and so does a spec it leaves empty', () => {
    expect(applied({ region: 'r', controlPlaneEndpoint: { host: '', port: 0 } }).spec).toEqual({ region: 'r' });
    expect(applied({ controlPlaneEndpoint: { host: '', port: 0 } })).not.toHaveProperty('spec');
  });
});
