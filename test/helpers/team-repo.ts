/**
 * A platform team's repository (issue 28): the bench fleet's Clusters spread over several team
 * namespaces and two ClusterClasses (`fleet` and `fleet-large`, each namespace holding both with
 * their templates), one file per Cluster. Every Cluster derives from its index (bench/fleet.mjs),
 * so a repository is the same on every run.
 */
import YAML from 'yaml';
import { classObjects, clusterName, clusterObject } from '../../bench/fleet.mjs';
import type { Obj } from './scenario.js';

const TEAMS = ['team-a', 'team-b', 'team-c', 'team-d'] as const;

/** Cluster `i`: its namespace, class and file. */
export function teamCluster(i: number): { namespace: string; name: string; path: string; object: Obj } {
  const namespace = TEAMS[i % TEAMS.length]!;
  const object: Obj = clusterObject(i);
  object.metadata.namespace = namespace;
  if (i % 2 === 1) object.spec.topology.classRef.name = 'fleet-large';
  const name = clusterName(i);
  return { namespace, name, path: `clusters/${namespace}/${name}.yaml`, object };
}

/** Relative path → text: `classes/<team>.yaml` and `clusters/<team>/<name>.yaml` for `count` Clusters. */
export function teamRepoFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (const namespace of TEAMS) {
    const docs: Obj[] = classObjects().map((o: Obj) => ({ ...o, metadata: { ...o.metadata, namespace } }));
    const large = structuredClone(docs[0]!);
    large.metadata.name = 'fleet-large';
    files[`classes/${namespace}.yaml`] = [...docs, large].map((d) => YAML.stringify(d)).join('---\n');
  }
  for (let i = 0; i < count; i++) {
    const c = teamCluster(i);
    files[c.path] = YAML.stringify(c.object);
  }
  return files;
}

/** A YAML syntax error appended to a file's text (an unclosed flow sequence). */
export const broken = (text: string): string => `${text}  broken: [unclosed\n`;
