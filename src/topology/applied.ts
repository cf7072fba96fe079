/**
 * What the topology controller applies of a desired object: CAPI's `reconcileInfrastructureCluster`
 * and `reconcileControlPlane` (core/reconcilers/topology/cluster/reconcile_state.go) leave the
 * paths their contract's `IgnorePaths` lists (internal/contract/infrastructure_cluster.go,
 * controlplane.go) out of the server-side apply: `spec.controlPlaneEndpoint.host` when "" and
 * `spec.controlPlaneEndpoint.port` when 0. A provider type writes these zero values when its
 * `host`/`port` have no omitempty (a template stored through CAPA's defaulting webhook has both);
 * applied, they would overwrite the endpoint the provider sets. `FilterIntent`
 * (internal/util/ssa/filterintent.go) then drops the maps emptied on the way.
 */
import type { JsonObject } from '../core/model.js';
import { asObject } from '../core/json.js';
import type { Recorder } from '../provenance/recorder.js';

const ZERO_ENDPOINT = { host: '', port: 0 } as const;

/** Removes the ignored zero-valued endpoint fields from `obj` in place. */
export function dropIgnoredPaths(obj: JsonObject | undefined, rec?: Recorder): void {
  const spec = asObject(obj?.spec);
  const endpoint = asObject(spec?.controlPlaneEndpoint);
  if (!obj || !spec || !endpoint) return;
  let dropped = false;
  for (const [field, zero] of Object.entries(ZERO_ENDPOINT)) {
    if (endpoint[field] !== zero) continue;
    delete endpoint[field];
    rec?.remove(obj, ['spec', 'controlPlaneEndpoint', field]);
    dropped = true;
  }
  if (!dropped || Object.keys(endpoint).length > 0) return;
  delete spec.controlPlaneEndpoint;
  rec?.remove(obj, ['spec', 'controlPlaneEndpoint']);
  if (Object.keys(spec).length > 0) return;
  delete obj.spec;
  rec?.remove(obj, ['spec']);
}
