/**
 * What mutating admission does to an object before the API server validates and stores it.
 *
 * On create, the API server (1) decodes the object and applies its CRD's structural defaults,
 * (2) calls the mutating webhooks registered for its kind, (3) applies the CRD defaults again and
 * (4) validates the result against the CRD schema. `admittedObject` reproduces that order with the
 * provider defaulting webhooks of providers/ (one module per provider, gathered in `WEBHOOKS`
 * below). It serves twice:
 * - validation: a rendered or input object is validated as admitted (`validateOnCreate`); the
 *   rendered output never carries its own kind's webhook defaults (CAPI's desired objects do
 *   not either; the API server adds them when the object is applied);
 * - templates as stored: the topology controller reads templates as the API server stored them,
 *   so, when a template's CRD is given, it is rendered and patched as admitted (`storedTemplate`),
 *   and the objects cloned from it carry what the live ones carry.
 *
 * Only what a webhook's `Default()` sets from the object itself is emulated. Nothing random
 * (CAPZ generates an SSH key for `sshPublicKey: ""`) and nothing that reads other objects. The
 * Go round trip of a webhook (controller-runtime patches the object to the marshalled Go struct:
 * zero-valued non-pointer structs and non-omitempty scalars are written back) is reproduced for
 * CAPA (`goRoundTrip` in providers/aws.ts), and for the others only where one of their defaults
 * creates the same path.
 *
 * `STORED_ONLY_PATHS` names paths a patch may rely on that live templates have only as stored;
 * `withStoredTemplateHint` explains a patch failure on such a path when the template's CRD is
 * not given.
 */
