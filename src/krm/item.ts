/** An item of the input: a ResourceList item, or a document of a YAML stream. */
import type { Document, Node } from 'yaml';
import type { JsonObject, ObjectRef, SourceLocation } from '../core/model.js';

/**
 * A ResourceList item's YAML as it came, kept to write an untouched item back into `doc`, the
 * ResourceList it came in: its list entry (`- …`, a slice of the input text; krm/read.ts reads
 * entry by entry whatever it can split, and `doc` is then the ResourceList without its items), or
 * its node in `doc` read whole.
 */
export type ItemYaml = { doc: Document } & ({ entry: string } | { node: Node });

export interface InputItem {
  /** Undefined for documents of files: they are written from `value` (cli/locate.ts re-reads their file for positions). */
  yaml?: ItemYaml;
  /** The item as JSON; `{}` for an item that is not an object or could not be read (reported, passed through). */
  value: JsonObject;
  /** Identity; undefined when apiVersion/kind/metadata.name are missing (reported, passed through). */
  ref?: ObjectRef;
  file?: SourceLocation;
  /** Why the item is not a Kubernetes object (a kustomization, Helm values): skipped, returned as it came. */
  skipped?: string;
}
