/**
 * Reusing a Cluster's earlier output as it is, instead of rendering it again (kpt's re-render of
 * a package, `render -o DIR` run again, whose Cluster did not change).
 *
 * A render is a function of what it reads: the renderer's code and the form its output is written
 * in, the function config (CAPI version and feature gates among it), the CRDs, the Cluster, its
 * ClusterClass and the templates the class references, and a current state when one is given
 * (earlier objects, observed objects, the previous inputs' render, extension answers). A render
 * that read no current state and gave no result marks each item of its output — each object under
 * kpt (`INPUTS_ANNOTATION`), each file of `-o DIR` (a column of DIR's outputs list, cli/outdir.ts)
 * — with the digest of those inputs and the count of its items (`inputsMark`). When a re-render
 * finds every earlier item of a Cluster marked with the digest of its inputs now, and as many as
 * the mark says (`reusable`), rendering again would give the same output and no result: it is
 * left as it is. Under kpt the earlier objects are the current state a render would read, and as
 * such a fixed point (they are what the stateless render gives; see `renderWithState` in
 * outputs.ts); `-o DIR` is never read back, so there a Cluster whose render would read another
 * current state (`--previous`) is rendered. Anything else — a changed Cluster, class, template,
 * CRD, config or renderer, an earlier item missing or unmarked, observed objects or extensions —
 * renders as before. Only what a Cluster's render reads is in its digest, so a change to one
 * class re-marks the output of that class's Clusters and no others.
 *
 * The renderer's code is named by its build (cli/build.ts); without one nothing is marked or
 * reused. The front end decides whether reuse is on (`PipelineExtras.renderer`): opt-in under kpt
 * (`reuse: true`; the marks are one more annotation on every rendered object, and a new renderer
 * build changes every mark once, worth it at fleet size, noise in a small package), on by default
 * for `-o DIR` (the marks are in the outputs list, not in the YAML).
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../core/model.js';
import { asObject, canonicalJson } from '../core/json.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import type { RenderConfig } from '../krm/config.js';
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

/** The digest of what every render reads: the renderer, the function config (but `reuse`, which no render reads), the CRDs. */
export function runInputsDigest(renderer: string, config: RenderConfig, crds: readonly JsonObject[]): string {
  const { reuse: _, ...read } = config;
  return digestOf([renderer, read, ...crds]);
}

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

/** One item of a Cluster's earlier output (an object under kpt, a file of `-o DIR`) and its mark, if it carries one. */
export interface EarlierItem {
  inputs?: string | undefined;
}

/** A Cluster's earlier items when they are all of one reusable render of these inputs: each carries its mark, and as many as it says. */
export function reusable<T extends EarlierItem>(
  earlier: readonly T[] | undefined,
  digest: string,
): readonly T[] | undefined {
  if (!earlier || earlier.length === 0) return undefined;
  const mark = inputsMark(digest, earlier.length);
  return earlier.every((e) => e.inputs === mark) ? earlier : undefined;
}
