/**
 * A small fleet as a repository (files for `render -o`) and as a kpt package's ResourceList (for
 * the KRM function), with every way a Cluster can fail to render applied to it by name: the
 * inputs of the no-data-loss tests (test/e2e/no-data-loss*.test.ts).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import YAML from 'yaml';
import { fleetCluster, fleetDocs, type Obj } from './scenario.js';

/** Every way a Cluster in the inputs can fail to render. */
export const BREAKAGES = [
  'unparseable',
  'topology-typo',
  'no-topology',
  'duplicate',
  'unknown-class',
  'invalid-class',
] as const;
export type Breakage = (typeof BREAKAGES)[number];

interface ClusterState {
  /** Replicas of its MachineDeployment (an edit that renders differently). */
  replicas: number;
  breakage?: Breakage;
}

/** The Clusters in the inputs, by name (namespace `fleet`). */
export type Fleet = Map<string, ClusterState>;

const texts = (docs: Obj[]) => docs.map((d) => YAML.stringify(d)).join('---\n');

/** The repository's files besides the Clusters: the fleet class and its templates. */
const CLASSES = texts(fleetDocs());

/**
 * A class its webhook would refuse, in the repository while a Cluster uses it (a class no Cluster
 * uses is judged too, and would fail every run).
 */
function brokenClass(): string {
  const broken = structuredClone(fleetDocs()[0]);
  broken.metadata.name = 'fleet-broken';
  broken.spec.variables[0].schema.openAPIV3Schema.type = 'strin';
  return texts([broken]);
}

const OWNER = 'render-clusterclass.dev/cluster';
export const ownerOf = (o: Obj): string | undefined => o?.metadata?.annotations?.[OWNER];

/** A Cluster's documents as its file holds them (one, or none when the Cluster is not an object). */
function clusterDoc(name: string, state: ClusterState): Obj {
  const cluster = fleetCluster(name, (t) => {
    t.workers.machineDeployments[0].replicas = state.replicas;
    if (state.breakage === 'unknown-class') t.classRef.name = 'no-such-class';
    if (state.breakage === 'invalid-class') t.classRef.name = 'fleet-broken';
  });
  if (state.breakage === 'no-topology') cluster.spec = {};
  return cluster;
}

/** A Cluster's file text, broken as its state says (a typo, a YAML syntax error). */
function clusterText(name: string, state: ClusterState): string {
  const text = YAML.stringify(clusterDoc(name, state));
  if (state.breakage === 'topology-typo') return text.replace('  topology:', '  topolgy:');
  if (state.breakage === 'unparseable') return `${text}  broken: [unclosed\n`;
  return text;
}

/**
 * Relative path → text of every input file: `classes.yaml` (and `classes-broken.yaml` while a
 * Cluster uses the broken class), `clusters/<name>.yaml` (and a copy for a duplicate), `junk-<i>.yaml`.
 */
export function repoFiles(fleet: Fleet, junk: number): Record<string, string> {
  const files: Record<string, string> = { 'classes.yaml': CLASSES };
  if ([...fleet.values()].some((s) => s.breakage === 'invalid-class')) files['classes-broken.yaml'] = brokenClass();
  for (const [name, state] of fleet) {
    files[`clusters/${name}.yaml`] = clusterText(name, state);
    if (state.breakage === 'duplicate') files[`clusters/${name}-copy.yaml`] = clusterText(name, state);
  }
  for (let i = 0; i < junk; i++) files[`junk-${i}.yaml`] = `notes: [a YAML syntax error ${i}\n`;
  return files;
}

/** Replaces the content of `dir` by `files`. */
export function writeRepo(dir: string, files: Record<string, string>): void {
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const withPath = (doc: Obj, path: string): Obj => ({
  ...doc,
  metadata: {
    ...doc.metadata,
    annotations: { ...doc.metadata.annotations, 'internal.config.kubernetes.io/path': path },
  },
});

/** One `items:` entry (`- …`, indented by two) from YAML text of a mapping. */
const entry = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l, i) => `${i === 0 ? '  - ' : '    '}${l}`)
    .join('\n');

/**
 * The ResourceList kpt hands the function for the package `repoFiles` describes, after an earlier
 * run left `earlier` (the generated objects of its answer, read back from `rendered/`). A Cluster
 * whose file does not parse is, in a ResourceList, an item Kubernetes cannot read (a repeated
 * key); each junk file is an item that is not an object.
 */
export function resourceList(fleet: Fleet, junk: number, earlier: readonly Obj[]): string {
  const items: string[] = [];
  for (const [path, text] of Object.entries(
    repoFiles(
      new Map([...fleet].map(([n, s]) => [n, s.breakage === 'unparseable' ? { ...s, breakage: undefined } : s])),
      0,
    ),
  )) {
    for (const doc of YAML.parseAllDocuments(text)) {
      const name = path.slice('clusters/'.length, -'.yaml'.length);
      const itemText = YAML.stringify(withPath(doc.toJS(), path));
      items.push(
        entry(
          fleet.get(name)?.breakage === 'unparseable'
            ? itemText.replace('kind: Cluster\n', 'kind: Cluster\nkind: Cluster\n')
            : itemText,
        ),
      );
    }
  }
  for (let i = 0; i < junk; i++) items.push(entry(`[not, an, object, ${i}]`));
  for (const o of earlier) items.push(entry(YAML.stringify(o)));
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('\n')}\n`;
}
