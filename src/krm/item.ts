/** An item of the input: a ResourceList item, or a document of a YAML stream. */
import type { Document, Node } from 'yaml';
import type { JsonObject, ObjectRef, SourceLocation } from '../core/model.js';

export interface InputItem {
  /** The item's YAML node inside its document (kept for untouched pass-through output). */
  node: Node;
  doc: Document;
  /** The item as JSON; `{}` for an item that is not an object or could not be read (reported, passed through). */
  value: JsonObject;
  /** Identity; undefined when apiVersion/kind/metadata.name are missing (reported, passed through). */
  ref?: ObjectRef;
  file?: SourceLocation;
  /** Why the item is not a Kubernetes object (a kustomization, Helm values): skipped, returned as it came. */
  skipped?: string;
}
