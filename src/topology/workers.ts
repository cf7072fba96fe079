/**
 * Workers (CAPI exp/topology/desiredstate/desired_state.go `computeMachineDeployment`): MachineDeployments with their template clones and health
 * checks, MachinePools with their objects (CAPI `computeMachineDeployment`, `computeMachinePool`).
 * What the two share: metadata (topology over class, upgrade-control annotations stripped, fixed
 * labels on top), machine fields topology-over-class, node timeouts, and the machine template
 * spec whose shape differs by output API version.
 */
import type { Cluster, Json, JsonObject, MachineDeploymentTopology, MachinePoolTopology } from '../core/model.js';
import type { MachineDeploymentBlueprint, MachinePoolBlueprint } from '../blueprint/blueprint.js';
import { asObject, cloneJson, compact, sortedMap, jsonText } from '../core/json.js';
import { formatGoDuration } from '../core/go/duration.js';
import type { Recorder } from '../provenance/recorder.js';
import type { Source } from '../provenance/sources.js';
import type { Path } from '../core/path.js';
import {
  CLUSTER_NAME_LABEL,
  DEFER_UPGRADE,
  DEPLOYMENT_NAME_LABEL,
  HOLD_UPGRADE_SEQUENCE,
  POOL_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
  mergeMaps,
} from '../core/labels.js';
import {
  TIMEOUT_NAMES,
  buildMetadata,
  clusterOwnerReferences,
  identityOf,
  objectRef,
  templateToObject,
  templateToTemplate,
  type TimeoutName,
} from './objects.js';
import { computeHealthCheck, healthCheckDefined, healthCheckSource } from './healthcheck.js';
import {
  CLUSTER_NAME,
  builtin,
  classMapLayer,
  cloneNameDetail,
  clusterMapLayer,
  eitherSource,
  fixed,
  fixedLabels,
  durationNote,
  fromCluster,
  namingDetail,
  recordCoreHeader,
  recordLayers,
  referenceTo,
  versionSource,
  type Layer,
} from './origins.js';
import { CoreVersion, DesiredMachineDeployment, DesiredMachinePool, TopologyNames } from './types.js';

type WorkerClass = MachineDeploymentBlueprint['cls'] | MachinePoolBlueprint['cls'];
type WorkerTopology = MachineDeploymentTopology | MachinePoolTopology;

/** Where a worker's topology entry and class are (for recorded origins). */
interface WorkerPaths {
  topology: string;
  cls: string;
}

const workerPaths = (
  cluster: Cluster,
  list: 'machineDeployments' | 'machinePools',
  topo: WorkerTopology,
  cls: WorkerClass,
): WorkerPaths => ({
  topology: `spec.topology.workers.${list}[${(cluster.topology.workers[list] as WorkerTopology[]).indexOf(topo)}]`,
  cls: cls.fieldPath,
});

/**
 * Worker metadata (CAPI exp/topology/desiredstate/desired_state.go `computeMachineDeployment` steps 5–6): topology over class, upgrade-control annotations stripped,
 * the fixed labels on top; the same maps go to the object and its machine template.
 */
function workerMetadata(topo: WorkerTopology, cls: WorkerClass, fixedLabelMap: Record<string, string>) {
  const annotations = mergeMaps(topo.metadata?.annotations, cls.metadata?.annotations);
  if (annotations) {
    delete annotations[HOLD_UPGRADE_SEQUENCE];
    delete annotations[DEFER_UPGRADE];
  }
  const labels = { ...mergeMaps(topo.metadata?.labels, cls.metadata?.labels), ...fixedLabelMap };
  return { labels, annotations, template: compact({ labels: sortedMap(labels), annotations: sortedMap(annotations) }) };
}

/** Records the worker metadata maps on the object and its machine template (`spec.template.metadata`). */
function recordWorkerMetadata(
  rec: Recorder,
  obj: JsonObject,
  p: WorkerPaths,
  topo: WorkerTopology,
  cls: WorkerClass,
  fixedKeys: string[],
): void {
  const classMeta = `${p.cls}.metadata`;
  const labels: Layer[] = [
    classMapLayer(rec, cls.metadata?.labels, `${classMeta}.labels`),
    clusterMapLayer(rec, topo.metadata?.labels, `${p.topology}.metadata.labels`),
    fixedLabels(rec, fixedKeys),
  ];
  const annotations: Layer[] = [
    classMapLayer(rec, cls.metadata?.annotations, `${classMeta}.annotations`),
    clusterMapLayer(rec, topo.metadata?.annotations, `${p.topology}.metadata.annotations`),
  ];
  for (const base of [['metadata'], ['spec', 'template', 'metadata']]) {
    recordLayers(obj, [...base, 'labels'], labels);
    recordLayers(obj, [...base, 'annotations'], annotations);
  }
}

