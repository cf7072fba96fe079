/**
 * The Cluster in classic form (expand mode): what `computeCluster` owns (CAPI exp/topology/desiredstate/desired_state.go `computeCluster`) applied to the
 * input Cluster, and `spec.topology` removed, so the output works without the topology controller.
 */
import type { JsonObject } from '../core/model.js';
import { asObject, cloneJson, sortedMap } from '../core/json.js';
import type { Recorder } from '../provenance/recorder.js';
import type { DesiredState } from './desired.js';
import {
  CLUSTER_NAME_LABEL,
  LOCAL_CONFIG_ANNOTATION,
  TOPOLOGY_OWNED_LABEL,
  UPGRADE_STEP_ANNOTATION,
} from '../core/labels.js';
import { CLUSTER_NAMESPACE, fixed, fixedLabels, fromCluster, recordLayers, referenceTo } from './origins.js';
import { CoreVersion } from './types.js';

export function classicCluster(
  input: JsonObject,
  desired: DesiredState,
  version: CoreVersion,
  rec?: Recorder,
): JsonObject {
  const out = cloneJson(input);
  out.apiVersion = `cluster.x-k8s.io/${version}`;
  const meta = asObject(out.metadata) ?? {};
  // CAPI's desired Cluster is the stored one: the API server gave it the request's namespace.
  const storedNamespace = meta.namespace === undefined;
  if (storedNamespace) meta.namespace = desired.cluster.namespace;
  meta.labels =
    sortedMap({ ...(asObject(meta.labels) as Record<string, string> | undefined), ...desired.cluster.labels }) ?? {};
  const annotations = asObject(meta.annotations) ?? {};
  delete annotations[LOCAL_CONFIG_ANNOTATION];
  if (desired.cluster.upgradeStep === undefined) delete annotations[UPGRADE_STEP_ANNOTATION];
  else annotations[UPGRADE_STEP_ANNOTATION] = desired.cluster.upgradeStep;
  const sorted = sortedMap(annotations as Record<string, string>);
  if (sorted) meta.annotations = sorted;
  else delete meta.annotations;
  out.metadata = meta;
  const spec = asObject(out.spec) ?? {};
  delete spec.topology;
  if (desired.cluster.infrastructureRef) spec.infrastructureRef = desired.cluster.infrastructureRef;
  spec.controlPlaneRef = desired.cluster.controlPlaneRef;
  out.spec = spec;
  if (rec) {
    for (const key of Object.keys(input)) rec.set(out, [key], fromCluster(key));
    rec.set(out, ['apiVersion'], fixed('CAPI core API version of the output'));
    if (storedNamespace) rec.set(out, ['metadata', 'namespace'], fixed(CLUSTER_NAMESPACE));
    recordLayers(out, ['metadata', 'labels'], [fixedLabels(rec, [CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL])]);
    if (desired.cluster.upgradeStep !== undefined)
      rec.set(
        out,
        ['metadata', 'annotations', UPGRADE_STEP_ANNOTATION],
        fixed('the topology controller: no upgrade step in progress'),
      );
    if (spec.infrastructureRef !== undefined)
      rec.set(out, ['spec', 'infrastructureRef'], referenceTo('InfrastructureCluster', spec.infrastructureRef));
    rec.set(out, ['spec', 'controlPlaneRef'], referenceTo('ControlPlane', spec.controlPlaneRef));
  }
  return out;
}
