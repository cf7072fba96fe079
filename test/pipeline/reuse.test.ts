/**
 * A kpt re-render reuses a Cluster's earlier objects as they came when nothing it is rendered from
 * changed (pipeline/reuse.ts). The renderer's build is mocked here (the bundle carries the real one,
 * test/e2e/gitops.test.ts drives that through kpt). What is reused is visible: kpt's own
 * annotations on the earlier objects (here `internal.config.kubernetes.io/seqindent`) survive only
 * in entries written back as text, and kpt's per-run ids never do. The reference is the render
 * without reuse: the same input with the inputs marks removed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { fleetResourceList } from '../../bench/fleet.mjs';
import { runFunction } from '../../src/cli/render.js';
import { fakeIO } from '../helpers/io.js';
import { haveRealWorldFixtures, realWorldResourceLists } from '../helpers/resource-list.js';

vi.mock('../../src/cli/build.js', () => ({ RENDERER_BUILD: 'test-build' }));

const INPUTS = /^\s*render-clusterclass\.dev\/inputs: .*\n/gm;
/** The function config that asks for reuse (it is off by default). */
const REUSE = { mode: 'expand', reuse: 'true' };
const OWNER = 'render-clusterclass.dev/cluster';
type Item = {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
};

async function fn(input: string): Promise<{ code: number; out: string; err: string }> {
  const io = fakeIO(input);
  const code = await runFunction(io);
  return { code, out: io.out, err: io.err };
}

/** What kpt sends on the next run: the output's items with kpt's annotations (a per-run id, the sequence style), kyaml's style, no results. */
function asKptWouldSend(
  output: string,
  config: Record<string, string> = REUSE,
  edit: (items: Item[]) => void = () => undefined,
): string {
  const list = YAML.parse(output, { version: '1.1' }) as { items: Item[] };
  list.items.forEach((item, i) => {
    item.metadata.annotations = {
      ...item.metadata.annotations,
      'internal.config.kubernetes.io/seqindent': 'compact',
      'config.k8s.io/id': String(i + 1),
      'internal.config.kubernetes.io/id': String(i + 1),
    };
  });
  edit(list.items);
  const functionConfig = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data: config };
  return YAML.stringify(
    { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: list.items, functionConfig },
    { lineWidth: 0, indentSeq: false, singleQuote: true, version: '1.1' },
  );
}

const itemsOf = (out: string) => (YAML.parse(out, { version: '1.1' }) as { items: Item[] }).items;
const resultsOf = (out: string) => (YAML.parse(out, { version: '1.1' }) as { results?: unknown[] }).results ?? [];
const owned = (items: Item[], cluster?: string) =>
  items.filter((i) => i.metadata.annotations?.[OWNER] && (!cluster || i.metadata.annotations[OWNER] === cluster));
/** Owners whose earlier objects came back as text (kpt's sequence-style annotation kept). */
const reusedOwners = (out: string) =>
  [
    ...new Set(
      owned(itemsOf(out))
        .filter((i) => i.metadata.annotations!['internal.config.kubernetes.io/seqindent'])
        .map((i) => i.metadata.annotations![OWNER]),
    ),
  ].sort();
/** Items as a render gives them: without kpt's annotations. */
const withoutKpt = (items: Item[]) =>
  items.map((i) => {
    const {
      'internal.config.kubernetes.io/seqindent': _s,
      'config.k8s.io/id': _c,
      'internal.config.kubernetes.io/id': _i,
      ...annotations
    } = i.metadata.annotations ?? {};
    return { ...i, metadata: { ...i.metadata, annotations } };
  });

/** The re-render, and the same re-render without reuse (the inputs marks removed). */
async function reRender(again: string) {
  const [reused, rendered] = [await fn(again), await fn(again.replace(INPUTS, ''))];
  expect(reused.code).toBe(rendered.code);
  expect(resultsOf(reused.out)).toEqual(resultsOf(rendered.out));
  return { reused, rendered };
}

