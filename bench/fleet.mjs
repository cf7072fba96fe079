#!/usr/bin/env node
// Fleet generator for the benchmark and the sharding test: the ClusterClass in
// bench/fleet-class.yaml (with its templates) plus N Clusters that use it, varied deterministically.
//
// Every Cluster is derived from its index alone (a mulberry32 PRNG seeded with the index), so
// Cluster #42 is the same object in a fleet of 100 and in a fleet of 10,000: a bigger fleet is a
// strict superset of a smaller one, which keeps the scaling figure about size and nothing else.
//
//   node bench/fleet.mjs 1000 > input.yaml            # kpt-shaped ResourceList (KRM function input)
//   node bench/fleet.mjs 1000 --stream > fleet.yaml   # plain multi-document YAML (CLI `render`)
//   node bench/fleet.mjs 1000 --set shard=0/4         # extra functionConfig data
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { prng } from '../scripts/prng.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const CLASS_FILE = join(here, 'fleet-class.yaml');
export const NAMESPACE = 'fleet';

const REGIONS = ['eu-west-1', 'eu-central-1', 'us-east-1', 'us-west-2', 'ap-south-1'];
const ENVIRONMENTS = ['dev', 'staging', 'prod', 'prod'];
const TEAMS = ['payments', 'search', 'checkout', 'identity', 'data', 'ml', 'edge', 'platform'];
const VERSIONS = ['v1.31.7', 'v1.32.4', 'v1.33.5', 'v1.34.2', 'v1.34.2'];
const NTP = ['0.pool.ntp.org', '1.pool.ntp.org', 'time.example.com'];

export const clusterName = (i) => `c${String(i).padStart(5, '0')}`;

/** The class and its templates, as plain objects (in file order). */
export function classObjects() {
  return YAML.parseAllDocuments(readFileSync(CLASS_FILE, 'utf8')).map((d) => d.toJS());
}

/** Cluster number `i` (0-based) of the fleet. */
export function clusterObject(i) {
  const r = prng(0x9e3779b9 ^ Math.imul(i + 1, 0x85ebca6b));
  const pick = (list) => list[Math.floor(r() * list.length)];
  const chance = (p) => r() < p;
  const name = clusterName(i);
  const region = pick(REGIONS);
  const environment = pick(ENVIRONMENTS);
  const team = pick(TEAMS);
  const prod = environment === 'prod';

  const variables = [
    { name: 'region', value: region },
    { name: 'environment', value: environment },
    { name: 'owner', value: `team-${team}` },
  ];
  if (chance(0.5))
    variables.push({
      name: 'controlPlaneSize',
      value: { cpus: prod ? 8 : 4, memoryMiB: prod ? 16384 : 8192, diskGiB: 80 },
    });
  if (chance(0.3))
    variables.push({ name: 'workerSize', value: { cpus: 2 ** (2 + (i % 4)), memoryMiB: 4096 * (1 + (i % 8)) } });
  if (chance(0.35)) {
    variables.push({
      name: 'httpProxy',
      value: {
        enabled: true,
        url: `http://proxy.${region}.example.com:3128`,
        noProxy: ['localhost', '127.0.0.1', '.svc', '.cluster.local', `10.${i % 250}.0.0/16`],
      },
    });
  }
  if (chance(0.25)) variables.push({ name: 'etcd', value: { imageTag: pick(['3.5.16-0', '3.5.21-0', '3.6.4-0']) } });
  variables.push({
    name: 'apiServer',
    value: {
      ...(chance(0.6) ? { certSANs: [`${name}.internal`, `${name}.${team}`] } : {}),
      auditLog: { enabled: prod || chance(0.2), ...(prod ? { maxAgeDays: 90 } : {}) },
    },
  });
  if (chance(0.3)) variables.push({ name: 'kubeletLogLevel', value: 1 + (i % 5) });
  if (chance(0.5)) variables.push({ name: 'ntpServers', value: NTP.slice(0, 1 + (i % NTP.length)) });
  if (chance(0.3))
    variables.push({ name: 'podSecurity', value: { enabled: true, enforce: prod ? 'restricted' : 'baseline' } });
  if (chance(0.4))
    variables.push({
      name: 'gpu',
      value: { operator: true, ...(chance(0.5) ? { driverVersion: pick(['535', '550', '570']) } : {}) },
    });
  if (chance(0.3))
    variables.push({
      name: 'extraNodeLabels',
      value: { 'example.com/team': team, 'example.com/cost-center': `cc-${1000 + (i % 97)}` },
    });

  const memoryPool = { class: 'memory', name: 'md-memory', replicas: 1 + Math.floor(r() * 4) };
  if (chance(0.3))
    memoryPool.variables = {
      overrides: [{ name: 'workerSize', value: { cpus: 16, memoryMiB: 131072, diskGiB: 200 } }],
    };
  const gpuPool = { class: 'gpu', name: 'md-gpu', replicas: Math.floor(r() * 3) };
  if (chance(0.2)) gpuPool.healthCheck = { enabled: false };
  const general = { class: 'general', name: 'md-general', replicas: 2 + Math.floor(r() * 9) };
  if (chance(0.2)) general.failureDomain = `${region}${pick(['a', 'b', 'c'])}`;
  if (chance(0.15)) general.metadata = { labels: { 'example.com/spot': 'true' } };

  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: {
      name,
      namespace: NAMESPACE,
      labels: { 'example.com/team': team, 'example.com/environment': environment, 'example.com/region': region },
    },
    spec: {
      clusterNetwork: {
        pods: { cidrBlocks: [`10.${64 + (i % 64)}.0.0/16`] },
        services: { cidrBlocks: ['10.96.0.0/12'] },
        serviceDomain: 'cluster.local',
      },
      topology: {
        classRef: { name: 'fleet' },
        version: pick(VERSIONS),
        controlPlane: {
          replicas: prod ? 3 : pick([1, 3]),
          ...(chance(0.3) ? { metadata: { labels: { 'example.com/critical': 'true' } } } : {}),
        },
        workers: { machineDeployments: [general, memoryPool, gpuPool] },
        variables,
      },
    },
  };
}

