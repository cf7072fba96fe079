/**
 * What every Cluster's render of a run shares, set up once: the items sorted into roles, the
 * previous inputs, the CRDs, the extension client, the templates as stored, the compiled classes,
 * and what the output mode asks.
 */
import type { JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { capiProfileOf, withImpliedGates, type RenderConfig } from '../krm/config.js';
import type { InputItem } from '../krm/item.js';
import { asObject, cloneJson } from '../core/json.js';
import { PREVIOUS_ANNOTATION } from '../core/labels.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { contractLookup } from '../blueprint/contract.js';
import { contractVersionsFromCrds, loadCrds, type CrdIndex } from '../apiserver/crds.js';
import { checksNumberRanges } from '../variables/openapi.js';
import { inputCrdValidator } from '../apiserver/admission.js';
import { extensionClientFor, type ExtensionClient } from '../extensions/client.js';
import { OriginRecorder } from '../provenance/recorder.js';
import { classify, clusterKey, namespacedRef, shardOf, type Classified } from './classify.js';
import { blueprintCache, defaultedTemplates, type BlueprintCache, type InputCheck } from './blueprints.js';
import { classInputsDigest, runInputsDigest } from './reuse.js';
import { topologyRemoved, updateResults, type CurrentStateOf } from './update.js';
import { controlPlaneKindOf, currentStateOf } from '../topology/upgrade.js';
import { duplicateResults, passedThrough } from './results.js';
import { earlierObjects } from '../krm/earlier.js';
import { apiServerDecodingErrors } from '../apiserver/strict.js';
import type { PipelineExtras } from './types.js';

/** What the output mode asks of a run, decided once. */
interface ModePlan {
  /** Rendered objects are written and replace earlier ones (every mode but `validate`). */
  emits: boolean;
  /** `expand`: the classic Cluster is generated and its source Cluster marked local-config. */
  expands: boolean;
  /** `preview`: the generated objects are local-config. */
  localConfig: boolean;
  /** `expand` without `keepClassInputs`: ClusterClasses and their templates leave the output. */
  dropsClassInputs: boolean;
}

const modePlan = (config: RenderConfig): ModePlan => ({
  emits: config.mode !== 'validate',
  expands: config.mode === 'expand',
  localConfig: config.mode === 'preview',
  dropsClassInputs: config.mode === 'expand' && !config.keepClassInputs,
});

export interface RunContext {
  items: readonly InputItem[];
  config: RenderConfig;
  extras: PipelineExtras;
  mode: ModePlan;
  ns: string;
  /** Every result of the run so far, in the order they arose. */
  results: Result[];
  classified: Classified;
  observed: JsonObject[];
  /** The previous inputs rendered: each Cluster's objects, by `namespace/name`. */
  previousRender: Map<string, JsonObject[]> | undefined;
  crds: CrdIndex;
  haveCrds: boolean;
  checkInput: InputCheck | undefined;
  extensions: ExtensionClient | undefined;
  blueprints: BlueprintCache;
  newRecorder: () => OriginRecorder;
  /** ClusterClasses given more than once (`namespace/name`): their Clusters are not rendered. */
  duplicateClasses: Set<string>;
  /**
   * ClusterClasses (`namespace/name`) whose update the webhook refuses: CAPI keeps the previous
   * class, so their Clusters are not rendered against the new one.
   */
  refusedClassUpdates: ReadonlySet<string>;
  /** The Cluster webhook's update refusals, by `namespace/name` (reported where the Cluster is judged). */
  clusterUpdates: ReadonlyMap<string, readonly Result[]>;
  /** With reuse on: the digest of what a class's Clusters' renders read besides the Cluster. */
  classInputsOf: (key: string, blueprint: Blueprint, classDocument: JsonObject) => string | undefined;
  inThisShard: (namespace: string, name: string) => boolean;
}

/**
 * Renders the previous inputs (their preview): each Cluster's objects by `namespace/name`, and the
 * Clusters admitted whose render failed.
 */
export type PreviousRender = (inputs: readonly InputItem[]) => {
  rendered: Map<string, JsonObject[]>;
  unreconciled: ReadonlySet<string>;
};

/** Sets up a run; its first results (reading, update rules, CRDs, extensions, classes, duplicates, classic Clusters) are in `results`. */
export function runContext(
  items: readonly InputItem[],
  asked: RenderConfig,
  readResults: readonly Result[],
  extras: PipelineExtras,
  renderPrevious: PreviousRender,
): RunContext {
  const results: Result[] = [...readResults];
  const { client: extensions, results: extensionResults } = extensionClientFor(
    items.map((i) => i.value),
    extras.extensions,
  );
  const config = withImpliedGates(asked, extensions !== undefined);
  const ns = config.defaultNamespace;
  const classified = classify(items, ns, extras.earlier);
  const { classes, templates, crdObjects, previous, duplicates } = classified;
  const observed = [...classified.observed, ...(extras.observed ?? [])];
  // The previous inputs give the webhooks' update rules and, rendered, the current state of
  // Clusters whose earlier outputs are not in the package.
  const previousInputs = [
    ...previous.map((i) => ({ ...i, value: withoutPreviousMark(i.value) })),
    ...(extras.previousInputs ?? []),
  ];
  let previousRender: Map<string, JsonObject[]> | undefined =
    extras.previousRendered && new Map(extras.previousRendered);
  let clusterUpdates = new Map<string, Result[]>();
  const refusedClassUpdates = new Set<string>();
  if (previousInputs.length > 0) {
    const isPrevious = new Set<InputItem>(previous);
    const earlierRender = renderPrevious(previousInputs);
    const rendered = earlierRender.rendered;
    previousRender = rendered;
    // The current state a version change is checked against is the one a render reads
    // (outputs.ts renderWithState): the earlier objects, else the previous render, and the
    // observed objects. A previous Cluster CAPI never stored (refused) has none to check.
    const currentOf: CurrentStateOf = (key, cluster, cc) => {
      if (!rendered.has(key) && !earlierRender.unreconciled.has(key)) return undefined;
      const earlier = classified.generated.get(key);
      const objects = earlier ? earlierObjects(earlier) : rendered.get(key);
      return currentStateOf(cluster, controlPlaneKindOf(cc), { previous: objects, observed });
    };
    const updates = updateResults(
      previousInputs,
      items.filter((i) => !isPrevious.has(i)),
      config,
      currentOf,
    );
    const classUpdates = updates.filter((r) => r.resourceRef?.kind !== 'Cluster');
    results.push(...classUpdates);
    for (const r of classUpdates)
      if (r.severity === 'error' && r.resourceRef?.kind === 'ClusterClass')
        refusedClassUpdates.add(clusterKey(r.resourceRef.namespace ?? ns, r.resourceRef.name));
    clusterUpdates = byCluster(
      updates.filter((r) => r.resourceRef?.kind === 'Cluster'),
      ns,
    );
  }
  const loaded = loadCrds([...crdObjects, ...(extras.crds ?? [])], {
    numberRanges: checksNumberRanges(capiProfileOf(config)),
  });
  results.push(...loaded.results);
  const haveCrds = crdObjects.length + (extras.crds?.length ?? 0) > 0;
  const contractOf = contractLookup(config.contractVersions, contractVersionsFromCrds(loaded.crds));
  // With CRDs, the inputs a render uses are validated as the API server would validate them on
  // create; for Clusters and ClusterClasses, unknown fields are strict-decoding errors instead.
  const crdCheck = haveCrds ? inputCrdValidator(loaded.crds) : undefined;
  const checkInput: InputCheck | undefined =
    crdCheck &&
    ((obj, ref) => crdCheck(obj, ref).filter((r) => !(r.tags?.rule === 'crd-pruned' && isCapiTopologyKind(ref))));
  results.push(...extensionResults);
  const defaulted = haveCrds ? defaultedTemplates(templates, loaded.crds) : undefined;
  const blueprintInputs = {
    templates: defaulted?.index ?? templates,
    config,
    contractOf,
    crds: loaded.crds,
    extensions,
    checkInput,
  };
  const blueprints = blueprintCache(classes, blueprintInputs, results);
  const mode = modePlan(config);
  const ctx: RunContext = {
    items,
    config,
    extras,
    mode,
    ns,
    results,
    classified,
    observed,
    previousRender,
    crds: loaded.crds,
    haveCrds,
    checkInput,
    extensions,
    blueprints,
    newRecorder: () => new OriginRecorder(defaulted?.defaults),
    clusterUpdates,
    refusedClassUpdates,
    duplicateClasses: new Set(
      duplicates
        .map(([first]) => namespacedRef(first, ns))
        .filter((r) => r.kind === 'ClusterClass')
        .map((r) => clusterKey(r.namespace, r.name)),
    ),
    classInputsOf: classInputsCache(config, extras, crdObjects, observed.length === 0 && !extensions && mode.emits),
    inThisShard: (namespace, name) =>
      !config.shard || shardOf(namespace, name, config.shard.count) === config.shard.index,
  };
  results.push(...duplicateResults(duplicates, ns));
  classicClusterResults(ctx);
  return ctx;
}

/**
 * With reuse on (`PipelineExtras.renderer`), the digest of what a class's Clusters' renders read
 * besides the Cluster (once per class); undefined otherwise. Renders that read a current state
 * (observed objects, extension answers) are never reused (`stateless` false).
 */
function classInputsCache(
  config: RenderConfig,
  extras: PipelineExtras,
  crdObjects: readonly JsonObject[],
  stateless: boolean,
): RunContext['classInputsOf'] {
  const renderer = extras.renderer;
  const runInputs =
    renderer !== undefined && stateless
      ? runInputsDigest(renderer, config, [...crdObjects, ...(extras.crds ?? [])])
      : undefined;
  const classInputs = new Map<string, string>();
  return (key, blueprint, classDocument) => {
    if (!runInputs) return undefined;
    if (!classInputs.has(key)) classInputs.set(key, classInputsDigest(runInputs, blueprint, classDocument));
    return classInputs.get(key);
  };
}

/** Results about Clusters by `namespace/name`. */
function byCluster(results: readonly Result[], ns: string): Map<string, Result[]> {
  const out = new Map<string, Result[]>();
  for (const r of results) {
    const key = clusterKey(r.resourceRef?.namespace ?? ns, r.resourceRef?.name ?? '');
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

/** Clusters without a topology: passed through, or refused when they had one (their output is kept). */
function classicClusterResults(ctx: RunContext): void {
  const { classified, previousRender, extras } = ctx;
  for (const item of classified.classicClusters) {
    const ref = namespacedRef(item, ctx.ns);
    const key = clusterKey(ref.namespace, ref.name);
    // Rendered before, so it has a topology where it is applied: its earlier output is kept (keep.ts).
    const hadTopology =
      classified.generated.has(key) || previousRender?.has(key) === true || extras.earlierClusters?.has(key) === true;
    ctx.results.push(
      ...apiServerDecodingErrors(item.value, ref, ctx.crds, capiProfileOf(ctx.config)),
      hadTopology ? topologyRemoved(ref) : passedThrough(ref),
    );
  }
}

const isCapiTopologyKind = (ref: ObjectRef) =>
  (ref.kind === 'Cluster' || ref.kind === 'ClusterClass') && ref.apiVersion.startsWith('cluster.x-k8s.io/');

/** A previous-state item as it was: the marker annotation removed, so it classifies as a current one would. */
function withoutPreviousMark(value: JsonObject): JsonObject {
  const copy = cloneJson(value);
  const annotations = asObject(asObject(copy.metadata)?.annotations);
  if (annotations) delete annotations[PREVIOUS_ANNOTATION];
  return copy;
}
