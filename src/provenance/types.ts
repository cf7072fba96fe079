/** Public shapes of `explain` (issue #6): where each field of a rendered object came from. */
import type { Json, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { PatchEvaluation, Source } from './sources.js';

export type { PatchEvaluation, PatchSource, Source, VariableUse } from './sources.js';

export interface FieldOrigin {
  /** Dotted path, `[i]` for list items, `['key']` for keys containing `.`, `[`, `]` or `'`. */
  path: string;
  value: Json;
  source: Source;
}

export interface ExplainedObject {
  ref: { apiVersion: string; kind: string; name: string; namespace: string };
  /** Every scalar leaf and every empty object/list, in document order. */
  fields: FieldOrigin[];
  /** Role of the object in the topology, e.g. `ControlPlane`, `MachineDeployment md-0`. */
  role?: string;
  /** The ClusterClass patches whose selectors matched this object's template (not for MachineDeployments/MHCs). */
  patches?: PatchEvaluation[];
}

export interface ExplainResult {
  objects: ExplainedObject[];
  results: Result[];
  cluster?: ObjectRef;
  clusterClass?: ObjectRef;
}
