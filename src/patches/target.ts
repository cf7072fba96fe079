/** How the patch engine names what it works on in its messages. */
import { isObject } from '../core/json.js';
import type { JsonObject, ObjectRef } from '../core/model.js';
import { goQuote } from '../gotemplate/fmt.js';
import type { PatchRequestItem } from './types.js';

/** `namespace/name` of the Cluster. */
export const clusterKeyOf = (ref: ObjectRef): string => (ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name);

/** `DevClusterTemplate "quick-start-cluster"`, plus the MD/MP topology name when known. */
export function describeTarget(item: PatchRequestItem, template: JsonObject): string {
  const kind = typeof template['kind'] === 'string' ? template['kind'] : '<unknown kind>';
  const md = template['metadata'];
  const name = isObject(md) && typeof md['name'] === 'string' ? md['name'] : '';
  const topo = item.topologyName !== undefined ? ` (${item.holder.kind} topology ${goQuote(item.topologyName)})` : '';
  return `${kind} ${goQuote(name)}${topo}`;
}
