/**
 * MachineHealthChecks (CAPI exp/topology/desiredstate/desired_state.go `computeMachineHealthCheck`): from the
 * topology's health check when it defines one, else the class's, in the shape of the output API
 * version (v1beta2 seconds and `checks`/`remediation`, v1beta1 durations and flat fields).
 */
import type { Cluster, HealthCheck, Json, JsonObject } from '../core/model.js';
import { asObject, compact, sortedMap } from '../core/json.js';
import { formatGoDuration } from '../core/go/duration.js';
import type { Recorder } from '../provenance/recorder.js';
import type { Source } from '../provenance/sources.js';
import type { Path, Seg } from '../core/path.js';
import { joinPath } from '../core/path.js';
import { CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL } from '../core/labels.js';
import { buildMetadata, clusterOwnerReferences, identityOf } from './objects.js';
import {
  CLUSTER_NAMESPACE,
  OWNER_REFERENCE,
  durationNote,
  fixed,
  fixedLabels,
  fromClass,
  fromCluster,
  recordCoreHeader,
  recordLayers,
} from './origins.js';
import { CoreVersion } from './types.js';

const isNonEmpty = (v: unknown): boolean =>
  v !== undefined && v !== null && (typeof v !== 'object' || Object.keys(v).length > 0);

/** `IsDefined()`: checks or remediation carry anything. */
export const healthCheckDefined = (hc: HealthCheck | undefined): hc is HealthCheck =>
  !!hc && (Object.values(hc.checks ?? {}).some(isNonEmpty) || Object.values(hc.remediation ?? {}).some(isNonEmpty));

/** The health check a MachineHealthCheck is computed from: the topology's when defined, else the class's. */
interface HealthCheckSource {
  hc: HealthCheck;
  /** Where it is written: `spec.topology.controlPlane`, `spec.controlPlane`, a worker entry. */
  holder: string;
  fromTopology: boolean;
}

export function healthCheckSource(
  topology: HealthCheck | undefined,
  topologyHolder: string,
  cls: HealthCheck | undefined,
  classHolder: string,
): HealthCheckSource {
  if (healthCheckDefined(topology)) return { hc: topology, holder: topologyHolder, fromTopology: true };
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- callers ask only when one of the two is defined
  return { hc: cls!, holder: classHolder, fromTopology: false };
}

