/**
 * Field rules shared by the ClusterClass and Cluster webhooks (topology-semantics §8.1 rules
 * 4, 5, 7, 10, 11 and §8.2 rules 3, 6, 7, 8, 10), as Kubernetes field errors with CAPI's paths and
 * texts. Pure: each returns the errors for one value at one path.
 */
import type { HealthCheck, Json, JsonObject, Metadata, ObjectRef, Taint } from '../api/model.js';
import type { Result, Severity } from '../krm/result.js';
import { errorBody, fieldError, invalid, type FieldError } from '../variables/fielderror.js';
import { qualifiedNameErrors, validateMetadata } from '../variables/labels.js';
import { atoiError, cidrError, intOrPercentError, intOrStringText, parseTolerant, semverText } from './primitives.js';

export const child = (base: string, ...names: string[]): string => [base, ...names].filter((s) => s !== '').join('.');
export const keyed = (base: string, key: string): string => `${base}[${key}]`;

export function toResults(errors: readonly FieldError[], ref: ObjectRef, rule: string, severity: Severity = 'error', tags?: Record<string, string>): Result[] {
  return errors.map((e) => ({ severity, message: errorBody(e), resourceRef: ref, field: { path: e.field }, tags: { ...tags, rule } }));
}

/** `validateRemediationMaxInFlight` / `validateMachineHealthCheckUnhealthyLessThanOrEqualTo`. */
export function intOrPercentErrors(value: Json | undefined, path: string): FieldError[] {
  const err = intOrPercentError(value);
  return err ? [invalid(path, intOrStringText(value), `must be either an int or a percentage: ${err}`)] : [];
}

/** `validateRolloutStrategy` on a v1beta2 `rollout.strategy` object at `path`. */
export function rolloutStrategyErrors(strategy: JsonObject | undefined, path: string): FieldError[] {
  const ru = strategy?.rollingUpdate;
  if (!ru || typeof ru !== 'object' || Array.isArray(ru)) return [];
  const maxUnavailable = (ru as JsonObject).maxUnavailable;
  const maxSurge = (ru as JsonObject).maxSurge;
  const out = [
    ...intOrPercentErrors(maxUnavailable, child(path, 'rollingUpdate', 'maxUnavailable')),
    ...intOrPercentErrors(maxSurge, child(path, 'rollingUpdate', 'maxSurge')),
  ];
  if (maxUnavailable === 0 && maxSurge === 0) {
    out.push(invalid(child(path, 'rollingUpdate'), intOrStringText(maxSurge), 'maxUnavailable and maxSurge cannot both be 0'));
  }
  return out;
}

/** Health-check rules that need no class: startup timeout, triggerIf, and (MDs) maxInFlight. */
export function healthCheckErrors(hc: HealthCheck | undefined, path: string, opts: { maxInFlight: boolean; startupTimeout: boolean }): FieldError[] {
  if (!hc) return [];
  const out: FieldError[] = [];
  const t = hc.checks?.nodeStartupTimeoutSeconds;
  if (opts.startupTimeout && t !== undefined && t !== 0 && t < 30) out.push(invalid(child(path, 'checks', 'nodeStartupTimeoutSeconds'), t, 'must be at least 30s'));
  out.push(...intOrPercentErrors(hc.remediation?.triggerIf?.unhealthyLessThanOrEqualTo, child(path, 'remediation', 'triggerIf', 'unhealthyLessThanOrEqualTo')));
  if (opts.maxInFlight) out.push(...intOrPercentErrors(hc.remediation?.maxInFlight, child(path, 'remediation', 'maxInFlight')));
  return out;
}