describe('reusing earlier objects on a re-render', () => {
  it('is off unless asked for: no mark, nothing reused', async () => {
    const first = await fn(fleetResourceList(2));
    expect(first.out).not.toContain('render-clusterclass.dev/inputs');
    expect(reusedOwners((await fn(asKptWouldSend(first.out, { mode: 'expand' }))).out)).toEqual([]);
  });

  it('marks every object of a clean render with the digest of its inputs and its object count', async () => {
    const first = await fn(fleetResourceList(3, REUSE));
    expect(first.code).toBe(0);
    for (const cluster of ['fleet/c00000', 'fleet/c00001', 'fleet/c00002']) {
      const objects = owned(itemsOf(first.out), cluster);
      const marks = new Set(objects.map((o) => o.metadata.annotations!['render-clusterclass.dev/inputs']));
      expect([...marks]).toEqual([expect.stringMatching(new RegExp(`^[0-9a-f]{32}/${objects.length}$`))]);
    }
  });

  it('writes an unchanged fleet’s earlier objects back as they came, without kpt’s per-run ids, as the render would give them', async () => {
    const first = await fn(fleetResourceList(4, REUSE));
    const again = asKptWouldSend(first.out);
    const { reused, rendered } = await reRender(again);
    expect(reusedOwners(reused.out)).toEqual(['fleet/c00000', 'fleet/c00001', 'fleet/c00002', 'fleet/c00003']);
    expect(reusedOwners(rendered.out)).toEqual([]);
    const ids = (i: Item) =>
      ['config.k8s.io/id', 'internal.config.kubernetes.io/id'].filter((k) => k in i.metadata.annotations!);
    expect(owned(itemsOf(reused.out)).flatMap(ids)).toEqual([]);
    expect(withoutKpt(itemsOf(reused.out))).toEqual(withoutKpt(itemsOf(rendered.out)));
    expect(withoutKpt(owned(itemsOf(reused.out)))).toEqual(withoutKpt(owned(itemsOf(first.out))));
  });

  it('renders again what changed: one Cluster, the class, the function config, a missing earlier object; not for what no render reads', async () => {
    const first = await fn(fleetResourceList(3, REUSE));
    const cluster = (items: Item[], name: string) =>
      items.find((i) => i.kind === 'Cluster' && i.metadata.name === name && i.spec?.topology)!;
    const oneCluster = await reRender(
      asKptWouldSend(
        first.out,
        undefined,
        (items) => (cluster(items, 'c00001').metadata.annotations!['example.com/note'] = 'changed'),
      ),
    );
    expect(reusedOwners(oneCluster.reused.out)).toEqual(['fleet/c00000', 'fleet/c00002']);
    expect(withoutKpt(itemsOf(oneCluster.reused.out))).toEqual(withoutKpt(itemsOf(oneCluster.rendered.out)));

    const template = await reRender(
      asKptWouldSend(
        first.out,
        undefined,
        (items) => ((items.find((i) => i.kind === 'DevClusterTemplate')!.spec as { note?: string }).note = 'x'),
      ),
    );
    expect(reusedOwners(template.reused.out)).toEqual([]);

    // What no render reads (here a ConfigMap of the package) changes no Cluster's inputs.
    const unrelated = await reRender(
      asKptWouldSend(first.out, undefined, (items) =>
        items.push({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'notes', namespace: 'fleet' } } as Item),
      ),
    );
    expect(reusedOwners(unrelated.reused.out)).toEqual(['fleet/c00000', 'fleet/c00001', 'fleet/c00002']);

    const config = await reRender(asKptWouldSend(first.out, { ...REUSE, outputApiVersion: 'v1beta2' }));
    expect(reusedOwners(config.reused.out)).toEqual([]);

    const missing = await reRender(
      asKptWouldSend(first.out, undefined, (items) => {
        items.splice(
          items.findIndex((i) => i.kind === 'MachineDeployment' && i.metadata.annotations?.[OWNER] === 'fleet/c00002'),
          1,
        );
      }),
    );
    expect(reusedOwners(missing.reused.out)).toEqual(['fleet/c00000', 'fleet/c00001']);
    expect(owned(itemsOf(missing.reused.out), 'fleet/c00002')).toHaveLength(
      owned(itemsOf(first.out), 'fleet/c00002').length,
    );
  });

  it('never marks a render that gave a result (its warnings must be said again), so never reuses it', async () => {
    const read = (f: string) =>
      YAML.parseAllDocuments(readFileSync(join(import.meta.dirname, '..', '..', 'examples', f), 'utf8')).map((d) =>
        d.toJS(),
      );
    const items = [...read('basic/clusterclass.yaml'), ...read('basic/cluster-foo.yaml')];
    // A patch whose template warns while the Cluster renders (randInt is made deterministic, and says so).
    const jsonPatches = [
      {
        op: 'add',
        path: '/spec/template/metadata',
        valueFrom: { template: '{labels: {r: {{ randInt 1 9 | quote }}}}' },
      },
    ];
    const selector = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlaneTemplate',
      matchResources: { controlPlane: true },
    };
    items.find((i) => i.kind === 'ClusterClass').spec.patches = [
      { name: 'random', definitions: [{ selector, jsonPatches }] },
    ];
    const list = YAML.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items,
      functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: REUSE },
    });
    const first = await fn(list);
    expect(resultsOf(first.out)).toContainEqual(
      expect.objectContaining({ severity: 'warning', message: expect.stringContaining('randInt is random by nature') }),
    );
    expect(first.out).not.toContain('render-clusterclass.dev/inputs');
    const again = await fn(asKptWouldSend(first.out));
    expect(reusedOwners(again.out)).toEqual([]);
    expect(resultsOf(again.out)).toEqual(resultsOf(first.out));
  });

  it.skipIf(!haveRealWorldFixtures)(
    'gives what the render without reuse gives on every real-world fixture',
    async () => {
      const config = { ...REUSE, skipExternalPatches: 'true' };
      for (const { file, text } of realWorldResourceLists(config)) {
        const first = await fn(text);
        const { reused, rendered } = await reRender(asKptWouldSend(first.out, config));
        expect(withoutKpt(itemsOf(reused.out)), file).toEqual(withoutKpt(itemsOf(rendered.out)));
      }
    },
  );
});
