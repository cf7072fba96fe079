/** What the pipeline takes besides its items and what it gives back (pipeline/run.ts). */
import type { JsonObject } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { ExtensionInputs } from '../extensions/client.js';
import type { CutEarlierOutput } from '../krm/earlier.js';
import type { InputItem } from '../krm/item.js';
import type { ProvenanceInput } from '../provenance/report.js';
import type { KeptOutputs } from './keep.js';
import type { DeferredWorker } from '../topology/upgrade.js';
import type { EarlierItem } from './reuse.js';

export interface ItemEdit {
  /** Replace the item with this object (kustomize: the classic Cluster takes the topology Cluster's place). */
  replaceWith?: JsonObject;
  /** Annotations to add to the item (expand mode marks the source Cluster local-config). */
  addAnnotations?: Record<string, string>;
}

export interface ClusterOutput {
  cluster: string;
  objects: JsonObject[];
  /** With `provenance: true`: where every field of the rendered objects came from. */
  provenance?: ProvenanceInput;
  /**
   * A Cluster whose earlier output is reused as it is (pipeline/reuse.ts), `objects` then empty:
   * under kpt its objects' list entries, as text, written back; for `-o DIR` the paths of its
   * files, left as they are.
   */
  reused?: string[];
  /** With `PipelineExtras.sequenceFrom`: the workers upgrade sequencing holds back. */
  deferred?: DeferredWorker[];
  /** For `-o DIR` (`PipelineExtras.earlierFiles`): the digest of the inputs of a reusable render, for DIR's outputs list to mark its files with. */
  inputs?: string;
}

/** What a run decides besides the generated objects (known once every Cluster is rendered). */
export interface PipelineSummary {
  /** Input items to write back, in input order (previous outputs being replaced are left out). */
  keep: InputItem[];
  /** Earlier outputs cut from the input text (`PipelineExtras.earlier`) to write back as they were. */
  keepEntries: string[];
  edits: Map<InputItem, ItemEdit>;
  results: Result[];
}

/** Whose earlier output a run keeps, and why (pipeline/keep.ts): one rule for the earlier objects among the items and for `-o DIR` files. */
export interface KeepDecision {
  kept: KeptOutputs;
}

/** The Clusters (`namespace/name`) the webhooks admit but whose topology fails to reconcile: CAPI stores them without a control plane. */
export interface Unreconciled {
  unreconciled: ReadonlySet<string>;
}

export interface PipelineOutput extends PipelineSummary {
  /** Sorted by Cluster (`compareClusterOutputs`). */
  generated: ClusterOutput[];
}

/** Receives one Cluster's rendered objects; the objects are the receiver's from then on. */
export type ClusterSink = (output: ClusterOutput) => void;

/** Inputs that are not items of this run (CLI `--crds`, `--previous`, `--observed`). */
export interface PipelineExtras {
  crds?: readonly JsonObject[];
  /** The inputs as they were before this change (CLI `--previous`); in a package, items marked `render-clusterclass.dev/previous`. */
  previousInputs?: readonly InputItem[];
  /** Live objects exported from the management cluster, with their status. */
  observed?: readonly JsonObject[];
  /** Runtime SDK extensions: ExtensionConfigs from files, URL overrides, live/record/replay. */
  extensions?: ExtensionInputs;
  /** Objects generated on an earlier run, cut from a ResourceList's text (krm/earlier.ts). */
  earlier?: readonly CutEarlierOutput[];
  /**
   * With reuse on (the front end's decision), the renderer's build (cli/build.ts) and the form its
   * output is written in: renders are marked reusable and earlier ones reused (pipeline/reuse.ts).
   */
  renderer?: string;
  /**
   * `-o DIR` with reuse on: the files each Cluster's earlier render left in DIR, by `namespace/name`,
   * each with its mark when DIR's outputs list gives one and the file is as the list says it was
   * written. Renders are then marked in the list (`ClusterOutput.inputs`), not in annotations.
   */
  earlierFiles?: ReadonlyMap<string, readonly EarlierFile[]>;
  /** Told after each Cluster (the CLI's progress indicator). */
  progress?: (done: number, total: number) => void;
  /** Input files that could not be read or parsed (the CLI's; reported already): while there are any, nothing is pruned. */
  unreadable?: readonly string[];
  /** The previous inputs already rendered (plan's base), by `namespace/name`: each Cluster's current state, not rendered again. */
  previousRendered?: ReadonlyMap<string, JsonObject[]>;
  /**
   * Each Cluster's objects before a planned change (plan's base render), by `namespace/name`: the
   * render stays at the target versions and says which workers sequencing holds back.
   */
  sequenceFrom?: ReadonlyMap<string, readonly JsonObject[]>;
  /** Clusters with output from an earlier run that is not among the items (the CLI's `-o DIR`). */
  earlierClusters?: ReadonlySet<string>;
}

/** A file of `-o DIR` written by an earlier render of a Cluster (cli/outdir.ts `intactOutputs`). */
export interface EarlierFile extends EarlierItem {
  /** Relative to DIR. */
  path: string;
  /** The objects it holds. */
  objects: number;
}

/** What the run learns of its Clusters one by one. */
export interface ClusterRuns {
  edits: Map<InputItem, ItemEdit>;
  /** `namespace/name` of the Clusters rendered (or reused). */
  rendered: Set<string>;
  /** Objects of the Clusters rendered (or reused). */
  objects: number;
  /** `namespace/name` of the Clusters admitted whose render failed (`Unreconciled`). */
  unreconciled: Set<string>;
}
