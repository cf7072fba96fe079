/** Label and annotation keys of the topology controller (topology-semantics §3.5). */
export const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';
export const TOPOLOGY_OWNED_LABEL = 'topology.cluster.x-k8s.io/owned';
export const DEPLOYMENT_NAME_LABEL = 'topology.cluster.x-k8s.io/deployment-name';
export const POOL_NAME_LABEL = 'topology.cluster.x-k8s.io/pool-name';
export const CONTROL_PLANE_LABEL = 'cluster.x-k8s.io/control-plane';
export const CLONED_FROM_NAME = 'cluster.x-k8s.io/cloned-from-name';
export const CLONED_FROM_GROUPKIND = 'cluster.x-k8s.io/cloned-from-groupkind';
export const DEFER_UPGRADE = 'topology.cluster.x-k8s.io/defer-upgrade';
export const HOLD_UPGRADE_SEQUENCE = 'topology.cluster.x-k8s.io/hold-upgrade-sequence';
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
export const CONVERSION_DATA = 'cluster.x-k8s.io/conversion-data';

/** util.MergeMap: earlier maps win; undefined when the result is empty. */
export function mergeMaps(...maps: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  const out: Record<string, string> = Object.assign({}, ...maps.toReversed());
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `cluster.x-k8s.io/v1beta2` → `cluster.x-k8s.io`; a core-group `v1` → ``. */
export const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');

/** `<Kind>.<group>`, or just the Kind for the core group. */
export const groupKind = (apiVersion: string, kind: string): string => {
  const group = groupOf(apiVersion);
  return group ? `${kind}.${group}` : kind;
};

/** Object kind for a template kind: one trailing `Template` removed. */
export const objectKindOf = (templateKind: string): string =>
  templateKind.endsWith('Template') ? templateKind.slice(0, -'Template'.length) : templateKind;
