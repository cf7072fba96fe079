/**
 * Field rules shared by the ClusterClass and Cluster webhooks (CAPI core/webhooks/admission/clusterclass.go rules
 * 4, 5, 7, 10, 11 and CAPI core/webhooks/admission/cluster.go rules 3, 6, 7, 8, 10), as Kubernetes field errors with CAPI's paths and
 * texts. Pure: each returns the errors for one value at one path.
 *
 * Every message starts with CAPI's webhook text, verbatim (users search for it), followed by
 * `; ` and a fix from `FIX`, the one table of fix hints for the webhook rules.
 */
import { isObject } from '../core/json.js';
import { isStrictSemver } from '../core/go/k8s-validation.js';
import type { HealthCheck, Json, JsonObject, Metadata, Taint } from '../core/model.js';
import { fieldError, invalid, type FieldError } from '../core/fielderror.js';
import { qualifiedNameErrors, validateMetadata } from '../variables/labels.js';
import {
  atoiError,
  cidrError,
  compareVersions,
  intOrPercentError,
  intOrStringText,
  parseTolerant,
  semverText,
} from '../core/go/primitives.js';
import { AUTOSCALER_MAX_SIZE, AUTOSCALER_MIN_SIZE, UPGRADE_CONCURRENCY } from '../core/labels.js';
import { FIX, child, metadataFix, toResults, withFix } from '../core/fixes.js';
import type { ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { atLeast, type CapiProfile } from '../core/capi-release.js';

/** `validateRemediationMaxInFlight` / `validateMachineHealthCheckUnhealthyLessThanOrEqualTo`. */
export function intOrPercentErrors(value: Json | undefined, path: string): FieldError[] {
  const err = intOrPercentError(value);
  return err
    ? [
        invalid(
          path,
          intOrStringText(value),
          withFix(`must be either an int or a percentage: ${err}`, FIX.intOrPercent),
        ),
      ]
    : [];
}

/** `validateRolloutStrategy` on a v1beta2 `rollout.strategy` object at `path`. */
export function rolloutStrategyErrors(strategy: JsonObject | undefined, path: string): FieldError[] {
  const ru = strategy?.rollingUpdate;
  if (!isObject(ru)) return [];
  const { maxUnavailable, maxSurge } = ru;
  const out = [
    ...intOrPercentErrors(maxUnavailable, child(path, 'rollingUpdate', 'maxUnavailable')),
    ...intOrPercentErrors(maxSurge, child(path, 'rollingUpdate', 'maxSurge')),
  ];
  if (maxUnavailable === 0 && maxSurge === 0) {
    out.push(
      invalid(
        child(path, 'rollingUpdate'),
        intOrStringText(maxSurge),
        withFix('maxUnavailable and maxSurge cannot both be 0', FIX.rolloutBothZero),
      ),
    );
  }
  return out;
}

/** `validateMachineHealthCheckNodeStartupTimeoutSeconds`: unset, 0 (disabled) or at least 30. */
export const startupTimeoutErrors = (seconds: number | undefined, path: string): FieldError[] =>
  seconds && seconds < 30 ? [invalid(path, seconds, withFix('must be at least 30s', FIX.startupTimeout))] : [];

/** Health-check rules that need no class: startup timeout, triggerIf, and (MDs) maxInFlight. */
export function healthCheckErrors(
  hc: HealthCheck | undefined,
  path: string,
  opts: { maxInFlight: boolean; startupTimeout: boolean },
): FieldError[] {
  if (!hc) return [];
  const out: FieldError[] = [];
  if (opts.startupTimeout)
    out.push(
      ...startupTimeoutErrors(hc.checks?.nodeStartupTimeoutSeconds, child(path, 'checks', 'nodeStartupTimeoutSeconds')),
    );
  out.push(
    ...intOrPercentErrors(
      hc.remediation?.triggerIf?.unhealthyLessThanOrEqualTo,
      child(path, 'remediation', 'triggerIf', 'unhealthyLessThanOrEqualTo'),
    ),
  );
  if (opts.maxInFlight)
    out.push(...intOrPercentErrors(hc.remediation?.maxInFlight, child(path, 'remediation', 'maxInFlight')));
  return out;
}

/** The content rules of `taints.ValidateMachineTaints` (internal/util/taints/validation.go, v1.13.6 and v1.14.2); the gate is `topologyTaintResults`'. */
export function taintErrors(taints: readonly Taint[] | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  (taints ?? []).forEach((t, i) => {
    const p = child(`${path}[${i}]`, 'key');
    const key = t.key ?? '';
    const bad = (detail: string, fix: string) => out.push(invalid(p, key, withFix(detail, fix)));
    if (key === 'node.cluster.x-k8s.io/uninitialized' || key === 'node.cluster.x-k8s.io/outdated-revision')
      bad('taint key is not allowed', FIX.taintReserved);
    else if (key.startsWith('node.kubernetes.io/') && key !== 'node.kubernetes.io/out-of-service') {
      bad(
        'taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service',
        FIX.taintPrefix,
      );
    } else if (key.startsWith('node.cloudprovider.kubernetes.io/'))
      bad('taint key must not have the prefix node.cloudprovider.kubernetes.io/', FIX.taintPrefix);
    else if (key === 'node-role.kubernetes.io/master')
      bad('taint is deprecated since 1.24 and should not be used anymore', FIX.taintMaster);
    for (const msg of qualifiedNameErrors(key)) bad(msg, FIX.taintKeySyntax);
  });
  return out;
}

/** One `taints` list of a Cluster topology or ClusterClass: CAPI's webhook path (workers keyed by name) and the list's place in the object (by index). */
export interface TaintList {
  taints: readonly Taint[] | undefined;
  path: string;
  indexPath: string;
}

/**
 * Topology taints, per CAPI release:
 * - v1.12: the field does not exist. v1.12.10's api/core/v1beta2 `Cluster` and `ClusterClass`
 *   types (cluster_types.go, clusterclass_types.go) and their CRDs have no `taints`, so the API
 *   server's strict field validation (kubectl's default) refuses it as an unknown field.
 * - v1.13 on: `taints.ValidateMachineTaints` (internal/util/taints/validation.go at v1.13.6 and
 *   v1.14.2) makes a non-empty list Forbidden while MachineTaintPropagation is off (its default),
 *   then checks each key. The Cluster webhook calls it from `validateTopologyTaints` (v1.13.6
 *   internal/webhooks/cluster.go, v1.14.2 core/webhooks/admission/cluster.go), the ClusterClass
 *   webhook from `validate` (v1.13.6 internal/webhooks/clusterclass.go, v1.14.2
 *   core/webhooks/admission/clusterclass.go).
 */
export function topologyTaintResults(lists: readonly TaintList[], ref: ObjectRef, capi: CapiProfile): Result[] {
  const present = lists.filter((l) => l.taints && l.taints.length > 0);
  if (!atLeast(capi, '1.13')) {
    const version = ref.apiVersion.split('/').pop();
    return present.map((l) => ({
      severity: 'error',
      message: `${ref.kind} in version "${version}" cannot be handled as a ${ref.kind}: strict decoding error: unknown field "${l.indexPath}"; taints were added in CAPI v1.13 (--capi-version ${capi.version})`,
      resourceRef: ref,
      field: { path: l.indexPath },
      tags: { rule: 'strict-decoding' },
    }));
  }
  const gate = (l: TaintList): FieldError[] =>
    capi.gates.MachineTaintPropagation
      ? []
      : [
          fieldError(
            'Forbidden',
            l.path,
            withFix(
              'taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled',
              FIX.taintGate,
            ),
          ),
        ];
  return present.flatMap((l) => toResults([...gate(l), ...taintErrors(l.taints, l.path)], ref, 'taints'));
}

/** util/version/version.go `KubeSemver` (v1.12.10, v1.13.6). */
const KUBE_SEMVER = /^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)([-0-9a-zA-Z_.+]*)?$/;

