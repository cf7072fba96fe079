/**
 * Reusing a Cluster's earlier objects as they are, instead of rendering it again (kpt's re-render
 * of a package whose Cluster did not change).
 *
 * A render is a function of what it reads: the renderer's code, the function config, the CRDs,
 * the Cluster, its ClusterClass and the templates the class references, and a current state when
 * one is given (earlier objects, observed objects, extension answers). A render that read no
 * current state and gave no result marks each of its objects with the digest of those inputs and
 * the count of its objects (`INPUTS_ANNOTATION`). When a re-render finds every earlier object of
 * a Cluster marked with the digest of its inputs now, and as many as the mark says, rendering
 * again would give the same objects and no result: as the current state they are a fixed point
 * (they are what the stateless render gives; see `renderWithState` in outputs.ts). So they are written
 * back as they came, unparsed. Anything else — a changed Cluster, class, template, CRD, config or
 * renderer, an earlier object missing, observed objects or extensions — renders as before. Only
 * what a Cluster's render reads is in its digest, so a change to one class re-marks the objects
 * of that class's Clusters and no others.
 *
 * The renderer's code is named by its build (cli/build.ts); without one nothing is marked or reused.
 * It is opt-in (`reuse: true`): the marks are one more annotation on every rendered object, and a
 * new renderer build changes every mark once (an annotation-only diff in every rendered file),
 * worth it at fleet size, noise in a small package.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../core/model.js';
import { asObject, canonicalJson } from '../core/json.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import type { RenderConfig } from '../krm/config.js';
import type { EarlierOutput } from '../krm/earlier.js';
import { isToolAnnotation } from './classify.js';

/** An object without the annotations of orchestrators and of this function (they change from run to run; no render reads them). */
function withoutToolAnnotations(value: JsonObject): JsonObject {
  const meta = asObject(value.metadata);
  const annotations = asObject(meta?.annotations);
  if (!meta || !annotations) return value;
  const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => !isToolAnnotation(k)));
  return { ...value, metadata: { ...meta, annotations: kept } };
}

const digestOf = (parts: readonly (string | JsonObject)[]): string => {
  const hash = createHash('sha256');
  for (const part of parts)
    hash.update(typeof part === 'string' ? part : canonicalJson(withoutToolAnnotations(part))).update('\n');
  return hash.digest('hex');
};

/** The digest of what every render reads: the renderer, the function config, the CRDs. */
export const runInputsDigest = (renderer: string, config: RenderConfig, crds: readonly JsonObject[]): string =>
  digestOf([renderer, config as unknown as JsonObject, ...crds]);

/** The digest of what the renders of one class's Clusters read besides the Cluster: the class as written and its templates as resolved. */
export function classInputsDigest(run: string, blueprint: Blueprint, classDocument: JsonObject): string {
  const templates = [
    blueprint.infrastructureCluster,
    blueprint.controlPlane,
    blueprint.controlPlaneMachineInfrastructure,
    ...[...blueprint.machineDeployments.values(), ...blueprint.machinePools.values()].flatMap((w) => [
      w.bootstrap,
      w.infrastructure,
    ]),
  ];
  return digestOf([run, classDocument, ...templates.flatMap((t) => (t ? [t.object] : []))]);
}

/** The digest of what one Cluster's render reads. */
export const clusterInputsDigest = (classInputs: string, cluster: JsonObject): string =>
  digestOf([classInputs, cluster]).slice(0, 32);

/** The mark of a reusable render: the digest of its inputs and how many objects it gave. */
export const inputsMark = (digest: string, count: number): string => `${digest}/${count}`;

/** The earlier objects' text when they are all of one reusable render of these inputs. */
export function reusableEntries(earlier: readonly EarlierOutput[] | undefined, digest: string): string[] | undefined {
  if (!earlier || earlier.length === 0) return undefined;
  const mark = inputsMark(digest, earlier.length);
  const entries = earlier.flatMap((e) => (e.entry !== undefined && e.inputs === mark ? [e.entry] : []));
  return entries.length === earlier.length ? entries : undefined;
}
