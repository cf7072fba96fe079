/**
 * The generated objects of a run and the earlier ones: their annotations and digests, the earlier
 * output as a fixed point, and which earlier outputs and inputs are written back (keep.ts).
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../core/model.js';
import type { Result } from '../core/result.js';
import { asObject, canonicalJson } from '../core/json.js';
import {
  DIGEST_ANNOTATION,
  INDEX_ANNOTATION,
  INPUTS_ANNOTATION,
  LEGACY_INDEX_ANNOTATION,
  LEGACY_PATH_ANNOTATION,
  LOCAL_CONFIG_ANNOTATION,
  OWNER_ANNOTATION,
  PATH_ANNOTATION,
} from '../core/labels.js';
import { earlierObjects, type EarlierOutput } from '../krm/earlier.js';
import type { InputItem } from '../krm/item.js';
import { annotationsOf, SKIPPED_RULE } from '../krm/read.js';
import { templateKey } from '../blueprint/blueprint.js';
import type { RunContext } from './context.js';
import { keptOutputs, named, unreadableKeptResult, type KeepReason } from './keep.js';
import { reportedResults, type RunTally } from './report.js';
import { clusterKey, type IdentifiedItem } from './classify.js';
import { located, strictly, withFiles } from './results.js';
import type { ClusterOutput, ClusterRuns, ItemEdit, KeepDecision, PipelineSummary, Unreconciled } from './types.js';

/** The output order of generated objects: by Cluster key (a stable sort keeps duplicates in input order). */
export const compareClusterOutputs = (a: Pick<ClusterOutput, 'cluster'>, b: Pick<ClusterOutput, 'cluster'>): number =>
  a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0;

/** One render of a Cluster: its results and, when it rendered, its objects (and item edit, provenance). */
export interface Attempt {
  results: Result[];
  objects?: JsonObject[];
  edit?: ItemEdit;
  provenance?: ClusterOutput['provenance'];
  deferred?: ClusterOutput['deferred'];
  /** No objects: the webhooks admit the Cluster but its topology fails to reconcile. */
  unreconciled?: boolean;
}

/** A digest of an object's content, whatever the key order of the inputs it was built from. */
const objectDigest = (obj: JsonObject): string =>
  createHash('sha256').update(canonicalJson(obj)).digest('hex').slice(0, 32);

/** The earlier outputs' digests, when every one has its digest. */
function digestsOf(earlier: readonly EarlierOutput[]): string[] | undefined {
  const digests = earlier.flatMap((e) => (e.digest === undefined ? [] : [e.digest]));
  return digests.length === earlier.length ? digests : undefined;
}

/** Whether every object's digest is among `digests` (as a multiset). */
function containsDigests(digests: readonly string[], objects: readonly JsonObject[]): boolean {
  const count = new Map<string, number>();
  for (const d of digests) count.set(d, (count.get(d) ?? 0) + 1);
  return objects.every((o) => {
    const d = String(annotationsOf(o)[DIGEST_ANNOTATION]);
    const n = count.get(d) ?? 0;
    count.set(d, n - 1);
    return n > 0;
  });
}

/**
 * A Cluster's render against its current state: the earlier objects, else its previous inputs'
 * render, else none (`stateless`). An earlier output holding every object of the stateless render
 * (same digests) is a fixed point: as the current state it changes no version and shows no
 * rollout. So it is not parsed. (Not when `stateful`, with observed objects or extensions: they
 * take part in the render, and are called once.)
 */
export function renderWithState(
  attempt: (state: readonly JsonObject[] | undefined) => Attempt,
  earlier: readonly EarlierOutput[] | undefined,
  previous: JsonObject[] | undefined,
  stateful: boolean,
): { done: Attempt; stateless: boolean } {
  const digests = earlier && digestsOf(earlier);
  if (digests && !stateful) {
    const attempted = attempt(undefined);
    if (attempted.objects && containsDigests(digests, attempted.objects)) return { done: attempted, stateless: true };
  }
  const state = earlier ? earlierObjects(earlier) : previous;
  return { done: attempt(state), stateless: state === undefined };
}

/**
 * Owner, file path/index (both annotation generations), in preview local-config, and the digest
 * of the object as rendered (what a re-render compares instead of parsing the earlier output).
 */
export function annotateGenerated(objects: JsonObject[], owner: string, path: string, preview: boolean): void {
  objects.forEach((obj, index) => {
    const digest = objectDigest(obj);
    const meta = asObject(obj.metadata) ?? {};
    const annotations: JsonObject = { ...asObject(meta.annotations) };
    annotations[OWNER_ANNOTATION] = owner;
    if (preview) annotations[LOCAL_CONFIG_ANNOTATION] = 'true';
    annotations[PATH_ANNOTATION] = path;
    annotations[INDEX_ANNOTATION] = String(index);
    annotations[LEGACY_PATH_ANNOTATION] = path;
    annotations[LEGACY_INDEX_ANNOTATION] = String(index);
    annotations[DIGEST_ANNOTATION] = digest;
    meta.annotations = annotations;
    obj.metadata = meta;
  });
}

