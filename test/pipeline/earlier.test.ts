/**
 * Earlier outputs at fleet size (krm/earlier.ts, pipeline/run.ts): kpt hands a re-render every
 * object the function generated before. Those are cut from the ResourceList text (never parsed
 * as one document, never counted against the input-size limit) and parsed only when their
 * digests say the earlier render is not the stateless one. The reference is the slow path: the
 * same input with the digest annotations removed, which parses and uses every earlier object.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fleetResourceList } from '../../bench/fleet.mjs';
import { runFunction } from '../../src/cli/render.js';
import { cutEarlierOutputs } from '../../src/krm/earlier.js';
import { DEFAULT_CONFIG } from '../../src/krm/config.js';
import { readResourceList } from '../../src/krm/read.js';
import { DEFAULT_READ_LIMITS } from '../../src/yaml/decode.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { fakeIO } from '../helpers/io.js';
import { haveRealWorldFixtures, realWorldResourceLists } from '../helpers/resource-list.js';

const DIGEST = /^\s*render-clusterclass\.dev\/digest: .*\n/gm;

async function fn(input: string): Promise<{ code: number; out: string; err: string }> {
  const io = fakeIO(input);
  const code = await runFunction(io);
  return { code, out: io.out, err: io.err };
}

/** What kpt sends on the next run: the output's items in kyaml's style (compact lists, single quotes), no results. */
function asKptWouldSend(output: string, config: Record<string, string> = { mode: 'expand' }): string {
  const list = YAML.parse(output, { version: '1.1' }) as { items: unknown[] };
  const functionConfig = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data: config };
  return YAML.stringify(
    { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: list.items, functionConfig },
    { lineWidth: 0, indentSeq: false, singleQuote: true, version: '1.1' },
  );
}

const itemsOf = (out: string) =>
  (
    YAML.parse(out, { version: '1.1' }) as {
      items: { kind: string; metadata: { name: string; annotations?: Record<string, string> } }[];
    }
  ).items;
const resultsOf = (out: string) => (YAML.parse(out, { version: '1.1' }) as { results?: unknown[] }).results ?? [];

/** How many earlier objects a render of `input` parses. */
function parsedEarlier(input: string): number {
  const read = readResourceList(input);
  if (!read.ok) throw new Error(read.message);
  let parsed = 0;
  const earlier = read.input.earlier!.map((e) => ({ ...e, value: () => (parsed++, e.value()) }));
  runPipeline(read.input.items, DEFAULT_CONFIG, [], { earlier });
  return parsed;
}