/**
 * Whether the Cluster webhook accepts `spec.topology.version` on create (after the defaulting
 * webhook added the `v`), per CAPI release:
 * - v1.12, v1.13: `version.KubeSemver.MatchString` (v1.12.10 and v1.13.6 internal/webhooks/cluster.go
 *   `validate`), which also takes `v1.30.01` or `v1.30.0_x`;
 * - v1.14 on: blang `semver.Parse` of the version without its `v` (v1.14.2
 *   core/webhooks/admission/cluster.go `validate`; main at ae7ff04 too).
 */
export const topologyVersionValid = (version: string, capi: CapiProfile): boolean =>
  atLeast(capi, '1.14') ? isStrictSemver(version.slice(1)) : KUBE_SEMVER.test(version);

/** `ObjectMeta.Validate` for `{labels, annotations}` at `path`. */
export const metadataErrors = (meta: Metadata | undefined, path: string): FieldError[] =>
  meta ? validateMetadata(meta as { labels?: Json; annotations?: Json }, path).map(metadataFix) : [];

/**
 * `validateKubernetesVersions` (CAPI core/webhooks/admission/clusterclass.go rule 11; core/webhooks/admission/clusterclass.go): blang
 * `ParseTolerant`, then `version.Compare(..., WithBuildTags())`; the path really is
 * `spec.kubernetesVersion[i]`.
 */