/** CAPI `computeMachineHealthCheck`; `target`: what it checks (`control plane`, `MachineDeployment md-0`). */
export function computeHealthCheck(
  version: CoreVersion,
  cluster: Cluster,
  name: string,
  matchLabels: Record<string, string>,
  from: HealthCheckSource,
  target: string,
  rec?: Recorder,
): JsonObject {
  const source = from.hc;
  const checks = source.checks ?? {};
  const remediation = source.remediation ?? {};
  const nodeStartup = checks.nodeStartupTimeoutSeconds ?? 600;
  const metadata = buildMetadata(
    name,
    cluster.namespace,
    { [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '' },
    undefined,
    clusterOwnerReferences(identityOf(cluster)),
  );
  const selector = { matchLabels: sortedMap(matchLabels) as Json };
  let mhc: JsonObject;
  if (version === 'v1beta2') {
    const spec: JsonObject = { clusterName: cluster.name, selector };
    spec.checks = compact({
      nodeStartupTimeoutSeconds: nodeStartup,
      unhealthyNodeConditions: checks.unhealthyNodeConditions as Json,
      unhealthyMachineConditions: checks.unhealthyMachineConditions as Json,
    });
    const rem = compact({ triggerIf: remediation.triggerIf as Json, templateRef: remediation.templateRef as Json });
    if (Object.keys(rem).length > 0) spec.remediation = rem;
    mhc = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineHealthCheck', metadata, spec };
  } else {
    const conditions = (list: Json[] | undefined) =>
      list?.map((c) => {
        const o = asObject(c) ?? {};
        // deref(ConvertFromSeconds(timeoutSeconds), metav1.Duration{}): no timeoutSeconds is 0s.
        return compact({
          type: o.type,
          status: o.status,
          timeout: formatGoDuration(typeof o.timeoutSeconds === 'number' ? o.timeoutSeconds : 0),
        });
      });
    const rt = remediation.templateRef;
    const spec = compact({
      clusterName: cluster.name,
      selector,
      unhealthyConditions: conditions(checks.unhealthyNodeConditions),
      unhealthyMachineConditions: conditions(checks.unhealthyMachineConditions),
      nodeStartupTimeout: formatGoDuration(nodeStartup),
      maxUnhealthy: remediation.triggerIf?.unhealthyLessThanOrEqualTo,
      unhealthyRange: remediation.triggerIf?.unhealthyInRange,
      remediationTemplate: rt
        ? { apiVersion: rt.apiVersion, kind: rt.kind, name: rt.name, namespace: cluster.namespace }
        : undefined,
    });
    mhc = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineHealthCheck', metadata, spec };
  }
  if (rec) recordHealthCheck(rec, mhc, version, from, target);
  return mhc;
}

function recordHealthCheck(
  rec: Recorder,
  mhc: JsonObject,
  version: CoreVersion,
  from: HealthCheckSource,
  target: string,
): void {
  const set = (path: Path, source: Source) => rec.set(mhc, path, source);
  /** The health check field at `model` (v1beta2 model path); `duration`: rendered as a duration. */
  const field = (model: Seg[], duration = false): Source => {
    const path = joinPath(`${from.holder}.healthCheck`, model);
    return from.fromTopology ? fromCluster(path, durationNote(duration)) : fromClass(path, durationNote(duration));
  };
  recordCoreHeader(rec, mhc, version, 'MachineHealthCheck', `same name as the ${target} it checks`);
  recordLayers(mhc, ['metadata', 'labels'], [fixedLabels(rec, [CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL])]);
  if (asObject(mhc.metadata)?.ownerReferences !== undefined)
    set(['metadata', 'ownerReferences'], fixed(OWNER_REFERENCE));
  set(['spec', 'selector'], fixed(`selector of the ${target}'s Machines (topology-owned + role labels)`));
  const checks = from.hc.checks ?? {};
  const spec = asObject(mhc.spec) ?? {};
  /** Each field of each rendered condition, from the model condition it was made of. */
  const conditions = (
    base: Path,
    list: Json | undefined,
    modelKey: 'unhealthyNodeConditions' | 'unhealthyMachineConditions',
  ) => {
    if (!Array.isArray(list)) return;
    list.forEach((c, i) => {
      for (const f of Object.keys(asObject(c) ?? {}))
        set([...base, i, f], field(['checks', modelKey, i, f === 'timeout' ? 'timeoutSeconds' : f], f === 'timeout'));
    });
  };
  const startupDefault = (what: string): Source => ({ kind: 'default', detail: `MachineHealthCheck default ${what}` });
  if (version === 'v1beta2') {
    const c = asObject(spec.checks) ?? {};
    set(
      ['spec', 'checks', 'nodeStartupTimeoutSeconds'],
      checks.nodeStartupTimeoutSeconds !== undefined
        ? field(['checks', 'nodeStartupTimeoutSeconds'])
        : startupDefault('nodeStartupTimeoutSeconds (600)'),
    );
    conditions(['spec', 'checks', 'unhealthyNodeConditions'], c.unhealthyNodeConditions, 'unhealthyNodeConditions');
    conditions(
      ['spec', 'checks', 'unhealthyMachineConditions'],
      c.unhealthyMachineConditions,
      'unhealthyMachineConditions',
    );
    const rem = asObject(spec.remediation);
    for (const k of Object.keys(asObject(rem?.triggerIf) ?? {}))
      set(['spec', 'remediation', 'triggerIf', k], field(['remediation', 'triggerIf', k]));
    if (rem?.templateRef !== undefined)
      set(['spec', 'remediation', 'templateRef'], field(['remediation', 'templateRef']));
    return;
  }
  set(
    ['spec', 'nodeStartupTimeout'],
    checks.nodeStartupTimeoutSeconds !== undefined
      ? field(['checks', 'nodeStartupTimeoutSeconds'], true)
      : startupDefault('nodeStartupTimeout (10m0s)'),
  );
  conditions(['spec', 'unhealthyConditions'], spec.unhealthyConditions, 'unhealthyNodeConditions');
  conditions(['spec', 'unhealthyMachineConditions'], spec.unhealthyMachineConditions, 'unhealthyMachineConditions');
  if (spec.maxUnhealthy !== undefined)
    set(['spec', 'maxUnhealthy'], field(['remediation', 'triggerIf', 'unhealthyLessThanOrEqualTo']));
  if (spec.unhealthyRange !== undefined)
    set(['spec', 'unhealthyRange'], field(['remediation', 'triggerIf', 'unhealthyInRange']));
  if (spec.remediationTemplate !== undefined) {
    for (const k of ['apiVersion', 'kind', 'name'])
      set(['spec', 'remediationTemplate', k], field(['remediation', 'templateRef', k]));
    set(['spec', 'remediationTemplate', 'namespace'], fixed(CLUSTER_NAMESPACE));
  }
}