import type { Json, JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { deepCopy, isJsonObject } from '../core/go/json.js';
import { applyCrdDefaults, crdDefines, validateAgainstCrd, type CrdIndex, type CrdSubject } from './crds.js';
import type { AdmissionWebhook } from './providers/webhook.js';
import { KUBEADM_WEBHOOKS } from './providers/kubeadm.js';
import { AZURE_WEBHOOKS } from './providers/azure.js';
import { AWS_WEBHOOKS } from './providers/aws.js';
import { DOCKER_WEBHOOKS } from './providers/docker.js';
import { jsonString } from '../core/json.js';

/** Known defaulting webhooks, by `group/Kind`: one module per provider in providers/. */
const WEBHOOKS: ReadonlyMap<string, AdmissionWebhook> = new Map(
  [...KUBEADM_WEBHOOKS, ...AZURE_WEBHOOKS, ...AWS_WEBHOOKS, ...DOCKER_WEBHOOKS].map((w): [string, AdmissionWebhook] => [
    `${w.group}/${w.kind}`,
    w,
  ]),
);

function webhookFor(obj: JsonObject): { hook: AdmissionWebhook; version: string } | undefined {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const i = apiVersion.indexOf('/');
  if (i < 0 || typeof obj.kind !== 'string') return undefined;
  const hook = WEBHOOKS.get(`${apiVersion.slice(0, i)}/${obj.kind}`);
  const version = apiVersion.slice(i + 1);
  return hook && hook.versions.includes(version) ? { hook, version } : undefined;
}

/** The upstream source of the defaulting webhook emulated for this object's kind and version, if any. */
export function admissionWebhookSource(obj: JsonObject): string | undefined {
  return webhookFor(obj)?.hook.source;
}

/**
 * A copy of `obj` with the deterministic defaults of its kind's mutating webhook applied (see
 * `WEBHOOKS`). The input is never mutated; objects of other kinds or versions come back as an
 * unchanged copy.
 */
export function admissionDefaults(obj: JsonObject): JsonObject {
  const copy = deepCopy(obj);
  const found = webhookFor(copy);
  if (found) found.hook.apply(copy, found.version);
  return copy;
}

/** Told of each default applied to an object: its path and where the default came from. */
export type DefaultObserver = (path: (string | number)[], detail: string) => void;

/** Where `after` has what `before` lacks: a new key once (its whole value), a changed scalar, list items by index. */
function addedPaths(before: Json | undefined, after: Json, path: (string | number)[] = []): (string | number)[][] {
  if (isJsonObject(after) && isJsonObject(before)) {
    return Object.entries(after).flatMap(([k, v]) =>
      Object.hasOwn(before, k) ? addedPaths(before[k], v, [...path, k]) : [[...path, k]],
    );
  }
  if (Array.isArray(after) && Array.isArray(before))
    return after.flatMap((item, i) => addedPaths(before[i], item, [...path, i]));
  return jsonString(before) === jsonString(after) ? [] : [path];
}

/**
 * The object as the API server admits it on create: CRD defaults, mutating webhooks, CRD
 * defaults again. `observe` is told of each default and whether the CRD or the webhook set it.
 */
export function admittedObject(crds: CrdIndex, obj: JsonObject, observe?: DefaultObserver): JsonObject {
  const decoded = applyCrdDefaults(crds, obj, observe);
  const found = webhookFor(decoded);
  if (!found) return decoded;
  const before = observe && deepCopy(decoded);
  found.hook.apply(decoded, found.version);
  if (observe) for (const path of addedPaths(before, decoded)) observe(path, `defaulting webhook ${found.hook.source}`);
  return applyCrdDefaults(crds, decoded, observe);
}

/**
 * A template as the topology controller reads it: as the API server stored it (`admittedObject`)
 * when the template's CRD is given; as written otherwise. Without its CRD the kind could not
 * exist live, and a webhook's changes without the CRD's defaults would be a state no live
 * template is in.
 */
export function storedTemplate(crds: CrdIndex, template: JsonObject, observe?: DefaultObserver): JsonObject {
  return crdDefines(crds, template) ? admittedObject(crds, template, observe) : deepCopy(template);
}

/** What the API server would say about creating `obj` (`validateAgainstCrd` of the admitted object). */
export function validateOnCreate(
  crds: CrdIndex,
  obj: JsonObject,
  ref: ObjectRef,
  subject: CrdSubject = 'rendered',
): Result[] {
  return validateAgainstCrd(crds, admittedObject(crds, obj), ref, subject);
}

/**
 * Validates input objects (Cluster, ClusterClass, templates) against their CRDs, each object once
 * however many Clusters use it. `ref` must carry the namespace the object is read in.
 */
export function inputCrdValidator(crds: CrdIndex): (obj: JsonObject, ref: ObjectRef) => Result[] {
  const seen = new Set<string>();
  return (obj, ref) => {
    const key = `${ref.apiVersion}\0${ref.kind}\0${ref.namespace ?? ''}\0${ref.name}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return validateOnCreate(crds, obj, ref, 'input');
  };
}

// ---------------------------------------------------------------- templates read as written

interface StoredOnlyPaths {
  apiVersion: string;
  kind: string;
  /** JSON pointer prefixes that live templates of this kind have only as stored. */
  creates: readonly string[];
  hint: string;
}

/**
 * Paths a live template has only as the API server stored it (`storedTemplate`), which a
 * ClusterClass patch may rely on. Without the template's CRD the template is read as written, so
 * a patch on such a path fails offline where it succeeds live; the hint says why and what to do.
 * CAPA's AWSClusterTemplate: the webhook writes `network` (with `vpc` and `cni`), `bastion`,
 * `controlPlaneLoadBalancer`, `identityRef` and `controlPlaneEndpoint` (`awsClusterTemplateDefaults`),
 * and the CRD defaults `vpc.availabilityZoneUsageLimit` to 3 (fixture `capa-ci-default`).
 */
const STORED_ONLY_PATHS: readonly StoredOnlyPaths[] = [
  {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSClusterTemplate',
    creates: ['network', 'bastion', 'controlPlaneLoadBalancer', 'identityRef', 'controlPlaneEndpoint'].map(
      (f) => `/spec/template/spec/${f}/`,
    ),
    hint:
      "live, the AWSClusterTemplate is patched as stored: CAPA's defaulting webhook writes network.vpc, network.cni, bastion, controlPlaneLoadBalancer, identityRef and controlPlaneEndpoint " +
      'into spec.template.spec, and its CRD defaults network.vpc.availabilityZoneUsageLimit to 3; templates are read as stored only when their CRD is given: ' +
      'pass the AWSClusterTemplate CRD (--crds DIR, or as an input item), or add the field to the template, e.g. `network: {vpc: {availabilityZoneUsageLimit: 3}}`',
  },
];

const MISSING_PATH = /failed on (\S+) "[^"]*" at (\/\S*): \w+ operation does not apply: doc is missing path/;

/**
 * A patch failure ("doc is missing path") on a path that live templates of that kind have only
 * as stored, when the template's CRD is not given, gets that explanation and the way out
 * appended; any other result is returned as it is.
 */
export function withStoredTemplateHint(result: Result, crds: CrdIndex): Result {
  if (!result.message.includes('doc is missing path')) return result;
  const m = MISSING_PATH.exec(result.message);
  if (!m) return result;
  const [, kind, path] = m;
  const known = STORED_ONLY_PATHS.find(
    (w) =>
      w.kind === kind &&
      w.creates.some((p) => `${path}/`.startsWith(p)) &&
      !crdDefines(crds, { apiVersion: w.apiVersion, kind }),
  );
  return known ? { ...result, message: `${result.message} (${known.hint})` } : result;
}