/** Clusters per class when a fleet has many classes (`perClass`): 10,000 Clusters use 200 classes. */
export const CLUSTERS_PER_CLASS = 50;

/** The name of the class (or template) `name` in copy `k` of the class: `fleet` is `fleet-k7`, `fleet-worker` is `fleet-k7-worker`. */
const copyName = (name, k) => name.replace(/^fleet(?=-|$)/, `fleet-k${k}`);

/** Copy `k` of the class and its templates: every name and template reference renamed. */
function classCopy(k) {
  const rename = (value, key) => {
    if (Array.isArray(value)) return value.map((v) => rename(v));
    if (value === null || typeof value !== 'object')
      return key === 'name' && typeof value === 'string' ? copyName(value, k) : value;
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, rename(v, key)]));
  };
  return classObjects().map((o) => rename(o));
}

/**
 * Input objects of a fleet with their file in a kpt package (path, index in the file). With
 * `perClass`, every `CLUSTERS_PER_CLASS` Clusters get a class of their own (a copy of the class,
 * renamed), in `classes/<class>.yaml`.
 */
export function fleetFiles(count, { perClass = false } = {}) {
  const out = [];
  const classes = perClass ? Math.ceil(count / CLUSTERS_PER_CLASS) : 0;
  if (!perClass) classObjects().forEach((object, index) => out.push({ path: 'clusterclass.yaml', index, object }));
  for (let k = 0; k < classes; k++)
    classCopy(k).forEach((object, index) => out.push({ path: `classes/${copyName('fleet', k)}.yaml`, index, object }));
  for (let i = 0; i < count; i++) {
    const object = clusterObject(i);
    if (perClass) object.spec.topology.classRef.name = copyName('fleet', Math.floor(i / CLUSTERS_PER_CLASS));
    out.push({ path: `clusters/${clusterName(i)}.yaml`, index: 0, object });
  }
  return out;
}

/** Plain multi-document YAML of the fleet (no kpt annotations): what `render PATH` reads. */
export function fleetStream(count) {
  return fleetFiles(count)
    .map((f) => YAML.stringify(f.object, { lineWidth: 0 }))
    .join('---\n');
}

const KPTFILE = {
  apiVersion: 'kpt.dev/v1',
  kind: 'Kptfile',
  metadata: { name: 'fleet', annotations: { 'config.kubernetes.io/local-config': 'true' } },
  pipeline: { mutators: [{ exec: 'render-clusterclass', configMap: { mode: 'expand' } }] },
};

/**
 * The ResourceList kpt hands the function for a package holding the fleet: the Kptfile and every
 * object, each with kpt's path/index annotations (internal and legacy), kyaml's ids and seqindent,
 * and the Kptfile's `configMap:` as a ConfigMap functionConfig. Serialised like kyaml: compact
 * sequences, single-quoted strings.
 */
export function fleetResourceList(count, config = {}, { perClass = false } = {}) {
  const files = [{ path: 'Kptfile', index: 0, object: structuredClone(KPTFILE) }, ...fleetFiles(count, { perClass })];
  const items = files.map(({ path, index, object }, n) => {
    const meta = (object.metadata ??= {});
    meta.annotations = {
      ...meta.annotations,
      'config.kubernetes.io/index': String(index),
      'config.kubernetes.io/path': path,
      'internal.config.kubernetes.io/index': String(index),
      'internal.config.kubernetes.io/path': path,
      'internal.config.kubernetes.io/seqindent': 'compact',
      'internal.config.kubernetes.io/id': String(n + 1),
      'config.k8s.io/id': String(n + 1),
    };
    return object;
  });
  const rl = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items,
    functionConfig: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'function-input', annotations: { 'config.kubernetes.io/local-config': 'true' } },
      data: { mode: 'expand', ...config },
    },
  };
  return YAML.stringify(rl, { lineWidth: 0, indentSeq: false, singleQuote: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100);
  const config = {};
  args.forEach((a, i) => {
    if (a === '--set') {
      const [k, ...v] = args[i + 1].split('=');
      config[k] = v.join('=');
    }
  });
  process.stdout.write(args.includes('--stream') ? fleetStream(count) : fleetResourceList(count, config));
}
