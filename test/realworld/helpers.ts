/**
 * Shared plumbing for the real-world fixture tests (`../shared/fixtures/real-world/`): render a
 * fixture file through the whole pipeline, group the generated objects per Cluster and by role,
 * and read the Cluster variables after defaulting. Fixtures are read in place, never copied; a
 * missing fixture folder makes the suites skip visibly.
 *
 * Every expectation in the *.test.ts files next to this one was derived by hand from
 * `../shared/spec/topology-semantics.md` and the fixture YAML, not from the renderer's output.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ClusterVariable, JsonObject } from '../../src/core/model.js';
import { normalizeCluster, normalizeClusterClass } from '../../src/api/normalize.js';
import { buildBlueprint } from '../../src/blueprint/blueprint.js';
import { contractLookup } from '../../src/blueprint/contract.js';
import { DEFAULT_CONFIG, capiProfileOf, applySettings } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import type { Result } from '../../src/core/result.js';
import { classify } from '../../src/pipeline/classify.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { defaultAndValidateClusterVariables } from '../../src/variables/index.js';
import { newSchemaCompiler } from '../../src/variables/openapi.js';
import { fixtureCrdsMissing, loadFixtureCrds } from '../helpers/fixture-crds.js';
import type { InputItem } from '../../src/krm/item.js';

export const FIXTURE_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'real-world');

/** True (and a visible warning) when the fixture file is not there: use with describe.skipIf. */
export function fixtureMissing(file: string): boolean {
  const missing = !existsSync(join(FIXTURE_DIR, file));
  if (missing)
    console.warn(`SKIPPED: real-world fixture ${join(FIXTURE_DIR, file)} is not available; its tests did not run`);
  return missing;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Obj = any;

export const RANDOM5 = '[bcdfghjklmnpqrstvwxz2456789]{5}';
/** `^<prefix><5 chars of the controller's random alphabet>$` (§3.1). */
export const nameRe = (prefix: string): RegExp =>
  new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${RANDOM5}$`);

export const CLUSTER_NAME = 'cluster.x-k8s.io/cluster-name';
export const OWNED = 'topology.cluster.x-k8s.io/owned';
export const MD_NAME = 'topology.cluster.x-k8s.io/deployment-name';
export const MP_NAME = 'topology.cluster.x-k8s.io/pool-name';
export const CLONED_NAME = 'cluster.x-k8s.io/cloned-from-name';
export const CLONED_GK = 'cluster.x-k8s.io/cloned-from-groupkind';

/** Annotations the tool itself adds to generated objects (file path/index, owner, local-config). */
const isToolAnnotation = (k: string) =>
  k.includes('config.kubernetes.io/') ||
  k.startsWith('render-clusterclass.dev/') ||
  k === 'config.k8s.io/owning-inventory';

function stripTool(o: Obj): Obj {
  const a = o?.metadata?.annotations;
  if (a) {
    for (const k of Object.keys(a)) if (isToolAnnotation(k)) delete a[k];
    if (Object.keys(a).length === 0) delete o.metadata.annotations;
  }
  return o;
}

/** The objects rendered for one Cluster, by role (§2.1 order; the classic Cluster first in expand mode). */
export interface ClusterObjects {
  all: Obj[];
  cluster?: Obj;
  infraCluster: Obj;
  cpMachineTemplate?: Obj;
  controlPlane: Obj;
  cpHealthCheck?: Obj;
  md: Record<string, { bootstrap: Obj; infra: Obj; md: Obj; mhc?: Obj }>;
  mp: Record<string, { bootstrap: Obj; infra: Obj; mp: Obj }>;
  mhcs: Obj[];
}

export interface FixtureRender {
  results: Result[];
  errors: Result[];
  clusters: Map<string, ClusterObjects>;
  /** `default/<name>` → cluster-level variables after defaulting (what the mutating webhook writes back). */
  variables: Map<string, ClusterVariable[]>;
}

export interface RenderOptions {
  settings?: Record<string, unknown>;
  /** Edits the parsed input documents in memory (never the fixture file) before rendering. */
  mutate?: (docs: Obj[]) => void;
  /** CustomResourceDefinitions given on the side, as `render --crds DIR` does. */
  crds?: readonly JsonObject[];
}

export function readFixtureItems(file: string, mutate?: (docs: Obj[]) => void): InputItem[] {
  const read = readYamlStream(readFileSync(join(FIXTURE_DIR, file), 'utf8'), file);
  if (!read.ok) throw new Error(`cannot read ${file}: ${read.message}`);
  if (mutate) {
    mutate(read.items.map((i) => i.value));
    // Identity is computed at read time: refresh it in case a mutation renamed or re-kinded a document.
    for (const item of read.items) {
      const v = item.value as Obj;
      if (
        !item.ref ||
        typeof v.apiVersion !== 'string' ||
        typeof v.kind !== 'string' ||
        typeof v.metadata?.name !== 'string'
      )
        continue;
      item.ref = { ...item.ref, apiVersion: v.apiVersion, kind: v.kind, name: v.metadata.name };
    }
  }
  return read.items;
}

function group(objects: Obj[]): ClusterObjects {
  const all = objects.map(stripTool);
  const isKind = (o: Obj, kind: string) => o.kind === kind && String(o.apiVersion).startsWith('cluster.x-k8s.io/');
  const cluster = all.find((o) => isKind(o, 'Cluster'));
  const rest = all.filter((o) => o !== cluster);
  const mhcs = rest.filter((o) => isKind(o, 'MachineHealthCheck'));
  const mds = rest.filter((o) => isKind(o, 'MachineDeployment'));
  const mps = rest.filter((o) => isKind(o, 'MachinePool'));
  const labelled = (key: string, value: string) =>
    rest.filter(
      (o) =>
        o.metadata?.labels?.[key] === value &&
        !isKind(o, 'MachineDeployment') &&
        !isKind(o, 'MachinePool') &&
        !isKind(o, 'MachineHealthCheck'),
    );
  const md: ClusterObjects['md'] = {};
  for (const d of mds) {
    const name = d.metadata.labels[MD_NAME];
    const [bootstrap, infra] = labelled(MD_NAME, name);
    md[name] = { bootstrap, infra, md: d, mhc: mhcs.find((m) => m.metadata.name === d.metadata.name) };
  }
  const mp: ClusterObjects['mp'] = {};
  for (const p of mps) {
    const name = p.metadata.labels[MP_NAME];
    const [bootstrap, infra] = labelled(MP_NAME, name);
    mp[name] = { bootstrap, infra, mp: p };
  }
  // §2.1 order: InfraCluster, [CP machine template], ControlPlane, [CP MHC], workers.
  const head = rest.filter(
    (o) =>
      !o.metadata?.labels?.[MD_NAME] &&
      !o.metadata?.labels?.[MP_NAME] &&
      !isKind(o, 'MachineHealthCheck') &&
      !isKind(o, 'MachineDeployment') &&
      !isKind(o, 'MachinePool'),
  );
  const infraCluster = head[0];
  const controlPlane = head[head.length - 1];
  const cpMachineTemplate = head.length === 3 ? head[1] : undefined;
  const cpHealthCheck = mhcs.find((m) => m.metadata.name === controlPlane?.metadata?.name);
  return { all, cluster, infraCluster, cpMachineTemplate, controlPlane, cpHealthCheck, md, mp, mhcs };
}

/**
 * qs-custom's taint with the `propagation` CAPI's CRD requires (v1.13+; upstream's quick-start
 * lacks it, so the API server refuses qs-custom): the quick-start as CAPI admits all three Clusters.
 */
export function withTaintPropagation(docs: Obj[]): void {
  const md = docs.find((d) => d.kind === 'Cluster' && d.metadata?.name === 'qs-custom').spec.topology.workers
    .machineDeployments[1];
  if (md.name !== 'md-large') throw new Error(`qs-custom's second MachineDeployment is ${md.name}, not md-large`);
  md.taints[0].propagation = 'Always';
}