/** Node timeouts, each topology-over-class (seconds), with where each came from. */
function workerTimeouts(
  topo: WorkerTopology,
  cls: WorkerClass,
): { name: TimeoutName; seconds: number; fromTopology: boolean }[] {
  return TIMEOUT_NAMES.flatMap((name) => {
    const topologySeconds = topo.deletion?.[`${name}Seconds`];
    const fromTopology = topologySeconds !== undefined;
    const seconds = topologySeconds ?? cls.deletion?.[`${name}Seconds`];
    return seconds === undefined ? [] : [{ name, seconds, fromTopology }];
  });
}

/** A machine template field (CAPI exp/topology/desiredstate/desired_state.go `computeMachineDeployment`): the topology's when set, else the class's. */
interface MachineField {
  value: Json | undefined;
  fromTopology: boolean;
}
const machineField = (
  topology: unknown,
  cls: unknown,
  set: (v: unknown) => boolean = (v) => v !== undefined,
): MachineField =>
  set(topology) ? { value: copyOf(topology), fromTopology: true } : { value: copyOf(cls), fromTopology: false };

/** What a worker's machine template spec is made of, with where each part came from. */
interface MachineSpec {
  kubernetesVersion: string;
  /** Fields copied as they are (failureDomain, readinessGates, taints). */
  fields: Record<string, MachineField>;
  timeouts: ReturnType<typeof workerTimeouts>;
  /** In `spec.template.spec` for v1beta2, in `spec` for v1beta1. */
  minReadySeconds: MachineField;
}

function machineSpec(
  topo: WorkerTopology,
  cls: WorkerClass,
  kubernetesVersion: string,
  fields: Record<string, MachineField>,
): MachineSpec {
  return {
    kubernetesVersion,
    fields,
    timeouts: workerTimeouts(topo, cls),
    minReadySeconds: machineField(topo.minReadySeconds, cls.minReadySeconds),
  };
}

/** The bootstrap and infrastructure references of a worker's machine template spec. */
type MachineRefs = Record<'bootstrap' | 'infrastructure', JsonObject>;

/**
 * `spec.template.spec` of a MachineDeployment/MachinePool: refs, version, and the fields whose
 * place and form differ by API version (v1beta2 seconds under `deletion`, v1beta1 durations).
 */
function machineTemplateSpec(version: CoreVersion, cluster: Cluster, refs: MachineRefs, m: MachineSpec): JsonObject {
  const common = {
    clusterName: cluster.name,
    version: m.kubernetesVersion,
    bootstrap: { configRef: refs.bootstrap },
    infrastructureRef: refs.infrastructure,
  };
  const values = Object.fromEntries(Object.entries(m.fields).map(([k, f]) => [k, f.value]));
  if (version === 'v1beta2') {
    const deletion =
      m.timeouts.length > 0 ? Object.fromEntries(m.timeouts.map((t) => [`${t.name}Seconds`, t.seconds])) : undefined;
    return compact({ ...common, ...values, minReadySeconds: m.minReadySeconds.value, deletion });
  }
  return compact({
    ...common,
    ...values,
    ...Object.fromEntries(m.timeouts.map((t) => [t.name, formatGoDuration(t.seconds)])),
  });
}

