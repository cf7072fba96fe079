/** The API version of generated CAPI objects for a Cluster: its own (v1beta1 or v1beta2), unless the config forces one. */
import type { Cluster } from '../core/model.js';
import type { RenderConfig } from '../krm/config.js';
import { CoreVersion } from '../topology/types.js';

export function coreVersionFor(cluster: Cluster, config: RenderConfig): CoreVersion {
  if (config.outputApiVersion !== 'auto') return config.outputApiVersion;
  return cluster.sourceApiVersion.endsWith('/v1beta1') ? 'v1beta1' : 'v1beta2';
}