describe('cutting earlier outputs from the ResourceList text', () => {
  it('cuts exactly the items carrying the owner annotation in metadata.annotations, with owner and digest', async () => {
    const first = await fn(fleetResourceList(3));
    expect(first.code).toBe(0);
    const again = asKptWouldSend(first.out);
    const cut = cutEarlierOutputs(again)!;
    const all = itemsOf(first.out);
    const owned = all.filter((i) => i.metadata.annotations?.['render-clusterclass.dev/cluster']);
    expect(cut.outputs.map((o) => [o.owner, o.digest])).toEqual(
      owned.map((i) => [
        i.metadata.annotations!['render-clusterclass.dev/cluster'],
        i.metadata.annotations!['render-clusterclass.dev/digest'],
      ]),
    );
    // The rest is the inputs; each entry parses back to the object it was.
    expect(itemsOf(cut.rest).map((i) => i.kind)).toEqual(all.filter((i) => !owned.includes(i)).map((i) => i.kind));
    const read = readResourceList(again);
    expect(read.ok && read.input.earlier!.map((e) => e.value())).toEqual(owned);
  });

  it('leaves alone what only looks like an earlier output', () => {
    const lookalike = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: notes
  data:
    text: |
      metadata:
        annotations:
          render-clusterclass.dev/cluster: fleet/c00000
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: flow, annotations: {render-clusterclass.dev/cluster: fleet/c00000}}
`;
    expect(cutEarlierOutputs(lookalike)).toBeUndefined();
    expect(
      cutEarlierOutputs(
        JSON.stringify({
          apiVersion: 'config.kubernetes.io/v1',
          kind: 'ResourceList',
          items: [{ metadata: { annotations: { 'render-clusterclass.dev/cluster': 'a/b' } } }],
        }),
      ),
    ).toBeUndefined();
  });
});

describe('kpt’s per-run annotations on earlier outputs', () => {
  // As kpt writes a ResourceList: entries indented by two spaces.
  const list = (annotations: string) => `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: out
      annotations:
        render-clusterclass.dev/cluster: fleet/c1
${annotations}    data:
      a: "1"
`;

  it('are dropped from the entry written back: kpt numbers them afresh each run and would sync each object with its input', () => {
    const cut = cutEarlierOutputs(
      list(
        "        config.kubernetes.io/path: 'rendered/fleet/c1.yaml'\n        config.k8s.io/id: '7'\n        internal.config.kubernetes.io/id: '7'\n        internal.config.kubernetes.io/annotations-migration-resource-id: '6'\n",
      ),
    )!;
    expect(cut.outputs.map((o) => o.entry)).toEqual([
      '  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: out\n      annotations:\n        render-clusterclass.dev/cluster: fleet/c1\n        config.kubernetes.io/path: \'rendered/fleet/c1.yaml\'\n    data:\n      a: "1"\n',
    ]);
  });

  it('are kept when their value is not one plain line (a block scalar would leave its lines behind)', () => {
    const annotations = '        config.k8s.io/id: |\n          7\n';
    expect(cutEarlierOutputs(list(annotations))!.outputs[0]!.entry).toContain(annotations);
  });
});

describe('re-rendering with earlier outputs', () => {
  it('gives what the slow path (every earlier object parsed) gives, for an unchanged fleet', async () => {
    const first = await fn(fleetResourceList(4));
    const again = asKptWouldSend(first.out);
    const fast = await fn(again);
    const slow = await fn(again.replace(DIGEST, ''));
    expect(fast.code).toBe(0);
    expect(slow.code).toBe(0);
    expect(itemsOf(fast.out)).toEqual(itemsOf(slow.out));
    expect(resultsOf(fast.out)).toEqual(resultsOf(slow.out));
    // Nothing changed: the output is the first run's, and no earlier object was parsed.
    expect(itemsOf(fast.out)).toEqual(itemsOf(first.out));
    expect(parsedEarlier(again)).toBe(0);
    expect(parsedEarlier(again.replace(DIGEST, ''))).toBeGreaterThan(0);
  });

  it('after a version bump, uses the earlier render as the current state (control plane first), as the slow path does', async () => {
    const first = await fn(fleetResourceList(3));
    const doc = YAML.parseDocument(asKptWouldSend(first.out), { version: '1.1' });
    const sources = (doc.get('items') as YAML.YAMLSeq<YAML.YAMLMap>).items.filter(
      (i) => i.get('kind') === 'Cluster' && i.getIn(['spec', 'topology']),
    );
    const older = sources.filter((c) => String(c.getIn(['spec', 'topology', 'version'])).startsWith('v1.33.'));
    expect(older.length).toBeGreaterThan(0);
    for (const c of older) c.setIn(['spec', 'topology', 'version'], 'v1.34.2');
    const bumped = doc.toString({ lineWidth: 0, indentSeq: false });
    const fast = await fn(bumped);
    const slow = await fn(bumped.replace(DIGEST, ''));
    expect(itemsOf(fast.out)).toEqual(itemsOf(slow.out));
    expect(resultsOf(fast.out)).toEqual(resultsOf(slow.out));
    // The control plane moved; the MachineDeployments wait where the earlier render had them.
    const name = String(older[0]!.getIn(['metadata', 'name']));
    const ofCluster = itemsOf(fast.out).filter(
      (i) => i.metadata.annotations?.['render-clusterclass.dev/cluster'] === `fleet/${name}`,
    ) as unknown as { kind: string; spec: { version?: string; template?: { spec: { version?: string } } } }[];
    expect(ofCluster.find((i) => i.kind === 'KubeadmControlPlane')!.spec.version).toBe('v1.34.2');
    expect(
      new Set(ofCluster.filter((i) => i.kind === 'MachineDeployment').map((i) => i.spec.template!.spec.version)),
    ).toEqual(new Set(['v1.33.5']));
  });

  it('keeps a failing Cluster’s earlier outputs as they were and prunes a deleted Cluster’s', async () => {
    const first = await fn(fleetResourceList(3));
    const doc = YAML.parseDocument(asKptWouldSend(first.out), { version: '1.1' });
    const items = doc.get('items') as YAML.YAMLSeq<YAML.YAMLMap>;
    const source = (name: string) =>
      items.items.find(
        (i) => i.get('kind') === 'Cluster' && i.getIn(['metadata', 'name']) === name && i.getIn(['spec', 'topology']),
      )!;
    source('c00000').setIn(['spec', 'topology', 'classRef', 'name'], 'no-such-class');
    items.items.splice(items.items.indexOf(source('c00001')), 1);
    const out = await fn(doc.toString({ lineWidth: 0, indentSeq: false }));
    expect(out.code).toBe(1);
    const owners = itemsOf(out.out)
      .map((i) => i.metadata.annotations?.['render-clusterclass.dev/cluster'])
      .filter(Boolean);
    const firstOwners = itemsOf(first.out)
      .map((i) => i.metadata.annotations?.['render-clusterclass.dev/cluster'])
      .filter(Boolean);
    expect(owners.filter((o) => o === 'fleet/c00000')).toEqual(firstOwners.filter((o) => o === 'fleet/c00000'));
    expect(owners).not.toContain('fleet/c00001');
    expect(owners.filter((o) => o === 'fleet/c00002').length).toBe(
      firstOwners.filter((o) => o === 'fleet/c00002').length,
    );
  });

  it('does not count earlier outputs against the input-size limit', async () => {
    const input = fleetResourceList(3);
    const again = asKptWouldSend((await fn(input)).out);
    const limits = (maxInputBytes: number) => ({ ...DEFAULT_READ_LIMITS, maxInputBytes });
    const limit = Math.ceil(input.length * 1.2);
    expect(again.length).toBeGreaterThan(limit * 1.5);
    expect(readResourceList(again, limits(limit)).ok).toBe(true);
    // The limit still applies to the rest.
    const rest = cutEarlierOutputs(again)!.rest;
    const over = readResourceList(again, limits(rest.length - 1));
    expect(!over.ok && over.message).toContain('input is too large');
  });

  it.skipIf(!haveRealWorldFixtures)('matches the slow path on every real-world fixture', async () => {
    const config = { mode: 'expand', skipExternalPatches: 'true' };
    for (const { file, text } of realWorldResourceLists(config)) {
      const first = await fn(text);
      const again = asKptWouldSend(first.out, config);
      const fast = await fn(again);
      const slow = await fn(again.replace(DIGEST, ''));
      expect(fast.code, file).toBe(slow.code);
      expect(itemsOf(fast.out), file).toEqual(itemsOf(slow.out));
      expect(resultsOf(fast.out), file).toEqual(resultsOf(slow.out));
    }
  });
});