/** Origins of what `machineTemplateSpec` set (`what`: the referenced objects), and of `minReadySeconds`. */
function recordMachineTemplateSpec(
  rec: Recorder,
  obj: JsonObject,
  p: WorkerPaths,
  version: CoreVersion,
  m: MachineSpec,
  versionOrigin: Source,
  refs: MachineRefs,
  what: Record<keyof MachineRefs, string>,
): void {
  const ts: Path = ['spec', 'template', 'spec'];
  const either = (f: MachineField, key: string) =>
    eitherSource(f.fromTopology, `${p.topology}.${key}`, `${p.cls}.${key}`);
  rec.set(obj, [...ts, 'clusterName'], fixed(CLUSTER_NAME));
  rec.set(obj, [...ts, 'version'], versionOrigin);
  rec.set(obj, [...ts, 'bootstrap', 'configRef'], referenceTo(what.bootstrap, refs.bootstrap));
  rec.set(obj, [...ts, 'infrastructureRef'], referenceTo(what.infrastructure, refs.infrastructure));
  for (const [k, f] of Object.entries(m.fields)) if (f.value !== undefined) rec.set(obj, [...ts, k], either(f, k));
  const v2 = version === 'v1beta2';
  for (const t of m.timeouts) {
    rec.set(
      obj,
      v2 ? [...ts, 'deletion', `${t.name}Seconds`] : [...ts, t.name],
      eitherSource(
        t.fromTopology,
        `${p.topology}.deletion.${t.name}Seconds`,
        `${p.cls}.deletion.${t.name}Seconds`,
        durationNote(!v2),
      ),
    );
  }
  rec.set(
    obj,
    v2 ? [...ts, 'minReadySeconds'] : ['spec', 'minReadySeconds'],
    either(m.minReadySeconds, 'minReadySeconds'),
  );
}

/** A copy of a model value (cloneJson keeps undefined as it is). */
const copyOf = (v: unknown): Json | undefined => cloneJson(v as Json);

// ------------------------------------------------------------------ MachineDeployments

/** What every worker of a Cluster is computed with. */
export interface WorkerContext {
  cluster: Cluster;
  names: TopologyNames;
  /** The output API version of CAPI core objects. */
  version: CoreVersion;
  rec?: Recorder;
}

/** A worker's Kubernetes version and, when upgrade sequencing holds it back, why (CAPI exp/topology/desiredstate/upgrade_plan.go `ComputeUpgradePlan`). */
export interface WorkerVersion {
  kubernetesVersion: string;
  reason: string | undefined;
}

/** A MachineDeployment's rollout, remediation and deletion order: the topology's, else the class's, and whether each is the topology's. */
interface RolloutSettings {
  rollout: MachineDeploymentTopology['rollout'];
  rolloutFromTopology: boolean;
  maxInFlight: number | string | undefined;
  maxInFlightFromTopology: boolean;
  order: string | undefined;
  orderFromTopology: boolean;
}

/** CAPI `computeMachineDeployment` picks each of them from the topology when it sets it, else from the class. */
function rolloutSettings(topo: MachineDeploymentTopology, cls: MachineDeploymentBlueprint['cls']): RolloutSettings {
  // A topology rollout is not the zero MachineDeploymentTopologyRolloutSpec: normalize keeps it only with after or strategy.
  const rolloutFromTopology = topo.rollout !== undefined;
  const rollout = rolloutFromTopology
    ? topo.rollout
    : cls.rollout?.strategy
      ? { strategy: cls.rollout.strategy }
      : undefined;
  const topologyMaxInFlight = topo.healthCheck?.remediation?.maxInFlight;
  const maxInFlight = topologyMaxInFlight ?? cls.healthCheck?.remediation?.maxInFlight;
  const order = topo.deletion?.order || cls.deletion?.order;
  return {
    rollout,
    rolloutFromTopology,
    maxInFlight,
    maxInFlightFromTopology: topologyMaxInFlight !== undefined,
    order,
    orderFromTopology: !!topo.deletion?.order,
  };
}

/** The MachineDeployment's spec in the output API version: v1beta2 has rollout, remediation and deletion where v1beta1 has one strategy. */
function machineDeploymentSpec(
  version: CoreVersion,
  cluster: Cluster,
  topo: MachineDeploymentTopology,
  settings: RolloutSettings,
  machine: MachineSpec,
  rest: { selector: Json; template: JsonObject },
): JsonObject {
  const { rollout, maxInFlight, order } = settings;
  if (version === 'v1beta2') {
    return compact({
      clusterName: cluster.name,
      replicas: topo.replicas,
      rollout: rollout ? compact({ after: rollout.after, strategy: copyOf(rollout.strategy) }) : undefined,
      remediation: maxInFlight !== undefined ? { maxInFlight } : undefined,
      deletion: order ? { order } : undefined,
      ...rest,
    });
  }
  const strategy = asObject(copyOf(rollout?.strategy)) ?? {};
  if (order) strategy.rollingUpdate = { ...asObject(strategy.rollingUpdate), deletePolicy: order };
  if (maxInFlight !== undefined) strategy.remediation = { maxInFlight };
  return compact({
    clusterName: cluster.name,
    replicas: topo.replicas,
    rolloutAfter: rollout?.after,
    minReadySeconds: machine.minReadySeconds.value,
    strategy: Object.keys(strategy).length > 0 ? strategy : undefined,
    ...rest,
  });
}

