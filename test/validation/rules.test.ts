/**
 * The webhook field rules of src/webhooks/rules.ts at their boundaries: each minimum, each
 * "cannot both be" pair and its valid neighbours, with CAPI's texts from core/webhooks/admission
 * (machinedeployment.go `validateRolloutStrategy`, machinehealthcheck.go
 * `validateMachineHealthCheckNodeStartupTimeoutSeconds`, cluster.go upgrade-concurrency,
 * clusterclass.go `validateKubernetesVersions`) and internal/util/taints `ValidateMachineTaints`.
 * The text after "; " is the renderer's fix hint, written out literally.
 */
import { describe, expect, it } from 'vitest';
import type { HealthCheck, Json, Taint } from '../../src/core/model.js';
import { CAPI_VERSIONS, capiProfile, type CapiVersion, type FeatureGates } from '../../src/core/capi-release.js';
import {
  cidrErrors,
  hasAutoscalerAnnotations,
  healthCheckErrors,
  intOrPercentErrors,
  kubernetesVersionsErrors,
  metadataErrors,
  rolloutStrategyErrors,
  taintErrors,
  topologyTaintResults,
  topologyVersionValid,
  upgradeConcurrencyErrors,
} from '../../src/webhooks/rules.js';
import { errorString, invalid, type FieldError } from '../../src/core/fielderror.js';
import { child, fixed, keyed, toResults } from '../../src/core/fixes.js';

const texts = (errors: readonly FieldError[]): string[] => errors.map(errorString);
const INT_OR_PERCENT = 'use an integer such as 1 or a percentage such as "25%"';

describe('rollout strategy (validateRolloutStrategy)', () => {
  const rollout = (maxSurge: Json | undefined, maxUnavailable: Json | undefined) =>
    texts(
      rolloutStrategyErrors(
        {
          type: 'RollingUpdate',
          rollingUpdate: {
            ...(maxSurge !== undefined ? { maxSurge } : {}),
            ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
          },
        },
        'md.rollout.strategy',
      ),
    );

  it('maxSurge and maxUnavailable cannot both be the integer 0', () => {
    expect(rollout(0, 0)).toEqual([
      'md.rollout.strategy.rollingUpdate: Invalid value: "0": maxUnavailable and maxSurge cannot both be 0; set maxSurge or maxUnavailable above 0',
    ]);
  });

  it('either one above 0 is valid, and so are percentages of 0 (only Type == intstr.Int counts)', () => {
    expect(rollout(0, 1)).toEqual([]);
    expect(rollout(1, 0)).toEqual([]);
    expect(rollout('0%', 0)).toEqual([]);
    expect(rollout(0, '0%')).toEqual([]);
    expect(rollout(0, undefined)).toEqual([]);
    expect(rollout(undefined, 0)).toEqual([]);
  });

  it('each value must be an int or a percentage', () => {
    expect(rollout('1', '25%')).toEqual([
      `md.rollout.strategy.rollingUpdate.maxSurge: Invalid value: "1": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage; ${INT_OR_PERCENT}`,
    ]);
    expect(rollout('25%', 'x%')).toEqual([
      `md.rollout.strategy.rollingUpdate.maxUnavailable: Invalid value: "x%": must be either an int or a percentage: invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax; ${INT_OR_PERCENT}`,
    ]);
  });

  it('no rollingUpdate, or one that is not an object, has nothing to check', () => {
    expect(rolloutStrategyErrors(undefined, 'p')).toEqual([]);
    expect(rolloutStrategyErrors({ type: 'OnDelete' }, 'p')).toEqual([]);
    expect(rolloutStrategyErrors({ rollingUpdate: [0, 0] }, 'p')).toEqual([]);
    expect(rolloutStrategyErrors({ rollingUpdate: 'x' }, 'p')).toEqual([]);
    expect(rolloutStrategyErrors({ rollingUpdate: null }, 'p')).toEqual([]);
  });
});