/**
 * Feature gates a fixture needs: the quick-start's `qs-custom` sets topology taints (the fixture
 * says they need MachineTaintPropagation); the Runtime SDK quick-start is CAPI's class for a
 * management cluster running RuntimeSDK=true (its external patches are refused otherwise).
 */
export const FIXTURE_GATES: Record<string, Record<string, boolean>> = {
  'capi-docker-quick-start.yaml': { MachineTaintPropagation: true },
  'capi-docker-quick-start-runtimesdk.yaml': { RuntimeSDK: true },
};

/** Renders every Cluster of a fixture file (pipeline entry point) and computes the defaulted variables. */
export function renderFixture(file: string, options: RenderOptions = {}): FixtureRender {
  const cfg = applySettings(
    DEFAULT_CONFIG,
    { ...(FIXTURE_GATES[file] ? { featureGates: FIXTURE_GATES[file] } : {}), ...options.settings },
    false,
  );
  if (!cfg.ok) throw new Error(cfg.message);
  const items = readFixtureItems(file, options.mutate);
  const out = runPipeline(items, cfg.config, [], options.crds ? { crds: options.crds } : {});
  const clusters = new Map<string, ClusterObjects>();
  for (const g of out.generated) clusters.set(g.cluster, group(JSON.parse(JSON.stringify(g.objects))));
  return {
    results: out.results,
    errors: out.results.filter((r) => r.severity === 'error'),
    clusters,
    variables: defaultedVariables(items),
  };
}

