/** Label and annotation keys: CAPI's (api/core/v1beta2/common_types.go), kpt's and this function's own. */
export const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';
export const TOPOLOGY_OWNED_LABEL = 'topology.cluster.x-k8s.io/owned';
export const DEPLOYMENT_NAME_LABEL = 'topology.cluster.x-k8s.io/deployment-name';
export const POOL_NAME_LABEL = 'topology.cluster.x-k8s.io/pool-name';
export const CONTROL_PLANE_LABEL = 'cluster.x-k8s.io/control-plane';
export const CLONED_FROM_NAME = 'cluster.x-k8s.io/cloned-from-name';
export const CLONED_FROM_GROUPKIND = 'cluster.x-k8s.io/cloned-from-groupkind';
export const DEFER_UPGRADE = 'topology.cluster.x-k8s.io/defer-upgrade';
/** Where the topology controller tracks an upgrade step on the Cluster (api/core/v1beta2 `ClusterTopologyUpgradeStepAnnotation`). */
export const UPGRADE_STEP_ANNOTATION = 'topology.internal.cluster.x-k8s.io/upgrade-step';
export const HOLD_UPGRADE_SEQUENCE = 'topology.cluster.x-k8s.io/hold-upgrade-sequence';
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
export const CONVERSION_DATA = 'cluster.x-k8s.io/conversion-data';
/** CAPI internal/topology/upgrade: how many workers may upgrade at once. */
export const UPGRADE_CONCURRENCY = 'topology.cluster.x-k8s.io/upgrade-concurrency';

/** util.MergeMap: earlier maps win; undefined when the result is empty. */
export function mergeMaps(...maps: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  const out = Object.assign({}, ...maps.toReversed()) as Record<string, string>;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `cluster.x-k8s.io/v1beta2` → `cluster.x-k8s.io`; a core-group `v1` → ``. */
export const groupOf = (apiVersion: string): string => {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
};

/** `<Kind>.<group>`, or just the Kind for the core group. */
export const groupKind = (apiVersion: string, kind: string): string => {
  const group = groupOf(apiVersion);
  return group ? `${kind}.${group}` : kind;
};

/** Object kind for a template kind: one trailing `Template` removed. */
export const objectKindOf = (templateKind: string): string =>
  templateKind.endsWith('Template') ? templateKind.slice(0, -'Template'.length) : templateKind;

export const PATH_ANNOTATION = 'internal.config.kubernetes.io/path';
export const INDEX_ANNOTATION = 'internal.config.kubernetes.io/index';
export const LEGACY_PATH_ANNOTATION = 'config.kubernetes.io/path';
export const LEGACY_INDEX_ANNOTATION = 'config.kubernetes.io/index';
export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';
/** Marks objects this function generated, with the `<namespace>/<name>` of their Cluster. */
export const OWNER_ANNOTATION = 'render-clusterclass.dev/cluster';
/** Digest of a generated object as it was written (see `objectDigest` in pipeline/run.ts). */
export const DIGEST_ANNOTATION = 'render-clusterclass.dev/digest';
/**
 * What a Cluster's objects were rendered from, and how many there are (`<digest>/<count>`), on
 * objects of a render a re-render may reuse as they are (pipeline/reuse.ts).
 */
export const INPUTS_ANNOTATION = 'render-clusterclass.dev/inputs';
/** Marks inputs as they were before this change (`"true"`): used only for the webhooks' update rules. */
export const PREVIOUS_ANNOTATION = 'render-clusterclass.dev/previous';
/** Marks objects exported from the live management cluster (`kubectl get -o yaml`): the observed state for upgrade sequencing. */
export const OBSERVED_ANNOTATION = 'render-clusterclass.dev/observed';
export const UNSAFE_VERSION_CHECK_ANNOTATION = 'unsafe.topology.cluster.x-k8s.io/disable-update-version-check';
export const AUTOSCALER_MIN_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
export const AUTOSCALER_MAX_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