describe('health checks (MachineHealthCheck webhook rules)', () => {
  const both = { maxInFlight: true, startupTimeout: true };
  const startup = (nodeStartupTimeoutSeconds: number) =>
    texts(healthCheckErrors({ checks: { nodeStartupTimeoutSeconds } } as HealthCheck, 'hc', both));

  it('nodeStartupTimeoutSeconds is 0 (disabled) or at least 30', () => {
    expect(startup(0)).toEqual([]);
    expect(startup(30)).toEqual([]);
    expect(startup(31)).toEqual([]);
    expect(startup(29)).toEqual([
      'hc.checks.nodeStartupTimeoutSeconds: Invalid value: 29: must be at least 30s; set it to 0 (no startup timeout) or to at least 30',
    ]);
    expect(startup(1)).toHaveLength(1);
    expect(startup(-1)).toHaveLength(1);
  });

  it('the startup timeout is only checked where asked', () => {
    expect(
      healthCheckErrors({ checks: { nodeStartupTimeoutSeconds: 10 } } as HealthCheck, 'hc', {
        maxInFlight: true,
        startupTimeout: false,
      }),
    ).toEqual([]);
  });

  it('unhealthyLessThanOrEqualTo always, maxInFlight only for MachineDeployments', () => {
    const hc = {
      remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 'x' }, maxInFlight: 'y' },
    } as unknown as HealthCheck;
    const bad = (path: string, v: string) =>
      `${path}: Invalid value: "${v}": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage; ${INT_OR_PERCENT}`;
    expect(texts(healthCheckErrors(hc, 'hc', both))).toEqual([
      bad('hc.remediation.triggerIf.unhealthyLessThanOrEqualTo', 'x'),
      bad('hc.remediation.maxInFlight', 'y'),
    ]);
    expect(texts(healthCheckErrors(hc, 'hc', { maxInFlight: false, startupTimeout: true }))).toEqual([
      bad('hc.remediation.triggerIf.unhealthyLessThanOrEqualTo', 'x'),
    ]);
    expect(healthCheckErrors(undefined, 'hc', both)).toEqual([]);
    expect(intOrPercentErrors(3, 'p')).toEqual([]);
    expect(intOrPercentErrors('30%', 'p')).toEqual([]);
  });
});

describe('upgrade-concurrency annotation (Cluster webhook)', () => {
  const annotation = (v: string) =>
    texts(upgradeConcurrencyErrors({ 'topology.cluster.x-k8s.io/upgrade-concurrency': v }));
  const path = 'metadata.annotations[topology.cluster.x-k8s.io/upgrade-concurrency]';
  const fix = 'set the annotation to a whole number of at least 1, e.g. "1"';

  it('strconv.Atoi must parse it and the value must be at least 1', () => {
    expect(annotation('1')).toEqual([]);
    expect(annotation('+2')).toEqual([]);
    expect(annotation('10')).toEqual([]);
    expect(annotation('0')).toEqual([`${path}: Invalid value: "0": value cannot be less than 1; ${fix}`]);
    expect(annotation('-1')).toEqual([`${path}: Invalid value: "-1": value cannot be less than 1; ${fix}`]);
    expect(annotation('1.5')).toEqual([
      `${path}: Invalid value: "1.5": could not parse the value of the annotation: strconv.Atoi: parsing "1.5": invalid syntax; ${fix}`,
    ]);
    expect(annotation('')).toEqual([
      `${path}: Invalid value: "": could not parse the value of the annotation: strconv.Atoi: parsing "": invalid syntax; ${fix}`,
    ]);
  });

  it('no annotation, nothing to check', () => {
    expect(upgradeConcurrencyErrors(undefined)).toEqual([]);
    expect(upgradeConcurrencyErrors({ other: '0' })).toEqual([]);
  });
});