/** `taints.ValidateMachineTaints` without the feature-gate part (see `taintGateWarning`). */
export function taintErrors(taints: readonly Taint[] | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  (taints ?? []).forEach((t, i) => {
    const p = child(`${path}[${i}]`, 'key');
    const key = t.key ?? '';
    if (key === 'node.cluster.x-k8s.io/uninitialized' || key === 'node.cluster.x-k8s.io/outdated-revision') out.push(invalid(p, key, 'taint key is not allowed'));
    else if (key.startsWith('node.kubernetes.io/') && key !== 'node.kubernetes.io/out-of-service') {
      out.push(invalid(p, key, 'taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service'));
    } else if (key.startsWith('node.cloudprovider.kubernetes.io/')) out.push(invalid(p, key, 'taint key must not have the prefix node.cloudprovider.kubernetes.io/'));
    else if (key === 'node-role.kubernetes.io/master') out.push(invalid(p, key, 'taint is deprecated since 1.24 and should not be used anymore'));
    for (const msg of qualifiedNameErrors(key)) out.push(invalid(p, key, msg));
  });
  return out;
}

/** Taints are Forbidden unless the MachineTaintPropagation gate is on; the renderer cannot know, so it warns. */
export function taintGateWarning(taints: readonly Taint[] | undefined, path: string): FieldError[] {
  if (!taints || taints.length === 0) return [];
  return [
    fieldError(
      'Forbidden',
      path,
      'taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled: enable MachineTaintPropagation on the management cluster, or remove the taints',
    ),
  ];
}

/** `ObjectMeta.Validate` for `{labels, annotations}` at `path`. */
export const metadataErrors = (meta: Metadata | undefined, path: string): FieldError[] =>
  meta ? validateMetadata(meta as { labels?: Json; annotations?: Json }, path) : [];

/** `validateKubernetesVersions` (§8.1 rule 11); the path really is `spec.kubernetesVersion[i]`. */
export function kubernetesVersionsErrors(versions: readonly string[] | undefined): FieldError[] {
  const out: FieldError[] = [];
  let prev: ReturnType<typeof parseTolerant>;
  (versions ?? []).forEach((v, i) => {
    const path = `spec.kubernetesVersion[${i}]`;
    const sv = parseTolerant(v);
    if (!sv) {
      out.push(invalid(path, v, 'version must be a valid semantic version'));
      return;
    }
    if (prev) {
      const c = sv.compare(prev);
      const sameCoreDifferentBuild = c === 0 && sv.build.join('.') !== prev.build.join('.');
      if (c < 0 || (c === 0 && !sameCoreDifferentBuild)) out.push(invalid(path, v, `version must be greater than v${semverText(prev)}`));
      if (prev.minor !== sv.minor && prev.minor + 1 !== sv.minor) {
        out.push(invalid(path, v, `expecting a version with minor ${prev.minor} or ${prev.minor + 1}, found version ${semverText(sv)}`));
      }
    }
    prev = sv;
  });
  return out;
}

/** `validateCIDRBlocks` (§8.2 rule 3). */
export function cidrErrors(cidrs: readonly string[] | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  (cidrs ?? []).forEach((c, i) => {
    const err = cidrError(c);
    if (err) out.push(invalid(`${path}[${i}]`, c, err));
  });
  return out;
}

export const UPGRADE_CONCURRENCY_ANNOTATION = 'topology.cluster.x-k8s.io/upgrade-concurrency';

/** §8.2 rule 7. */
export function upgradeConcurrencyErrors(annotations: Record<string, string> | undefined): FieldError[] {
  const v = annotations?.[UPGRADE_CONCURRENCY_ANNOTATION];
  if (v === undefined) return [];
  const path = `metadata.annotations[${UPGRADE_CONCURRENCY_ANNOTATION}]`;
  const err = atoiError(v);
  if (err) return [invalid(path, v, `could not parse the value of the annotation: ${err}`)];
  if (Number(v) < 1) return [invalid(path, v, 'value cannot be less than 1')];
  return [];
}

export const AUTOSCALER_MIN_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
export const AUTOSCALER_MAX_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
export const hasAutoscalerAnnotations = (meta: Metadata | undefined): boolean =>
  !!meta?.annotations && (AUTOSCALER_MIN_SIZE in meta.annotations || AUTOSCALER_MAX_SIZE in meta.annotations);
