/**
 * Where a Cluster's files go below the output directory: its rendered objects at
 * `<namespace>/<name>.yaml`, its provenance report at `<namespace>/<name>_provenance.yaml`.
 * `_` is in no Cluster name (RFC 1123), so no Cluster's file can be another's report.
 */

/** The file of a Cluster's rendered objects, `<namespace>/<name>.yaml`. */
export const renderedFile = (namespace: string, name: string): string => `${namespace}/${name}.yaml`;

/** The file of a Cluster's provenance report, `<namespace>/<name>_provenance.yaml`. */
export const provenanceFile = (namespace: string, name: string): string => `${namespace}/${name}_provenance.yaml`;

/** Whether `path` is one of the files this layout gives the Cluster `<namespace>/<name>`. */
export function isClusterFile(path: string, cluster: string): boolean {
  const slash = cluster.indexOf('/');
  if (slash < 0) return false;
  const [namespace, name] = [cluster.slice(0, slash), cluster.slice(slash + 1)];
  return path === renderedFile(namespace, name) || path === provenanceFile(namespace, name);
}