describe('taints (ValidateMachineTaints)', () => {
  const taint = (key: string) => texts(taintErrors([{ key, effect: 'NoSchedule' }], 'spec.taints'));
  const prefixFix = 'remove the taint or use a key under your own prefix (e.g. example.com/dedicated)';

  it('reserved keys, reserved prefixes and the deprecated master taint', () => {
    expect(taint('node.cluster.x-k8s.io/uninitialized')).toEqual([
      'spec.taints[0].key: Invalid value: "node.cluster.x-k8s.io/uninitialized": taint key is not allowed; remove the taint: Cluster API manages this key',
    ]);
    expect(taint('node.cluster.x-k8s.io/outdated-revision')).toEqual([
      'spec.taints[0].key: Invalid value: "node.cluster.x-k8s.io/outdated-revision": taint key is not allowed; remove the taint: Cluster API manages this key',
    ]);
    expect(taint('node.kubernetes.io/unreachable')).toEqual([
      `spec.taints[0].key: Invalid value: "node.kubernetes.io/unreachable": taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service; ${prefixFix}`,
    ]);
    expect(taint('node.cloudprovider.kubernetes.io/uninitialized')).toEqual([
      `spec.taints[0].key: Invalid value: "node.cloudprovider.kubernetes.io/uninitialized": taint key must not have the prefix node.cloudprovider.kubernetes.io/; ${prefixFix}`,
    ]);
    expect(taint('node-role.kubernetes.io/master')).toEqual([
      'spec.taints[0].key: Invalid value: "node-role.kubernetes.io/master": taint is deprecated since 1.24 and should not be used anymore; use node-role.kubernetes.io/control-plane instead',
    ]);
  });

  it('their valid neighbours pass', () => {
    for (const key of [
      'node.kubernetes.io/out-of-service',
      'node-role.kubernetes.io/control-plane',
      'node.cluster.x-k8s.io/other',
      'example.com/node.kubernetes.io',
      'dedicated',
    ]) {
      expect(taint(key), key).toEqual([]);
    }
  });

  it('keys are label keys (content.IsLabelKey), each taint at its own index', () => {
    expect(
      texts(
        taintErrors(
          [
            { key: 'ok', effect: 'NoSchedule' },
            { key: '-bad', effect: 'NoSchedule' },
          ],
          'p',
        ),
      ),
    ).toEqual([
      "p[1].key: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); use a valid label key as taint key ([prefix/]name)",
    ]);
    expect(taintErrors(undefined, 'p')).toEqual([]);
    // Taints are read as written: one without a key is checked as the key "" (IsQualifiedName).
    expect(texts(taintErrors([{ effect: 'NoSchedule' } as unknown as Taint], 'p'))).toEqual([
      'p[0].key: Invalid value: "": name part must be non-empty; use a valid label key as taint key ([prefix/]name)',
      "p[0].key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); use a valid label key as taint key ([prefix/]name)",
    ]);
  });

  describe('per CAPI release (topologyTaintResults)', () => {
    const lists = [
      {
        taints: [{ key: 'a', effect: 'NoSchedule' as const }],
        path: 'spec.topology.workers.machineDeployments[md-0].taints',
        indexPath: 'spec.topology.workers.machineDeployments[0].taints',
      },
    ];
    const ref = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', namespace: 'default', name: 'c1' };
    const of = (version: CapiVersion, gates: Partial<FeatureGates> = {}) =>
      topologyTaintResults(lists, ref, capiProfile(version, gates)).map((r) => [r.severity, r.field?.path, r.message]);

    it('v1.12 (api/core/v1beta2 cluster_types.go at v1.12.10 has no taints): an unknown field, as strict field validation refuses it', () => {
      expect(of('1.12')).toEqual([
        [
          'error',
          'spec.topology.workers.machineDeployments[0].taints',
          'Cluster in version "v1beta2" cannot be handled as a Cluster: strict decoding error: unknown field "spec.topology.workers.machineDeployments[0].taints"; taints were added in CAPI v1.13 (--capi-version 1.12)',
        ],
      ]);
      expect(of('1.12', { MachineTaintPropagation: true })).toHaveLength(1);
    });

    it.each(['1.13', '1.14', '1.15'] as const)(
      'v%s (internal/util/taints/validation.go ValidateMachineTaints): Forbidden unless MachineTaintPropagation is on',
      (version) => {
        expect(of(version)).toEqual([
          [
            'error',
            'spec.topology.workers.machineDeployments[md-0].taints',
            'Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled; enable MachineTaintPropagation on the management cluster (and render with --feature-gates MachineTaintPropagation=true), or remove the taints',
          ],
        ]);
        expect(of(version, { MachineTaintPropagation: true })).toEqual([]);
      },
    );

    it('no taints, no result, in every release', () => {
      for (const version of CAPI_VERSIONS)
        expect(
          topologyTaintResults(
            [
              { taints: [], path: 'p', indexPath: 'p' },
              { taints: undefined, path: 'q', indexPath: 'q' },
            ],
            ref,
            capiProfile(version),
          ),
        ).toEqual([]);
    });
  });
});

describe('topology version syntax per CAPI release (topologyVersionValid)', () => {
  it('v1.12, v1.13: util/version KubeSemver, which also takes a leading-zero patch or an underscore', () => {
    for (const v of ['1.12', '1.13'] as const) {
      const ok = (version: string) => topologyVersionValid(version, capiProfile(v));
      expect([ok('v1.30.0'), ok('v1.30.0+rke2r1'), ok('v1.30.01'), ok('v1.30.0_x')]).toEqual([true, true, true, true]);
      expect([ok('v1.30'), ok('v01.30.0'), ok('v1.30.0 ')]).toEqual([false, false, false]);
    }
  });
  it('v1.14, 1.15: blang semver.Parse without the v', () => {
    for (const v of ['1.14', '1.15'] as const) {
      const ok = (version: string) => topologyVersionValid(version, capiProfile(v));
      expect([ok('v1.30.0'), ok('v1.30.0+rke2r1'), ok('v1.30.0-rc.1')]).toEqual([true, true, true]);
      expect([ok('v1.30.01'), ok('v1.30.0_x'), ok('v1.30')]).toEqual([false, false, false]);
    }
  });
});

