/** How the patch engine names what it works on in its messages. */
import { isObject } from '../core/json.js';
import type { JsonObject, ObjectRef } from '../core/model.js';
import { goQuote } from '../gotemplate/fmt.js';
import type { PatchRequest, PatchRequestItem } from './types.js';

/** `namespace/name` of the Cluster. */
export const clusterKeyOf = (ref: ObjectRef): string => (ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name);

/**
 * Request item `n` with its template as the patches so far left it: the engine keeps one
 * template per request item, in the request's order (`applyPatches`).
 */
export function itemAt(
  request: PatchRequest,
  templates: readonly JsonObject[],
  n: number,
): { item: PatchRequestItem; template: JsonObject } {
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- n indexes both lists, which have one entry per item
  return { item: request.items[n]!, template: templates[n]! };
}

/** `DevClusterTemplate "quick-start-cluster"`, plus the MD/MP topology name when known. */
export function describeTarget(item: PatchRequestItem, template: JsonObject): string {
  const kind = typeof template['kind'] === 'string' ? template['kind'] : '<unknown kind>';
  const md = template['metadata'];
  const name = isObject(md) && typeof md['name'] === 'string' ? md['name'] : '';
  const topo = item.topologyName !== undefined ? ` (${item.holder.kind} topology ${goQuote(item.topologyName)})` : '';
  return `${kind} ${goQuote(name)}${topo}`;
}
