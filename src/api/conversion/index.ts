/**
 * v1beta1 → v1beta2 conversion of the Cluster API kinds a ClusterClass estate is made of, as
 * CAPI's conversion webhooks do it: the rules (core.ts, kubeadm.ts), applied to any Tree.
 * `normalize` reads v1beta1 through it; `render-clusterclass convert` rewrites files with it.
 */
import type { Json, JsonObject } from '../../core/model.js';
import { asObject, asString, cloneJson, isObject, valueAt } from '../../core/json.js';
import { CONVERSION_DATA } from '../../core/labels.js';
import {
  inputField,
  inputPath,
  parsePath,
  runSteps,
  runStepsLeniently,
  type ConversionResult,
  type Step,
} from './engine.js';
import { CLUSTER_CLASS_STEPS, CLUSTER_STEPS } from './core.js';
import {
  KUBEADM_CONFIG_STEPS,
  KUBEADM_CONFIG_TEMPLATE_STEPS,
  KUBEADM_CONTROL_PLANE_STEPS,
  KUBEADM_CONTROL_PLANE_TEMPLATE_STEPS,
} from './kubeadm.js';
import { JsonTree, type Tree } from './tree.js';

export { type ConversionResult } from './engine.js';
export {
  NotMechanical,
  Opaque,
  Unknown,
  JsonTree,
  anchorKey,
  lastOf,
  parentOf,
  pathText,
  type Path,
  type Segment,
  type Tree,
} from './tree.js';

export interface Conversion {
  /** The apiVersion the object gets. */
  to: string;
  steps: readonly Step[];
}

const CONVERSIONS: Record<string, Conversion> = {
  'cluster.x-k8s.io/v1beta1/ClusterClass': { to: 'cluster.x-k8s.io/v1beta2', steps: CLUSTER_CLASS_STEPS },
  'cluster.x-k8s.io/v1beta1/Cluster': { to: 'cluster.x-k8s.io/v1beta2', steps: CLUSTER_STEPS },
  'bootstrap.cluster.x-k8s.io/v1beta1/KubeadmConfigTemplate': {
    to: 'bootstrap.cluster.x-k8s.io/v1beta2',
    steps: KUBEADM_CONFIG_TEMPLATE_STEPS,
  },
  'bootstrap.cluster.x-k8s.io/v1beta1/KubeadmConfig': {
    to: 'bootstrap.cluster.x-k8s.io/v1beta2',
    steps: KUBEADM_CONFIG_STEPS,
  },
  'controlplane.cluster.x-k8s.io/v1beta1/KubeadmControlPlaneTemplate': {
    to: 'controlplane.cluster.x-k8s.io/v1beta2',
    steps: KUBEADM_CONTROL_PLANE_TEMPLATE_STEPS,
  },
  'controlplane.cluster.x-k8s.io/v1beta1/KubeadmControlPlane': {
    to: 'controlplane.cluster.x-k8s.io/v1beta2',
    steps: KUBEADM_CONTROL_PLANE_STEPS,
  },
};

/** The conversion of an apiVersion/kind, if it is one we convert. */
export function conversionFor(apiVersion: string | undefined, kind: string | undefined): Conversion | undefined {
  const c = CONVERSIONS[`${apiVersion}/${kind}`];
  return c && Object.prototype.hasOwnProperty.call(CONVERSIONS, `${apiVersion}/${kind}`) ? c : undefined;
}

/** The hub object CAPI kept when it down-converted this object (UnmarshalData), if any. */
function restoredFrom(annotations: JsonObject | undefined): JsonObject | undefined {
  const data = asString(annotations?.[CONVERSION_DATA]);
  if (data === undefined) return undefined;
  try {
    return asObject(JSON.parse(data) as Json);
  } catch {
    return undefined;
  }
}

/**
 * Converts the object in `tree` (whose current JSON is `value`): the rules, then the new
 * apiVersion; the conversion-data annotation is used for the round-trip restores and removed,
 * as UnmarshalData does.
 */
export function convertTree(
  tree: Tree,
  value: JsonObject,
  conversion: Conversion,
  report: (r: ConversionResult) => void,
): void {
  const meta = asObject(value.metadata);
  const annotations = asObject(meta?.annotations);
  const restored = restoredFrom(annotations);
  runSteps(tree, conversion.steps, {
    namespace: asString(meta?.namespace) ?? 'default',
    ...(restored ? { restored } : {}),
    report,
  });
  if (annotations && Object.prototype.hasOwnProperty.call(annotations, CONVERSION_DATA)) {
    tree.remove(['metadata', 'annotations', CONVERSION_DATA]);
    const left = tree.get(['metadata', 'annotations']);
    if (isObject(left) && Object.keys(left).length === 0) tree.remove(['metadata', 'annotations']);
  }
  tree.set(['apiVersion'], conversion.to);
}

export interface Converted {
  value: JsonObject;
  results: ConversionResult[];
  /** The v1beta1 path of a field of the converted object. */
  inputPath: (path: string) => string;
}

/** Converts a plain v1beta1 object (never mutated); undefined when its kind is not converted. */
export function convertObject(value: JsonObject): Converted | undefined {
  const conversion = conversionFor(asString(value.apiVersion), asString(value.kind));
  if (!conversion) return undefined;
  const copy = cloneJson(value);
  const results: ConversionResult[] = [];
  convertTree(new JsonTree(copy), copy, conversion, (r) => results.push(r));
  return { value: copy, results, inputPath: (path) => inputPath(conversion.steps, path) };
}

/**
 * An object as the API server stores it at the hub version (v1beta2), whichever version it was
 * written in: converted when it is v1beta1, and either way without the zero values and fields
 * CAPI's conversion unsets (so a v1beta1 object and its `convert` output are equal here). Kinds
 * without a conversion are returned as they are.
 */
export function atHub(value: JsonObject): JsonObject {
  const converted = convertObject(value)?.value ?? value;
  const group = asString(converted.apiVersion)?.split('/')[0];
  const conversion = conversionFor(`${group}/v1beta1`, asString(converted.kind));
  if (!conversion) return converted;
  const copy = converted === value ? cloneJson(value) : converted;
  runStepsLeniently(new JsonTree(copy), conversion.steps);
  return copy;
}

/**
 * Where a field of the converted (v1beta2) object is written in `input` as the user wrote it,
 * and whether it was a Go duration there: the conversion's moves undone (`inputPath`), unless the
 * input holds the field under its v1beta2 spelling (a shape some moves also accept, e.g.
 * topology `metadata.labels` next to the proposal-era `labels`). A v1beta2 input is its own.
 */
export function inputFieldOf(input: JsonObject, path: string): { path: string; seconds: boolean } {
  const conversion = conversionFor(asString(input.apiVersion), asString(input.kind));
  if (!conversion) return { path, seconds: false };
  const field = inputField(conversion.steps, path);
  if (!field.moved || (valueAt(input, field.segments) === undefined && valueAt(input, parsePath(path)) !== undefined))
    return { path, seconds: false };
  return { path: field.path, seconds: field.seconds };
}
