/**
 * Small end-to-end scenarios for rule tests: the fleet ClusterClass of test/golden/plan (two
 * worker classes, a variable with a default, two patches) plus Clusters built in the test, run
 * through the whole pipeline, as the KRM function and the CLI run it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { DEFAULT_CONFIG, applySettings } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import type { Result } from '../../src/core/result.js';
import { runPipeline, type PipelineExtras, type PipelineOutput } from '../../src/pipeline/run.js';
import type { InputItem } from '../../src/krm/item.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Obj = any;

const FLEET_TEXT = readFileSync(join(import.meta.dirname, '..', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');

/** The fleet class and its templates (namespace `fleet`), as fresh documents. */
export const fleetDocs = (): Obj[] => YAML.parseAllDocuments(FLEET_TEXT).map((d) => d.toJS());

/** A v1beta2 topology Cluster of class `fleet` with one MachineDeployment `md-0` of class `general`. */
export function fleetCluster(name: string, edit: (topology: Obj, cluster: Obj) => void = () => {}): Obj {
  const cluster: Obj = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name, namespace: 'fleet' },
    spec: {
      topology: {
        classRef: { name: 'fleet' },
        version: 'v1.33.0',
        workers: { machineDeployments: [{ class: 'general', name: 'md-0' }] },
      },
    },
  };
  edit(cluster.spec.topology, cluster);
  return cluster;
}

/** The KubeadmControlPlane of Cluster c1 (namespace `fleet`) as `kubectl get -o yaml` exports it. */
export function observedControlPlane(spec: string, status?: string): JsonObject {
  return {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: {
      name: 'c1-abcde',
      namespace: 'fleet',
      labels: { 'cluster.x-k8s.io/cluster-name': 'c1', 'topology.cluster.x-k8s.io/owned': '' },
    },
    spec: { version: spec },
    ...(status ? { status: { version: status } } : {}),
  } as JsonObject;
}

/** Input items from documents; `files` names the file of each document (default `in.yaml`). */
export function itemsOf(docs: readonly JsonObject[], files?: readonly string[]): InputItem[] {
  return docs.flatMap((d, i) => {
    const read = readYamlStream(YAML.stringify(d), files?.[i] ?? 'in.yaml');
    if (!read.ok) throw new Error(read.message);
    return read.items;
  });
}

export interface Scenario extends PipelineOutput {
  errors: Result[];
  /** Rendered Cluster keys (`namespace/name`). */
  rendered: string[];
}

export function runScenario(
  docs: readonly JsonObject[],
  settings: Record<string, unknown> = {},
  extras: PipelineExtras = {},
  files?: readonly string[],
): Scenario {
  const cfg = applySettings(DEFAULT_CONFIG, { mode: 'preview', ...settings }, false);
  if (!cfg.ok) throw new Error(cfg.message);
  const out = runPipeline(itemsOf(docs, files), cfg.config, [], extras);
  return {
    ...out,
    errors: out.results.filter((r) => r.severity === 'error'),
    rendered: out.generated.map((g) => g.cluster),
  };
}

/** The fields a rule test asserts: severity, resourceRef, field path, message (and the file when set). */
export const brief = (r: Result) => ({
  severity: r.severity,
  ref: r.resourceRef && `${r.resourceRef.kind} ${r.resourceRef.namespace ?? ''}/${r.resourceRef.name}`,
  path: r.field?.path,
  message: r.message,
});