/** Marks a render's objects as reusable by a re-render with the same inputs (pipeline/reuse.ts). */
export function markReusable(objects: readonly JsonObject[], mark: string): void {
  for (const obj of objects) {
    const annotations = asObject(asObject(obj.metadata)?.annotations); // annotateGenerated set both
    if (annotations) annotations[INPUTS_ANNOTATION] = mark;
  }
}

const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
};

/** Items that could not be read as objects (no identity, not skipped; each has its error result), as the user finds them: file, else place in the list. */
const unreadableItems = (items: readonly InputItem[]): string[] =>
  items.flatMap((i, index) => (i.ref || i.skipped ? [] : [i.file ? located(i) : `items[${index}]`]));

/**
 * What the run writes back besides the generated objects, and its results. Outputs of an earlier
 * run are replaced for Clusters rendered now and pruned for Clusters that are gone (keep.ts); a
 * Cluster in the inputs that is not rendered keeps them as they came.
 */
export function summarize(ctx: RunContext, runs: ClusterRuns): PipelineSummary & KeepDecision & Unreconciled {
  const { items, config, extras, mode, ns, results, blueprints } = ctx;
  const { present, generated, classes } = ctx.classified;
  const { rendered, edits } = runs;
  const inThisShard = (key: string) => ctx.inThisShard(...splitKey(key));
  const unreadable = unreadableItems(items);
  const kept = keptOutputs(present, rendered, [...unreadable, ...(extras.unreadable ?? [])], inThisShard);
  const replaced = new Set<EarlierOutput>();
  const keptBy = new Map<KeepReason, number>();
  let pruned = 0;
  if (mode.emits) {
    for (const [owner, list] of generated) {
      const reason = kept.reason(owner);
      if (reason === undefined) list.forEach((e) => replaced.add(e));
      if (reason !== undefined) keptBy.set(reason, (keptBy.get(reason) ?? 0) + 1);
      else if (!rendered.has(owner)) pruned++;
    }
    const notFound = [...generated.keys()].filter((owner) => kept.reason(owner) === 'unreadable-input');
    if (notFound.length > 0)
      results.push(
        unreadableKeptResult(
          `the earlier objects of Clusters not found this run (${named(notFound)})`,
          kept.unreadable,
        ),
      );
  }
  const classItems = new Set<InputItem>(classes);
  const isClassInput = (i: InputItem) =>
    classItems.has(i) ||
    (!!i.ref &&
      blueprints.classTemplates.has(templateKey(i.ref.apiVersion, i.ref.kind, i.ref.namespace ?? ns, i.ref.name)));
  const replacedItems = new Set([...replaced].flatMap((e) => (e.item ? [e.item] : [])));
  const keep = items.filter((i) => !replacedItems.has(i) && !(mode.dropsClassInputs && isClassInput(i)));
  const keepEntries = (extras.earlier ?? []).filter((e) => !replaced.has(e)).map((e) => e.entry);
  const classic = passedThrough(ctx);
  const tally: RunTally = {
    verb: mode.emits ? 'rendered' : 'validated',
    clusters:
      rendered.size + [...present].filter((key) => inThisShard(key) && !rendered.has(key) && !classic.has(key)).length,
    rendered: rendered.size,
    objects: runs.objects,
    kept: keptBy,
    pruned,
    notObjects: results.filter((r) => r.tags?.rule === SKIPPED_RULE).length,
    unreadable: unreadable.length + (extras.unreadable?.length ?? 0),
  };
  const reported = reportedResults(
    withFiles(config.strict ? strictly(results) : results, items, ns),
    tally,
    config.reportEachCluster,
  );
  return { keep, keepEntries, edits, results: reported, kept, unreconciled: runs.unreconciled };
}

/** Clusters without a topology that were never rendered: CAPI's classic form, passed through (context.ts), no failure. */
function passedThrough(ctx: RunContext): Set<string> {
  const { classicClusters, clusters, generated } = ctx.classified;
  const keyOf = (i: IdentifiedItem) => clusterKey(i.ref.namespace ?? ctx.ns, i.ref.name);
  const withTopology = new Set(clusters.map(keyOf));
  return new Set(
    classicClusters
      .map(keyOf)
      .filter((key) => !withTopology.has(key) && !generated.has(key) && !ctx.extras.earlierClusters?.has(key)),
  );
}
