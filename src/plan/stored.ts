/**
 * Rendered objects as CAPI compares them: stored by the API server at the hub version, and only
 * the fields the topology controller has an opinion on. Both sides of a plan, and of convert's
 * proof, are compared in this form, so an API version change or a default the API server adds is
 * not a change.
 */
import type { JsonObject } from '../core/model.js';
import { asNumber, asObject, asString } from '../core/json.js';
import { DIGEST_ANNOTATION } from '../core/labels.js';
import { atHub } from '../api/conversion/index.js';
import { admissionDefaults } from '../apiserver/admission.js';
import { dropAnnotations, isToolAnnotation } from '../pipeline/classify.js';

/**
 * A rendered object as the API server would store it, in v1beta2: converted when it came out
 * v1beta1, the zero values CAPI's conversion unsets unset either way, then the emulated
 * defaulting webhooks (src/apiserver/admission.ts; e.g. the KubeadmControlPlane rollout type,
 * which the v1beta1 → v1beta2 template conversion also sets). A copy; the digest annotation,
 * which hashes the object as rendered, is left out.
 */
export function storedForm(obj: JsonObject): JsonObject {
  const stored = admissionDefaults(atHub(obj));
  const annotations = asObject(asObject(stored.metadata)?.annotations);
  if (annotations) delete annotations[DIGEST_ANNOTATION];
  return stored;
}

/** The metadata the topology controller sets (the rest of `metadata` is the API server's). */
const COMPARED_METADATA = ['name', 'namespace', 'labels', 'annotations', 'ownerReferences'] as const;

/**
 * What the topology controller compares of an object it owns (`stored`, from storedForm):
 * apiVersion, kind, metadata name, namespace, labels, annotations and ownerReferences, and spec
 * (CAPI core/reconcilers/topology/cluster/structuredmerge/options.go `defaultAllowedPaths`),
 * without the tools' bookkeeping annotations, and without a control plane endpoint host or port
 * that the desired object leaves empty (internal/contract/infrastructure_cluster.go and
 * controlplane.go `IgnorePaths`: the controller does not apply an empty one, so the value the
 * provider set stays; the renderer may leave an empty one out altogether). `desired` is the
 * stored object whose endpoint decides: the head's.
 */
export function comparedFields(stored: JsonObject, desired: JsonObject): JsonObject {
  const meta = asObject(stored.metadata) ?? {};
  const metadata: JsonObject = {};
  for (const key of COMPARED_METADATA) if (meta[key] !== undefined) metadata[key] = meta[key];
  if (metadata.annotations) {
    metadata.annotations = { ...asObject(metadata.annotations) };
    dropAnnotations(metadata, isToolAnnotation);
  }
  const out: JsonObject = { apiVersion: stored.apiVersion ?? null, kind: stored.kind ?? null, metadata };
  const spec = asObject(stored.spec);
  if (!spec) return out;
  const endpoint = asObject(spec.controlPlaneEndpoint);
  if (!endpoint) return { ...out, spec };
  const wanted = asObject(asObject(desired.spec)?.controlPlaneEndpoint);
  const kept: JsonObject = { ...endpoint };
  if (!asString(wanted?.host)) delete kept.host;
  if (!asNumber(wanted?.port)) delete kept.port;
  const { controlPlaneEndpoint: _ignored, ...rest } = spec;
  return { ...out, spec: Object.keys(kept).length > 0 ? { ...rest, controlPlaneEndpoint: kept } : rest };
}
