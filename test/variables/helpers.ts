/**
 * Test helpers: builds the variable-related fields of the ClusterClass/Cluster models from raw
 * YAML documents (the api normaliser lives elsewhere), and small model factories.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type {
  Cluster,
  ClusterClass,
  ClusterClassVariable,
  ClusterVariable,
  Json,
  JsonObject,
  ObjectRef,
} from '../../src/core/model.js';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE_DIR = resolve(here, '../../../shared/fixtures/real-world');
export const fixturesAvailable = existsSync(FIXTURE_DIR);

export function fixtureFiles(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}

export function loadDocs(file: string): JsonObject[] {
  const text = readFileSync(join(FIXTURE_DIR, file), 'utf8');
  // YAML 1.1 like Kubernetes, but timestamps stay strings (no timestamp tag).
  const docs = YAML.parseAllDocuments(text, {
    version: '1.1',
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'),
  });
  return docs.map((d) => d.toJS() as JsonObject).filter((d) => d !== null && typeof d === 'object');
}

const obj = (v: unknown): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

export function classFromDoc(doc: JsonObject): ClusterClass {
  const meta = obj(doc.metadata);
  const spec = obj(doc.spec);
  const variables: ClusterClassVariable[] = list(spec.variables).map((raw, i) => {
    const v = obj(raw);
    const out: ClusterClassVariable = {
      name: String(v.name ?? ''),
      required: v.required === true,
      schema: obj(v.schema) as ClusterClassVariable['schema'],
      fieldPath: `spec.variables[${i}]`,
    };
    const md = v.deprecatedV1Beta1Metadata ?? v.metadata;
    if (md) out.deprecatedV1Beta1Metadata = md as ClusterClassVariable['deprecatedV1Beta1Metadata'];
    return out;
  });
  return {
    name: String(meta.name),
    namespace: String(meta.namespace ?? 'default'),
    sourceApiVersion: String(doc.apiVersion),
    metadata: {},
    controlPlane: {} as ClusterClass['controlPlane'],
    workers: { machineDeployments: [], machinePools: [] },
    variables,
    patches: [],
  };
}

const vars = (v: unknown): ClusterVariable[] =>
  list(v).map((e) => ({ name: String(obj(e).name), value: obj(e).value as Json }));

export function clusterFromDoc(doc: JsonObject): Cluster & { className: string } {
  const meta = obj(doc.metadata);
  const topo = obj(obj(doc.spec).topology);
  const workers = obj(topo.workers);
  const overrides = (x: unknown) => ({ overrides: vars(obj(obj(x).variables).overrides) });
  return {
    className: String(obj(topo.classRef).name ?? topo.class),
    name: String(meta.name),
    namespace: String(meta.namespace ?? 'default'),
    sourceApiVersion: String(doc.apiVersion),
    metadata: {},
    topology: {
      classRef: { name: String(obj(topo.classRef).name ?? topo.class) },
      version: String(topo.version),
      controlPlane: { variables: overrides(topo.controlPlane) },
      workers: {
        machineDeployments: list(workers.machineDeployments).map((m) => ({
          class: String(obj(m).class),
          name: String(obj(m).name),
          variables: overrides(m),
        })),
        machinePools: list(workers.machinePools).map((m) => ({
          class: String(obj(m).class),
          name: String(obj(m).name),
          variables: overrides(m),
        })),
      },
      variables: vars(topo.variables),
    },
  };
}

export const classRef = (name = 'cc'): ObjectRef => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'ClusterClass',
  name,
  namespace: 'default',
});
export const clusterRef = (name = 'c1'): ObjectRef => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  name,
  namespace: 'default',
});

export function makeClass(
  variables: { name: string; required?: boolean; schema: JsonObject; deprecatedV1Beta1Metadata?: JsonObject }[],
): ClusterClass {
  return {
    name: 'cc',
    namespace: 'default',
    sourceApiVersion: 'cluster.x-k8s.io/v1beta2',
    metadata: {},
    controlPlane: {} as ClusterClass['controlPlane'],
    workers: { machineDeployments: [], machinePools: [] },
    variables: variables.map((v, i) => ({
      name: v.name,
      required: v.required ?? false,
      schema: { openAPIV3Schema: v.schema },
      fieldPath: `spec.variables[${i}]`,
      ...(v.deprecatedV1Beta1Metadata ? { deprecatedV1Beta1Metadata: v.deprecatedV1Beta1Metadata as never } : {}),
    })),
    patches: [],
  };
}

export function makeCluster(
  variables: ClusterVariable[],
  extra: {
    cp?: ClusterVariable[];
    md?: Record<string, ClusterVariable[]>;
    mp?: Record<string, ClusterVariable[]>;
  } = {},
): Cluster {
  return {
    name: 'c1',
    namespace: 'default',
    sourceApiVersion: 'cluster.x-k8s.io/v1beta2',
    metadata: {},
    topology: {
      classRef: { name: 'cc' },
      version: 'v1.34.0',
      controlPlane: extra.cp ? { variables: { overrides: extra.cp } } : {},
      workers: {
        machineDeployments: Object.entries(extra.md ?? {}).map(([name, o]) => ({
          class: 'default-worker',
          name,
          variables: { overrides: o },
        })),
        machinePools: Object.entries(extra.mp ?? {}).map(([name, o]) => ({
          class: 'default-worker',
          name,
          variables: { overrides: o },
        })),
      },
      variables,
    },
  };
}