describe('kubernetesVersions (validateKubernetesVersions)', () => {
  it('each version greater than the one before, with the same or the next minor', () => {
    expect(kubernetesVersionsErrors(['v1.32.0', 'v1.32.1', 'v1.33.0', 'v1.34.0'])).toEqual([]);
    expect(kubernetesVersionsErrors(['v1.33.0+rke2r1', 'v1.33.0+rke2r2'])).toEqual([]); // build tags: Compare == 2, tolerated
    expect(texts(kubernetesVersionsErrors(['v1.32.1', 'v1.32.1', 'v1.32.0', 'v1.34.0']))).toEqual([
      'spec.kubernetesVersion[1]: Invalid value: "v1.32.1": version must be greater than v1.32.1; list each version once, in increasing order',
      'spec.kubernetesVersion[2]: Invalid value: "v1.32.0": version must be greater than v1.32.1; list each version once, in increasing order',
      'spec.kubernetesVersion[3]: Invalid value: "v1.34.0": expecting a version with minor 32 or 33, found version 1.34.0; add a version for every minor in between',
    ]);
  });

  it('an unparsable version is reported and skipped: the next one is compared with the last valid one', () => {
    expect(texts(kubernetesVersionsErrors(['v1.32.0', 'nope', 'v1.33.0']))).toEqual([
      'spec.kubernetesVersion[1]: Invalid value: "nope": version must be a valid semantic version; write versions as v<major>.<minor>.<patch>, e.g. v1.32.0',
    ]);
    expect(kubernetesVersionsErrors(undefined)).toEqual([]);
  });
});

describe('small helpers', () => {
  it('CIDR blocks are checked one by one at their index', () => {
    expect(texts(cidrErrors(['10.0.0.0/16', '10.0.0.0', 'fd00::/108'], 'spec.clusterNetwork.pods.cidrBlocks'))).toEqual(
      [
        'spec.clusterNetwork.pods.cidrBlocks[1]: Invalid value: "10.0.0.0": invalid CIDR address: 10.0.0.0; use CIDR notation such as 10.0.0.0/16 or fd00::/108',
      ],
    );
    expect(cidrErrors(undefined, 'p')).toEqual([]);
  });

  it('metadata errors name the label or annotation fix', () => {
    expect(texts(metadataErrors({ labels: { a: 'not valid!' }, annotations: { '-nope': 'x' } }, 'spec.m'))).toEqual([
      expect.stringMatching(/^spec\.m\.labels\[a\]: Invalid value: "not valid!": .*; fix or remove this label$/),
      expect.stringMatching(/^spec\.m\.annotations: Invalid value: "-nope": .*; fix or remove this annotation$/),
    ]);
    expect(metadataErrors(undefined, 'spec.m')).toEqual([]);
  });

  it('paths: child skips empty parts, keyed adds [key]', () => {
    expect(child('spec', 'a', '', 'b')).toBe('spec.a.b');
    expect(child('', 'a')).toBe('a');
    expect(keyed('spec.workers', 'md')).toBe('spec.workers[md]');
  });

  it('fixed appends the fix after "; ", or uses it alone when there is no detail', () => {
    expect(fixed(invalid('p', 'v', 'bad'), 'fix it').detail).toBe('bad; fix it');
    expect(fixed(invalid('p', 'v', ''), 'fix it').detail).toBe('fix it');
  });

  it("toResults: one result per error, with the rule tag and the caller's tags", () => {
    const ref = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', namespace: 'ns' };
    expect(toResults([invalid('spec.x', 1, 'bad')], ref, 'r1', 'warning', { cluster: 'ns/c1' })).toEqual([
      {
        severity: 'warning',
        message: 'Invalid value: 1: bad',
        resourceRef: ref,
        field: { path: 'spec.x' },
        tags: { cluster: 'ns/c1', rule: 'r1' },
      },
    ]);
    expect(toResults([invalid('spec.x', 1, 'bad')], ref, 'r1')[0]!.severity).toBe('error');
  });

  it('autoscaler annotations: either the min-size or the max-size annotation', () => {
    expect(
      hasAutoscalerAnnotations({ annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1' } }),
    ).toBe(true);
    expect(
      hasAutoscalerAnnotations({ annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '3' } }),
    ).toBe(true);
    expect(hasAutoscalerAnnotations({ annotations: { other: '1' } })).toBe(false);
    expect(hasAutoscalerAnnotations({})).toBe(false);
    expect(hasAutoscalerAnnotations(undefined)).toBe(false);
  });
});