export function kubernetesVersionsErrors(versions: readonly string[] | undefined): FieldError[] {
  const out: FieldError[] = [];
  let prev: ReturnType<typeof parseTolerant>;
  (versions ?? []).forEach((v, i) => {
    const path = `spec.kubernetesVersion[${i}]`;
    const sv = parseTolerant(v);
    if (!sv) {
      out.push(invalid(path, v, withFix('version must be a valid semantic version', FIX.classVersionSyntax)));
      return;
    }
    if (prev) {
      // Build tags count (`v1.33.0+rke2r2` after `v1.33.0+rke2r1` is tolerated: order unknown, 2).
      if (compareVersions(sv, prev) <= 0)
        out.push(invalid(path, v, withFix(`version must be greater than v${semverText(prev)}`, FIX.classVersionOrder)));
      if (prev.minor !== sv.minor && prev.minor + 1 !== sv.minor) {
        out.push(
          invalid(
            path,
            v,
            withFix(
              `expecting a version with minor ${prev.minor} or ${prev.minor + 1}, found version ${semverText(sv)}`,
              FIX.classVersionGap,
            ),
          ),
        );
      }
    }
    prev = sv;
  });
  return out;
}

/** `validateCIDRBlocks` (CAPI core/webhooks/admission/cluster.go rule 3). */
export function cidrErrors(cidrs: readonly string[] | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  (cidrs ?? []).forEach((c, i) => {
    const err = cidrError(c);
    if (err) out.push(invalid(`${path}[${i}]`, c, withFix(err, FIX.cidr)));
  });
  return out;
}

/** CAPI core/webhooks/admission/cluster.go rule 7. */
export function upgradeConcurrencyErrors(annotations: Record<string, string> | undefined): FieldError[] {
  const v = annotations?.[UPGRADE_CONCURRENCY];
  if (v === undefined) return [];
  const path = `metadata.annotations[${UPGRADE_CONCURRENCY}]`;
  const err = atoiError(v);
  if (err)
    return [invalid(path, v, withFix(`could not parse the value of the annotation: ${err}`, FIX.upgradeConcurrency))];
  if (Number(v) < 1) return [invalid(path, v, withFix('value cannot be less than 1', FIX.upgradeConcurrency))];
  return [];
}

export const hasAutoscalerAnnotations = (meta: Metadata | undefined): boolean =>
  !!meta?.annotations && (AUTOSCALER_MIN_SIZE in meta.annotations || AUTOSCALER_MAX_SIZE in meta.annotations);
