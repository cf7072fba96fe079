/**
 * `--capi-version` and `--feature-gates` through the real CLI (bin/render-clusterclass): the
 * supported releases, the usage errors, and each rule that differs between releases
 * (README "What differs per CAPI version"), per release.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CAPI_VERSIONS } from '../../src/core/capi-release.js';
import { DEFAULT_CONFIG } from '../../src/krm/config.js';
import { runInputsDigest } from '../../src/pipeline/reuse.js';

const BIN = join(__dirname, '../../bin/render-clusterclass');
const CLASS = join(__dirname, '../../examples/basic/clusterclass.yaml');
const CLUSTER = readFileSync(join(__dirname, '../../examples/basic/cluster-foo.yaml'), 'utf8');

function render(cluster: string, ...flags: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-capi-version-'));
  writeFileSync(join(dir, 'cluster.yaml'), cluster);
  const r = spawnSync(process.execPath, [BIN, 'render', CLASS, join(dir, 'cluster.yaml'), ...flags], {
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const renderedCluster = (stdout: string) =>
  YAML.parseAllDocuments(stdout)
    .map((d) => d.toJS() as { kind: string; metadata: { annotations?: Record<string, string> } })
    .find((o) => o?.kind === 'Cluster')!;

/** The example's Cluster with a taint on its first MachineDeployment. */
const TAINTED = CLUSTER.replace(
  '        replicas: 5\n',
  '        replicas: 5\n        taints:\n        - key: example.com/dedicated\n          effect: NoSchedule\n          propagation: Always\n',
);

describe('--capi-version', () => {
  it.each(['1.10', '1.16', 'x', 'v1.14', '1.14.2'])(
    '%s is a usage error naming the supported releases (exit 3)',
    (v) => {
      const r = render(CLUSTER, '--capi-version', v);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(
        `invalid function config: capiVersion ${JSON.stringify(v)} is not supported; supported CAPI versions: 1.12, 1.13, 1.14, 1.15`,
      );
      expect(r.stdout).toBe('');
    },
  );

  it.each(CAPI_VERSIONS)('%s renders the example', (v) => {
    expect(render(CLUSTER, '--capi-version', v).code).toBe(0);
  });

  it('the function config key capiVersion is read from --set too', () => {
    expect(render(CLUSTER, '--set', 'capiVersion=1.9').code).toBe(3);
    expect(renderedCluster(render(CLUSTER, '--set', 'capiVersion=1.13').stdout).metadata.annotations).toEqual({
      'topology.internal.cluster.x-k8s.io/upgrade-step': '',
    });
  });
});

describe('--feature-gates', () => {
  it('an unknown gate is a usage error listing CAPI gates (exit 3)', () => {
    const r = render(CLUSTER, '--feature-gates', 'MachineTaintPropagaton=true');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'unknown feature gate "MachineTaintPropagaton"; known gates: ClusterTopology, InPlaceUpdates, KubeadmBootstrapFormatIgnition, MachinePool,',
    );
  });

  it('ClusterTopology cannot be turned off; a value must be true or false', () => {
    expect(render(CLUSTER, '--feature-gates', 'ClusterTopology=false').stderr).toContain(
      'ClusterTopology cannot be turned off',
    );
    expect(render(CLUSTER, '--feature-gates', 'RuntimeSDK=yes').stderr).toContain(
      'feature gate RuntimeSDK must be true or false',
    );
    expect(render(CLUSTER, '--feature-gates', 'ClusterTopology=true,RuntimeSDK=true').code).toBe(0);
  });
});

describe('the upgrade-step annotation on a Cluster not upgrading (exp/topology/desiredstate/desired_state.go computeCluster)', () => {
  it.each([
    ['1.12', { 'topology.internal.cluster.x-k8s.io/upgrade-step': '' }],
    ['1.13', { 'topology.internal.cluster.x-k8s.io/upgrade-step': '' }],
    ['1.14', undefined],
    ['1.15', undefined],
  ])('%s: %j', (v, annotations) => {
    const r = render(CLUSTER, '--capi-version', v);
    expect(renderedCluster(r.stdout).metadata.annotations).toEqual(annotations);
  });

  it('1.14 removes one the input carries', () => {
    const withStep = CLUSTER.replace(
      '    config.kubernetes.io/local-config: "true"\n',
      '    config.kubernetes.io/local-config: "true"\n    topology.internal.cluster.x-k8s.io/upgrade-step: v1.19.0\n',
    );
    expect(renderedCluster(render(withStep).stdout).metadata.annotations).toBeUndefined();
    expect(renderedCluster(render(withStep, '--capi-version', '1.13').stdout).metadata.annotations).toEqual({
      'topology.internal.cluster.x-k8s.io/upgrade-step': '',
    });
  });
});

describe('topology taints (internal/util/taints/validation.go ValidateMachineTaints; no field before v1.13)', () => {
  it('1.12: an unknown field, nothing rendered', () => {
    const r = render(TAINTED, '--capi-version', '1.12');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'strict decoding error: unknown field "spec.topology.workers.machineDeployments[0].taints"',
    );
    expect(r.stdout).toBe('');
  });

  it.each(['1.13', '1.14', '1.15'])('%s: Forbidden while MachineTaintPropagation is off, rendered with it on', (v) => {
    const off = render(TAINTED, '--capi-version', v);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain(
      'spec.topology.workers.machineDeployments[big-pool-of-machines-1].taints: Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled',
    );
    const on = render(TAINTED, '--capi-version', v, '--feature-gates', 'MachineTaintPropagation=true');
    expect(on.code).toBe(0);
    expect(on.stdout).toContain('example.com/dedicated');
  });
});

describe('the reuse digest (pipeline/reuse.ts)', () => {
  it('changes with the CAPI release and with the gates', () => {
    const base = runInputsDigest('r', DEFAULT_CONFIG, []);
    expect(runInputsDigest('r', { ...DEFAULT_CONFIG, capiVersion: '1.13' }, [])).not.toBe(base);
    expect(runInputsDigest('r', { ...DEFAULT_CONFIG, featureGates: { MachineTaintPropagation: true } }, [])).not.toBe(
      base,
    );
    expect(runInputsDigest('r', { ...DEFAULT_CONFIG }, [])).toBe(base);
  });
});
