/**
 * Provenance as a by-product of rendering: the stages that set values (desired state, patches
 * and their write-back, CRD defaulting, upgrade sequencing) report where each value came from to
 * an optional `Recorder`. Stages call it as `rec?.set(...)`, so a render without a recorder
 * evaluates no arguments and allocates nothing; with one, what is recorded is what the render did.
 *
 * Objects are recorded by identity: a stage that replaces an object by a new one (copy-on-write,
 * write-back) says so (`moved`, `copy`). A patch of any kind reports through the same calls: an
 * inline or external JSON patch via `recordJsonPatchEffect` (src/patches/jsonpatch.ts) with a
 * `PatchSource` or `ExternalPatchSource`, a merge patch via `set`/`remove`.
 */
import { jsonText } from '../core/json.js';
import type { JsonObject } from '../core/model.js';
import type { PatchEvaluation, Source, TemplateId } from './sources.js';
import type { Path } from '../core/path.js';
import { extractNode, insertNode, removeNode, setNode, sourceAt, type OriginNode } from './tree.js';

export interface Recorder {
  /** The value at `path` of `obj`, with everything below it, comes from `source`. */
  set(obj: JsonObject, path: Path, source: Source): void;
  /** The value at `objPath` of `obj` is a copy of the ClusterClass template `template` at `templatePath`. */
  fromTemplate(template: JsonObject, templatePath: Path, obj: JsonObject, objPath: Path): void;
  /** The value at `toPath` of `to` is a copy of the value at `fromPath` of `from`, origins included. */
  copy(from: JsonObject, fromPath: Path, to: JsonObject, toPath: Path): void;
  /** An item from `source` was inserted at `index` into the list at `listPath`, which held `length` items. */
  insert(obj: JsonObject, listPath: Path, index: number, length: number, source: Source): void;
  /** The value at `path` was removed; `length` is the length of its list when it was a list item. */
  remove(obj: JsonObject, path: Path, length?: number): void;
  /** `next` replaces `prev` (a copy-on-write successor): its origins and patches are `prev`'s. */
  moved(prev: JsonObject, next: JsonObject): void;
  /** A ClusterClass patch's selector matched `obj` (a patch request template): what it did. */
  considered(obj: JsonObject, evaluation: PatchEvaluation): void;
  /** `obj` was written back from the patched template `template`: the patches considered for one are the other's. */
  writtenBack(template: JsonObject, obj: JsonObject): void;
  /** The Cluster field at `path` was defaulted by the Cluster webhook: values taken from it carry `note`. */
  clusterDefault(path: string, note: string): void;
}

/** Fields a template has only as stored (CRD structural defaults, emulated defaulting webhooks), with a description of the default. */
export type TemplateDefaults = (template: JsonObject) => readonly { path: Path; detail: string }[];

const templateIdOf = (t: JsonObject): TemplateId => {
  const meta = t.metadata;
  const name = meta && typeof meta === 'object' && !Array.isArray(meta) ? meta.name : undefined;
  return { apiVersion: jsonText(t.apiVersion ?? ''), kind: jsonText(t.kind ?? ''), name: jsonText(name ?? '') };
};

/** The recorder of one rendered Cluster; after the render it answers where each value came from. */
export class OriginRecorder implements Recorder {
  private readonly trees = new Map<JsonObject, OriginNode>();
  private readonly templates = new Map<JsonObject, OriginNode>();
  private readonly patches = new Map<JsonObject, PatchEvaluation[]>();
  private readonly clusterNotes = new Map<string, string>();

  constructor(private readonly templateDefaults?: TemplateDefaults) {}

  private tree(obj: JsonObject): OriginNode {
    let t = this.trees.get(obj);
    if (!t) this.trees.set(obj, (t = {}));
    return t;
  }

  /** A template as written, with the fields its CRD and its defaulting webhook defaulted. */
  private templateTree(template: JsonObject): OriginNode {
    let t = this.templates.get(template);
    if (t) return t;
    t = { source: { kind: 'template', template: templateIdOf(template), path: '' } };
    for (const d of this.templateDefaults?.(template) ?? [])
      setNode(t, d.path, { source: { kind: 'default', detail: d.detail } });
    this.templates.set(template, t);
    return t;
  }

  set(obj: JsonObject, path: Path, source: Source): void {
    setNode(this.tree(obj), path, { source: this.withClusterNote(source) });
  }

  /** A Cluster field the webhook defaulted says so. */
  private withClusterNote(s: Source): Source {
    if (s.kind !== 'topology' || s.note !== undefined) return s;
    const note = this.clusterNotes.get(s.path);
    return note ? { ...s, note } : s;
  }

  fromTemplate(template: JsonObject, templatePath: Path, obj: JsonObject, objPath: Path): void {
    setNode(this.tree(obj), objPath, extractNode(this.templateTree(template), templatePath));
  }

  copy(from: JsonObject, fromPath: Path, to: JsonObject, toPath: Path): void {
    setNode(this.tree(to), toPath, extractNode(this.tree(from), fromPath));
  }

  insert(obj: JsonObject, listPath: Path, index: number, length: number, source: Source): void {
    insertNode(this.tree(obj), listPath, index, length, { source });
  }

  remove(obj: JsonObject, path: Path, length?: number): void {
    removeNode(this.tree(obj), path, length);
  }

  moved(prev: JsonObject, next: JsonObject): void {
    if (prev === next) return;
    this.trees.set(next, this.tree(prev));
    const p = this.patches.get(prev);
    if (p) this.patches.set(next, p);
  }

  considered(obj: JsonObject, evaluation: PatchEvaluation): void {
    const list = this.patches.get(obj);
    if (list) list.push(evaluation);
    else this.patches.set(obj, [evaluation]);
  }

  writtenBack(template: JsonObject, obj: JsonObject): void {
    const p = this.patches.get(template);
    if (p) this.patches.set(obj, p);
  }

  clusterDefault(path: string, note: string): void {
    this.clusterNotes.set(path, note);
  }

  /** Where the value at `path` of `obj` came from (undefined: no stage said). */
  sourceOf(obj: JsonObject, path: Path): Source | undefined {
    const t = this.trees.get(obj);
    return t && sourceAt(t, path);
  }

  /** The ClusterClass patches whose selectors matched the template behind `obj`. */
  patchesOf(obj: JsonObject): PatchEvaluation[] | undefined {
    return this.patches.get(obj);
  }
}