/** CAPI `computeMachineDeployment`: the bootstrap and infrastructure template clones, the MachineDeployment and its health check. */
export function computeMachineDeployment(
  ctx: WorkerContext,
  topo: MachineDeploymentTopology,
  mdBp: MachineDeploymentBlueprint,
  workerVersion: WorkerVersion,
): DesiredMachineDeployment {
  const { cluster, names, version, rec } = ctx;
  const identity = identityOf(cluster);
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- topologyNames (render.ts) names every worker of the topology
  const mdNames = names.machineDeployments.get(topo.name)!;
  const cls = mdBp.cls;
  const extraLabel = { [DEPLOYMENT_NAME_LABEL]: topo.name };
  const bootstrapTemplate = templateToTemplate(
    { template: mdBp.bootstrap.object, name: mdNames.bootstrapTemplate, cluster: identity, labels: extraLabel },
    rec,
  );
  const infrastructureTemplate = templateToTemplate(
    {
      template: mdBp.infrastructure.object,
      name: mdNames.infrastructureTemplate,
      cluster: identity,
      labels: extraLabel,
    },
    rec,
  );

  const fixedLabelMap = {
    [CLUSTER_NAME_LABEL]: cluster.name,
    [TOPOLOGY_OWNED_LABEL]: '',
    [DEPLOYMENT_NAME_LABEL]: topo.name,
  };
  const meta = workerMetadata(topo, cls, fixedLabelMap);
  const settings = rolloutSettings(topo, cls);
  const refs = {
    bootstrap: objectRef(
      version,
      mdBp.bootstrap.ref.apiVersion,
      mdBp.bootstrap.ref.kind,
      mdNames.bootstrapTemplate,
      cluster.namespace,
    ),
    infrastructure: objectRef(
      version,
      mdBp.infrastructure.ref.apiVersion,
      mdBp.infrastructure.ref.kind,
      mdNames.infrastructureTemplate,
      cluster.namespace,
    ),
  };
  const machine = machineSpec(topo, cls, workerVersion.kubernetesVersion, {
    failureDomain: machineField(topo.failureDomain, cls.failureDomain, (v) => !!v),
    readinessGates: machineField(topo.readinessGates, cls.readinessGates),
    taints: machineField(topo.taints, cls.taints),
  });
  const templateSpec = machineTemplateSpec(version, cluster, refs, machine);
  const selector = { matchLabels: sortedMap(fixedLabelMap) as Json };
  const template = { metadata: meta.template, spec: templateSpec };
  const machineDeployment: JsonObject = {
    apiVersion: `cluster.x-k8s.io/${version}`,
    kind: 'MachineDeployment',
    metadata: buildMetadata(mdNames.machineDeployment, cluster.namespace, meta.labels, meta.annotations),
    spec: machineDeploymentSpec(version, cluster, topo, settings, machine, { selector, template }),
  };
  const out: DesiredMachineDeployment = {
    topology: topo,
    blueprint: mdBp,
    bootstrapTemplate,
    infrastructureTemplate,
    machineDeployment,
  };
  if (rec)
    recordMachineDeployment(rec, ctx, out, {
      settings,
      machine,
      refs,
      fixedKeys: Object.keys(fixedLabelMap),
      workerVersion,
    });
  const topoDefined = healthCheckDefined(topo.healthCheck);
  if ((healthCheckDefined(cls.healthCheck) || topoDefined) && topo.healthCheck?.enabled !== false) {
    const from = healthCheckSource(
      topo.healthCheck,
      rec ? workerPaths(cluster, 'machineDeployments', topo, cls).topology : '',
      cls.healthCheck,
      cls.fieldPath,
    );
    out.healthCheck = computeHealthCheck(
      version,
      cluster,
      mdNames.machineDeployment,
      { [TOPOLOGY_OWNED_LABEL]: '', [DEPLOYMENT_NAME_LABEL]: topo.name },
      from,
      `MachineDeployment ${topo.name}`,
      rec,
    );
  }
  return out;
}