/** Cluster-level variable lists after defaulting, computed with the same code the pipeline uses. */
function defaultedVariables(items: InputItem[]): Map<string, ClusterVariable[]> {
  const ns = 'default';
  const { classes, clusters, templates } = classify(items, ns);
  const out = new Map<string, ClusterVariable[]>();
  const schemas = newSchemaCompiler();
  for (const item of clusters) {
    const ref = { ...item.ref!, namespace: item.ref!.namespace ?? ns };
    const cluster = normalizeCluster(item.value, ref).value;
    if (!cluster) continue;
    const classItem = classes.find((c) => c.ref!.name === cluster.topology.classRef.name);
    if (!classItem) continue;
    const classRef = { ...classItem.ref!, namespace: classItem.ref!.namespace ?? ns };
    const cc = normalizeClusterClass(classItem.value, classRef).value;
    if (!cc) continue;
    const bp = buildBlueprint(cc, classRef, templates, {
      capi: capiProfileOf(DEFAULT_CONFIG),
      skipExternalPatches: true,
      contractOf: contractLookup({}),
      schemas,
    }).blueprint;
    if (!bp) continue;
    out.set(
      `${ref.namespace}/${ref.name}`,
      defaultAndValidateClusterVariables(bp.variables, cluster, ref).variables.cluster,
    );
  }
  return out;
}

export function clusterOf(r: FixtureRender, name: string): ClusterObjects {
  const c = r.clusters.get(`default/${name}`);
  if (!c)
    throw new Error(
      `Cluster default/${name} was not rendered; results:\n${r.results.map((x) => `${x.severity}: ${x.message}`).join('\n')}`,
    );
  return c;
}

/** Error results about one Cluster (the message or tags name it; resourceRef may be the class). */
export function errorsFor(r: FixtureRender, clusterName: string): Result[] {
  return r.errors.filter(
    (e) =>
      (e.resourceRef?.kind === 'Cluster' && e.resourceRef.name === clusterName) ||
      e.tags?.cluster === `default/${clusterName}` ||
      e.message.includes(`default/${clusterName}:`) ||
      e.message.includes(`Cluster default/${clusterName} `),
  );
}

/** The fixed labels every topology-owned object carries (§3.5). */
export const fixedLabels = (cluster: string) => ({ [CLUSTER_NAME]: cluster, [OWNED]: '' });

export function expectNoErrors(r: FixtureRender): void {
  expect(r.errors.map((e) => e.message)).toEqual([]);
}

let crdCache: JsonObject[] | undefined;

/**
 * Renders of one fixture without and with the fixture CRDs (each made once, on first use), for
 * assertions that must hold both ways; the CRD variant is absent when ../shared/fixtures/crds is.
 */
export function rendersOf(file: string, settings: Record<string, unknown> = {}): [string, () => FixtureRender][] {
  let plain: FixtureRender | undefined;
  let withCrds: FixtureRender | undefined;
  const variants: [string, () => FixtureRender][] = [
    ['without CRDs', () => (plain ??= renderFixture(file, { settings }))],
  ];
  if (!fixtureCrdsMissing())
    variants.push([
      'with CRDs',
      () => (withCrds ??= renderFixture(file, { settings, crds: (crdCache ??= loadFixtureCrds()) })),
    ]);
  return variants;
}
