/**
 * Reusing a Cluster's earlier objects as they are, instead of rendering it again (kpt's re-render
 * of a package whose Cluster did not change).
 *
 * A render is a function of what it reads: the renderer's code, the function config, the Cluster,
 * the package's other inputs (classes, templates, CRDs), and a current state when one is given
 * (earlier objects, observed objects, extension answers). A render that read no current state and
 * gave no result marks each of its objects with the digest of those inputs and the count of its
 * objects (`INPUTS_ANNOTATION`). When a re-render finds every earlier object of a Cluster marked
 * with the digest of its inputs now, and as many as the mark says, rendering again would give
 * the same objects and no result: as the current state they are a fixed point (they are what the
 * stateless render gives; see the digest check in run.ts). So they are written back as they came,
 * unparsed. Anything else — a changed Cluster, class, template, CRD, config or renderer, an
 * earlier object missing, observed objects or extensions — renders as before.
 *
 * The renderer's code is named by its build (cli/build.ts); without one nothing is marked or reused.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../api/model.js';
import { asObject, canonicalJson } from '../api/json.js';
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

/** The digest of what every Cluster's render reads besides the Cluster (the renderer, the config, the package's other inputs). */
export function sharedInputsDigest(renderer: string, config: RenderConfig, inputs: readonly JsonObject[]): string {
  const hash = createHash('sha256').update(`${renderer}\n`).update(canonicalJson(config as unknown as JsonObject));
  for (const value of inputs) hash.update('\n').update(canonicalJson(withoutToolAnnotations(value)));
  return hash.digest('hex');
}

/** The digest of what one Cluster's render reads. */
export const clusterInputsDigest = (shared: string, cluster: JsonObject): string =>
  createHash('sha256').update(shared).update(canonicalJson(withoutToolAnnotations(cluster))).digest('hex').slice(0, 32);

/** The mark of a reusable render: the digest of its inputs and how many objects it gave. */
export const inputsMark = (digest: string, count: number): string => `${digest}/${count}`;

/** The earlier objects' text when they are all of one reusable render of these inputs. */
export function reusableEntries(earlier: readonly EarlierOutput[] | undefined, digest: string): string[] | undefined {
  if (!earlier || earlier.length === 0) return undefined;
  const mark = inputsMark(digest, earlier.length);
  return earlier.every((e) => e.entry !== undefined && e.inputs === mark) ? earlier.map((e) => e.entry!) : undefined;
}