/** What computeMachineDeployment decided that provenance records beside the objects. */
interface MachineDeploymentChoices {
  settings: RolloutSettings;
  machine: MachineSpec;
  refs: MachineRefs;
  /** The fixed labels' keys. */
  fixedKeys: string[];
  workerVersion: WorkerVersion;
}

/** Records where each field of a MachineDeployment and its template clones came from. */
function recordMachineDeployment(
  rec: Recorder,
  { cluster, version }: WorkerContext,
  desired: DesiredMachineDeployment,
  choices: MachineDeploymentChoices,
): void {
  const { topology: topo, blueprint: mdBp, machineDeployment: md } = desired;
  const { settings, workerVersion } = choices;
  const cls = mdBp.cls;
  const p = workerPaths(cluster, 'machineDeployments', topo, cls);
  const prefix = `${cluster.name}-${topo.name}-`;
  rec.set(
    desired.bootstrapTemplate,
    ['metadata', 'name'],
    builtin(cloneNameDetail('bootstrap template clone', prefix)),
  );
  rec.set(
    desired.infrastructureTemplate,
    ['metadata', 'name'],
    builtin(cloneNameDetail('infrastructure machine template clone', prefix)),
  );
  const namingDefault = '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}';
  recordCoreHeader(
    rec,
    md,
    version,
    'MachineDeployment',
    namingDetail('MachineDeployment', cls.naming?.template, `${p.cls}.naming.template`, namingDefault),
  );
  recordWorkerMetadata(rec, md, p, topo, cls, choices.fixedKeys);
  rec.set(md, ['spec', 'selector'], fixed('selector of the MachineDeployment: the three fixed labels'));
  if (topo.replicas !== undefined) rec.set(md, ['spec', 'replicas'], fromCluster(`${p.topology}.replicas`));
  const bootstrapWhat = `bootstrap template clone (${mdBp.bootstrap.ref.kind})`;
  const infrastructureWhat = `infrastructure machine template clone (${mdBp.infrastructure.ref.kind})`;
  const versionOrigin = versionSource(cluster, workerVersion.kubernetesVersion, workerVersion.reason);
  recordMachineTemplateSpec(rec, md, p, version, choices.machine, versionOrigin, choices.refs, {
    bootstrap: bootstrapWhat,
    infrastructure: infrastructureWhat,
  });
  // The topology's {after, strategy} as a whole when it sets either, else the class strategy.
  const rolloutSide = (field: string, fromTopology: boolean) =>
    eitherSource(fromTopology, `${p.topology}.${field}`, `${p.cls}.${field}`);
  const strategy = rolloutSide('rollout.strategy', settings.rolloutFromTopology);
  const maxInFlight = rolloutSide('healthCheck.remediation.maxInFlight', settings.maxInFlightFromTopology);
  const order = rolloutSide('deletion.order', settings.orderFromTopology);
  if (version === 'v1beta2') {
    rec.set(md, ['spec', 'rollout', 'after'], fromCluster(`${p.topology}.rollout.after`));
    rec.set(md, ['spec', 'rollout', 'strategy'], strategy);
    rec.set(md, ['spec', 'remediation', 'maxInFlight'], maxInFlight);
    rec.set(md, ['spec', 'deletion', 'order'], order);
  } else {
    rec.set(md, ['spec', 'rolloutAfter'], fromCluster(`${p.topology}.rollout.after`));
    // Without a rollout strategy, spec.strategy holds only deletePolicy and maxInFlight, recorded below.
    rec.set(md, ['spec', 'strategy'], strategy);
    rec.set(md, ['spec', 'strategy', 'rollingUpdate', 'deletePolicy'], order);
    rec.set(md, ['spec', 'strategy', 'remediation', 'maxInFlight'], maxInFlight);
  }
}

// ------------------------------------------------------------------ MachinePools

/** CAPI `computeMachinePool`: the bootstrap and infrastructure objects and the MachinePool. */
export function computeMachinePool(
  ctx: WorkerContext,
  topo: MachinePoolTopology,
  mpBp: MachinePoolBlueprint,
  { kubernetesVersion, reason }: WorkerVersion,
): DesiredMachinePool {
  const { cluster, names, version, rec } = ctx;
  const identity = identityOf(cluster);
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- topologyNames (render.ts) names every worker of the topology
  const mpNames = names.machinePools.get(topo.name)!;
  const cls = mpBp.cls;
  const poolLabel = { [POOL_NAME_LABEL]: topo.name };
  const owners = clusterOwnerReferences(identity);
  const objectFrom = (template: JsonObject, name: string) =>
    templateToObject(
      {
        template,
        name,
        cluster: identity,
        labels: poolLabel,
        ...(owners ? { ownerReferences: owners } : {}),
        ...(rec ? { labelLayers: [fixedLabels(rec, [POOL_NAME_LABEL])] } : {}),
      },
      rec,
    );
  const bootstrapObject = objectFrom(mpBp.bootstrap.object, mpNames.bootstrapObject);
  const infrastructureObject = objectFrom(mpBp.infrastructure.object, mpNames.infrastructureObject);
  const fixedLabelMap = { [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '', ...poolLabel };
  const meta = workerMetadata(topo, cls, fixedLabelMap);
  const refs = {
    bootstrap: objectRef(
      version,
      jsonText(bootstrapObject.apiVersion),
      jsonText(bootstrapObject.kind),
      mpNames.bootstrapObject,
      cluster.namespace,
    ),
    infrastructure: objectRef(
      version,
      jsonText(infrastructureObject.apiVersion),
      jsonText(infrastructureObject.kind),
      mpNames.infrastructureObject,
      cluster.namespace,
    ),
  };
  const machine = machineSpec(topo, cls, kubernetesVersion, { taints: machineField(topo.taints, cls.taints) });
  const templateSpec = machineTemplateSpec(version, cluster, refs, machine);
  const failureDomains = machineField(topo.failureDomains, cls.failureDomains);
  const spec = compact({
    clusterName: cluster.name,
    replicas: topo.replicas,
    minReadySeconds: version === 'v1beta1' ? machine.minReadySeconds.value : undefined,
    failureDomains: failureDomains.value,
    template: { metadata: meta.template, spec: templateSpec },
  });
  const machinePool: JsonObject = {
    apiVersion: `cluster.x-k8s.io/${version}`,
    kind: 'MachinePool',
    metadata: buildMetadata(mpNames.machinePool, cluster.namespace, meta.labels, meta.annotations),
    spec,
  };
  if (rec) {
    const p = workerPaths(cluster, 'machinePools', topo, cls);
    const stableName = (what: string) =>
      builtin(`name of the ${what}: "${cluster.name}-${topo.name}-" + a stable hash`);
    rec.set(bootstrapObject, ['metadata', 'name'], stableName('MachinePool bootstrap config'));
    rec.set(infrastructureObject, ['metadata', 'name'], stableName('infrastructure machine pool'));
    const namingDefault = '{{ .cluster.name }}-{{ .machinePool.topologyName }}-{{ .random }}';
    recordCoreHeader(
      rec,
      machinePool,
      version,
      'MachinePool',
      namingDetail('MachinePool', cls.naming?.template, `${p.cls}.naming.template`, namingDefault),
    );
    recordWorkerMetadata(rec, machinePool, p, topo, cls, Object.keys(fixedLabelMap));
    if (topo.replicas !== undefined) rec.set(machinePool, ['spec', 'replicas'], fromCluster(`${p.topology}.replicas`));
    if (failureDomains.value !== undefined)
      rec.set(
        machinePool,
        ['spec', 'failureDomains'],
        eitherSource(failureDomains.fromTopology, `${p.topology}.failureDomains`, `${p.cls}.failureDomains`),
      );
    const what = {
      bootstrap: `bootstrap config (${jsonText(bootstrapObject.kind)})`,
      infrastructure: `infrastructure machine pool (${jsonText(infrastructureObject.kind)})`,
    };
    recordMachineTemplateSpec(
      rec,
      machinePool,
      p,
      version,
      machine,
      versionSource(cluster, kubernetesVersion, reason),
      refs,
      what,
    );
  }
  return { topology: topo, blueprint: mpBp, bootstrapObject, infrastructureObject, machinePool };
}
