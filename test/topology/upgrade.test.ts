/**
 * Upgrade sequencing (spec §2.8, §8.3): with a current state (a previous render and/or observed
 * live objects) the control plane moves first, one step of the upgrade plan per render; workers
 * follow once observed state shows the control plane stable, honouring defer/hold annotations
 * and the upgrade concurrency. Expectations are derived from CAPI's
 * exp/topology/desiredstate/{desired_state,upgrade_plan}.go, not from our output.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import fc from 'fast-check';
import type { JsonObject } from '../../src/core/model.js';
import { DEFAULT_CONFIG, applySettings, type RenderConfig } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import type { Result } from '../../src/core/result.js';
import { runPipeline, type PipelineExtras } from '../../src/pipeline/run.js';
import { compareVersions, parseTolerant } from '../../src/core/go/primitives.js';
import { runFunction, runRender } from '../../src/cli/render.js';
import { fakeIO } from '../helpers/io.js';
import { observedControlPlane } from '../helpers/scenario.js';
import type { InputItem } from '../../src/krm/item.js';

const classText = readFileSync(join(import.meta.dirname, '..', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');

/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = any;

interface ClusterOptions {
  version: string;
  mds?: { name: string; annotations?: Record<string, string> }[];
  annotations?: Record<string, string>;
}

function cluster({
  version,
  mds = [{ name: 'md-0' }, { name: 'md-1' }, { name: 'md-2' }],
  annotations,
}: ClusterOptions): JsonObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'fleet', ...(annotations ? { annotations } : {}) },
    spec: {
      topology: {
        classRef: { name: 'fleet' },
        version,
        workers: {
          machineDeployments: mds.map((m) => ({
            class: 'general',
            name: m.name,
            ...(m.annotations ? { metadata: { annotations: m.annotations } } : {}),
          })),
        },
      },
    },
  } as JsonObject;
}

/** Inputs as a plain document list (easier than text round trips). */
function itemsOf(docs: JsonObject[]): InputItem[] {
  const read = readYamlStream(docs.map((d) => YAML.stringify(d)).join('---\n'), 'in.yaml');
  if (!read.ok) throw new Error(read.message);
  return read.items;
}

function inputs(clusterDoc: JsonObject, classEdit?: (cc: Obj) => void): InputItem[] {
  const docs = YAML.parseAllDocuments(classText).map((d) => d.toJS()) as JsonObject[];
  if (classEdit) classEdit(docs.find((d) => d.kind === 'ClusterClass'));
  return itemsOf([...docs, clusterDoc]);
}

function config(settings: Record<string, unknown> = {}): RenderConfig {
  const c = applySettings(DEFAULT_CONFIG, { mode: 'preview', ...settings }, false);
  if (!c.ok) throw new Error(c.message);
  return c.config;
}

interface Rendered {
  controlPlane: string;
  machineDeployments: Record<string, string>;
  sequence: string[];
  errors: Result[];
}

function render(
  current: JsonObject,
  extras: PipelineExtras,
  settings: Record<string, unknown> = {},
  classEdit?: (cc: Obj) => void,
): Rendered {
  const out = runPipeline(inputs(current, classEdit), config(settings), [], extras);
  const objects = out.generated.flatMap((g) => g.objects) as Obj[];
  const cp = objects.find((o) => o.kind === 'KubeadmControlPlane');
  const mds = objects.filter((o) => o.kind === 'MachineDeployment');
  return {
    controlPlane: cp?.spec.version,
    machineDeployments: Object.fromEntries(
      mds.map((m) => [m.metadata.labels['topology.cluster.x-k8s.io/deployment-name'], m.spec.template.spec.version]),
    ),
    sequence: out.results
      .filter((r) => r.tags?.rule === 'upgrade-sequence')
      .map((r) => `${r.field?.path}: ${r.message}`),
    errors: out.results.filter((r) => r.severity === 'error'),
  };
}

function observedMachineDeployment(name: string, version: string, rolling = false): JsonObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: {
      name: `c1-${name}-xyz12`,
      namespace: 'fleet',
      generation: 2,
      labels: {
        'cluster.x-k8s.io/cluster-name': 'c1',
        'topology.cluster.x-k8s.io/owned': '',
        'topology.cluster.x-k8s.io/deployment-name': name,
      },
    },
    spec: { replicas: 2, template: { spec: { version } } },
    status: { observedGeneration: 2, replicas: 2, upToDateReplicas: rolling ? 1 : 2 },
  } as JsonObject;
}

const previous = (version: string, opts: Partial<ClusterOptions> = {}) => ({
  previousInputs: inputs(cluster({ version, ...opts })),
});

describe('compareVersions (CAPI version.Compare WithBuildTags)', () => {
  const cmp = (a: string, b: string) => compareVersions(parseTolerant(a)!, parseTolerant(b)!);
  it('orders by precedence, then build identifiers; 2 when they cannot be ordered', () => {
    expect(cmp('v1.30.1', 'v1.30.0')).toBe(1);
    expect(cmp('v1.30.0-rc.1', 'v1.30.0')).toBe(-1);
    expect(cmp('v1.30.0+build.2', 'v1.30.0+build.10')).toBe(-1);
    expect(cmp('v1.30.0+1', 'v1.30.0+abc')).toBe(-1);
    expect(cmp('v1.30.0+abc', 'v1.30.0+def')).toBe(2);
    expect(cmp('v1.30.0+a.1', 'v1.30.0+a')).toBe(1);
    expect(cmp('v1.30.0', 'v1.30.0')).toBe(0);
  });
});

describe('upgrade sequencing: control-plane-first (default)', () => {
  it('a new Cluster (no current state) gets the topology version everywhere', () => {
    const r = render(cluster({ version: 'v1.31.0' }), {});
    expect(r).toMatchObject({
      controlPlane: 'v1.31.0',
      machineDeployments: { 'md-0': 'v1.31.0', 'md-1': 'v1.31.0', 'md-2': 'v1.31.0' },
      sequence: [],
      errors: [],
    });
  });

  it('with only a previous render, the control plane moves and workers wait for observed state', () => {
    const r = render(cluster({ version: 'v1.31.0' }), previous('v1.30.0'));
    expect(r.errors).toEqual([]);
    expect(r.controlPlane).toBe('v1.31.0');
    expect(r.machineDeployments).toEqual({ 'md-0': 'v1.30.0', 'md-1': 'v1.30.0', 'md-2': 'v1.30.0' });
    expect(r.sequence[0]).toBe('spec.topology.version: control plane moves from v1.30.0 to v1.31.0');
    expect(r.sequence[1]).toMatch(
      /^spec\.topology\.workers\.machineDeployments\[0\]: MachineDeployment c1-md-0-\w+ \(topology md-0\) stays at v1\.30\.0 \(target v1\.31\.0\): waiting for the control plane to finish its upgrade to v1\.31\.0; workers follow once observed state shows it there \(export the control plane with kubectl get -o yaml and pass it with --observed DIR\)$/,
    );
    expect(r.sequence).toHaveLength(4);
  });

  it('once observed state shows the control plane done, workers follow one at a time (upgrade-concurrency 1)', () => {
    const observed = [
      observedControlPlane('v1.31.0', 'v1.31.0'),
      ...['md-0', 'md-1', 'md-2'].map((n) => observedMachineDeployment(n, 'v1.30.0')),
    ];
    const r = render(cluster({ version: 'v1.31.0' }), { ...previous('v1.30.0'), observed });
    expect(r.controlPlane).toBe('v1.31.0');
    expect(r.machineDeployments).toEqual({ 'md-0': 'v1.31.0', 'md-1': 'v1.30.0', 'md-2': 'v1.30.0' });
    expect(r.sequence).toEqual([
      'spec.topology.workers.machineDeployments[0]: MachineDeployment c1-md-0-xyz12 (topology md-0) moves from v1.30.0 to v1.31.0',
      'spec.topology.workers.machineDeployments[1]: MachineDeployment c1-md-1-xyz12 (topology md-1) stays at v1.30.0 (target v1.31.0): 1 worker(s) already upgrading, the limit is 1 (annotation topology.cluster.x-k8s.io/upgrade-concurrency)',
      'spec.topology.workers.machineDeployments[2]: MachineDeployment c1-md-2-xyz12 (topology md-2) stays at v1.30.0 (target v1.31.0): 1 worker(s) already upgrading, the limit is 1 (annotation topology.cluster.x-k8s.io/upgrade-concurrency)',
    ]);
  });

  it('observed state alone is a current state; a rolling worker counts toward the concurrency', () => {
    const observed = [
      observedControlPlane('v1.31.0', 'v1.31.0'),
      observedMachineDeployment('md-0', 'v1.31.0', true),
      observedMachineDeployment('md-1', 'v1.30.0'),
      observedMachineDeployment('md-2', 'v1.30.0'),
    ];
    const two = render(
      cluster({ version: 'v1.31.0', annotations: { 'topology.cluster.x-k8s.io/upgrade-concurrency': '2' } }),
      { observed },
    );
    expect(two.machineDeployments).toEqual({ 'md-0': 'v1.31.0', 'md-1': 'v1.31.0', 'md-2': 'v1.30.0' });
  });

  it('honours defer-upgrade on one entry and hold-upgrade-sequence on it and every later entry', () => {
    const observed = [
      observedControlPlane('v1.31.0', 'v1.31.0'),
      ...['md-0', 'md-1', 'md-2'].map((n) => observedMachineDeployment(n, 'v1.30.0')),
    ];
    const mds: ClusterOptions['mds'] = [
      { name: 'md-0', annotations: { 'topology.cluster.x-k8s.io/defer-upgrade': '' } },
      { name: 'md-1', annotations: { 'topology.cluster.x-k8s.io/hold-upgrade-sequence': '' } },
      { name: 'md-2' },
    ];
    const r = render(
      cluster({ version: 'v1.31.0', mds, annotations: { 'topology.cluster.x-k8s.io/upgrade-concurrency': '3' } }),
      { observed },
    );
    expect(r.machineDeployments).toEqual({ 'md-0': 'v1.30.0', 'md-1': 'v1.30.0', 'md-2': 'v1.30.0' });
    expect(r.sequence.map((s) => s.split(': ').slice(-1)[0])).toEqual([
      'annotation topology.cluster.x-k8s.io/defer-upgrade is set; remove it to let it upgrade',
      'annotation topology.cluster.x-k8s.io/hold-upgrade-sequence is set on it or on an earlier entry; remove it to continue the sequence',
      'annotation topology.cluster.x-k8s.io/hold-upgrade-sequence is set on it or on an earlier entry; remove it to continue the sequence',
    ]);
  });

  it('a control plane still upgrading keeps workers back, and a provisioning one keeps its own version', () => {
    const upgrading = render(cluster({ version: 'v1.31.0' }), {
      observed: [observedControlPlane('v1.31.0', 'v1.30.0'), observedMachineDeployment('md-0', 'v1.30.0')],
    });
    expect(upgrading.controlPlane).toBe('v1.31.0');
    expect(upgrading.machineDeployments['md-0']).toBe('v1.30.0');
    expect(upgrading.sequence.find((s) => s.includes('md-0'))).toContain(
      'waiting for the control plane to finish its upgrade to v1.31.0',
    );

    const provisioning = render(cluster({ version: 'v1.31.0' }), { observed: [observedControlPlane('v1.30.0')] });
    expect(provisioning.controlPlane).toBe('v1.30.0');
    expect(provisioning.sequence[0]).toContain('control plane stays at v1.30.0: it is still being provisioned');
  });

  it('workers rolling out keep the control plane from taking its next step', () => {
    const r = render(cluster({ version: 'v1.31.0' }), {
      observed: [observedControlPlane('v1.30.0', 'v1.30.0'), observedMachineDeployment('md-0', 'v1.30.0', true)],
    });
    expect(r.controlPlane).toBe('v1.30.0');
    expect(r.sequence[0]).toBe(
      'spec.topology.version: control plane stays at v1.30.0: workers are still rolling out; it moves on once they are done',
    );
  });

  it('without spec.kubernetesVersions a jump of two minors is refused by the webhook, before any upgrade plan', () => {
    // CAPI's Cluster webhook `validateTopologyVersionUpdate` refuses the update; the topology
    // controller, which would fail to compute an upgrade plan, never sees it.
    const r = render(cluster({ version: 'v1.32.0' }), previous('v1.30.0'));
    expect(r.errors.map((e) => [e.field?.path, e.message.split(': ').slice(0, 2).join(': ')])).toEqual([
      ['spec.topology.version', 'Invalid value: "v1.32.0"'],
    ]);
    expect(r.errors[0]!.message).toContain('version cannot be increased from "1.30.0" to "1.32.0"');
    expect(r.errors.find((e) => e.tags?.rule === 'upgrade-plan')).toBeUndefined();
  });

  it('with spec.kubernetesVersions the control plane walks the chain, the last patch of each minor, one step per render', () => {
    const versions = (cc: Obj) =>
      (cc.spec.kubernetesVersions = ['v1.30.0', 'v1.31.0', 'v1.31.2', 'v1.32.1', 'v1.33.0']);
    const first = render(
      cluster({ version: 'v1.33.0' }),
      { previousInputs: inputs(cluster({ version: 'v1.30.0' }), versions) },
      {},
      versions,
    );
    expect(first.errors).toEqual([]);
    expect(first.controlPlane).toBe('v1.31.2');
    expect(first.sequence[0]).toBe(
      'spec.topology.version: control plane moves from v1.30.0 to v1.31.2 (step 1 of 3: v1.31.2 → v1.32.1 → v1.33.0)',
    );
    // Workers may lag by up to three minors: they go straight to the target once the control plane is there.
    const observed = [observedControlPlane('v1.33.0', 'v1.33.0'), observedMachineDeployment('md-0', 'v1.30.0')];
    const last = render(cluster({ version: 'v1.33.0', mds: [{ name: 'md-0' }] }), { observed }, {}, versions);
    expect(last.machineDeployments['md-0']).toBe('v1.33.0');
  });

  it('workers that would end more than three minors behind take an intermediate step, and the control plane waits for them', () => {
    // A deferred worker stayed at v1.30 while the control plane walked to v1.33; the target is v1.34.
    const versions = (cc: Obj) =>
      (cc.spec.kubernetesVersions = ['v1.30.0', 'v1.31.0', 'v1.32.0', 'v1.33.0', 'v1.34.0']);
    const observed = [observedControlPlane('v1.33.0', 'v1.33.0'), observedMachineDeployment('md-0', 'v1.30.0')];
    const r = render(cluster({ version: 'v1.34.0', mds: [{ name: 'md-0' }] }), { observed }, {}, versions);
    expect(r.errors).toEqual([]);
    expect(r.controlPlane).toBe('v1.33.0');
    expect(r.machineDeployments['md-0']).toBe('v1.33.0');
    expect(r.sequence[0]).toBe(
      'spec.topology.version: control plane stays at v1.33.0: workers must reach v1.33.0 first (Kubernetes version skew)',
    );
  });

  it('uses the earlier outputs in a package (KRM function) as the previous render', () => {
    const before = runPipeline(inputs(cluster({ version: 'v1.30.0' })), config(), []);
    const earlierOutputs = before.generated.flatMap((g) => g.objects);
    const out = runPipeline(
      itemsOf([
        ...(YAML.parseAllDocuments(classText).map((d) => d.toJS()) as JsonObject[]),
        cluster({ version: 'v1.31.0' }),
        ...earlierOutputs,
      ]),
      config(),
      [],
    );
    const objects = out.generated.flatMap((g) => g.objects) as Obj[];
    expect(objects.find((o) => o.kind === 'KubeadmControlPlane').spec.version).toBe('v1.31.0');
    expect(objects.filter((o) => o.kind === 'MachineDeployment').map((m) => m.spec.template.spec.version)).toEqual([
      'v1.30.0',
      'v1.30.0',
      'v1.30.0',
    ]);
  });
});

describe('upgrade: all-at-once', () => {
  it('renders every object at the topology version whatever the current state', () => {
    const r = render(cluster({ version: 'v1.31.0' }), previous('v1.30.0'), { upgrade: 'all-at-once' });
    expect(r).toMatchObject({
      controlPlane: 'v1.31.0',
      machineDeployments: { 'md-0': 'v1.31.0', 'md-1': 'v1.31.0', 'md-2': 'v1.31.0' },
      sequence: [],
      errors: [],
    });
  });
});

// The same with the ResourceList sent as JSON (issue #13): the answer is the same YAML.
describe.each(['yaml', 'json'])('observed state and strict mode through the KRM function (%s in)', (format) => {
  const resourceList = (docs: JsonObject[], config?: JsonObject) => {
    const list = {
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: docs,
      ...(config ? { functionConfig: config } : {}),
    };
    return format === 'json' ? JSON.stringify(list, null, 2) : YAML.stringify(list);
  };
  const classDocs = () => YAML.parseAllDocuments(classText).map((d) => d.toJS()) as JsonObject[];
  const markObserved = (o: JsonObject): JsonObject => {
    const copy = structuredClone(o) as Obj;
    copy.metadata.annotations = {
      'render-clusterclass.dev/observed': 'true',
      'config.kubernetes.io/local-config': 'true',
    };
    return copy;
  };

  it('takes objects marked render-clusterclass.dev/observed as the live state and keeps them untouched', async () => {
    const observed = [observedControlPlane('v1.31.0', 'v1.31.0'), observedMachineDeployment('md-0', 'v1.30.0')].map(
      markObserved,
    );
    const io = fakeIO(
      resourceList([...classDocs(), cluster({ version: 'v1.31.0', mds: [{ name: 'md-0' }] }), ...observed]),
    );
    expect(await runFunction(io)).toBe(0);
    const out = YAML.parse(io.out) as Obj;
    const generatedMd = out.items.find(
      (i: Obj) => i.kind === 'MachineDeployment' && i.metadata.annotations?.['render-clusterclass.dev/cluster'],
    );
    expect(generatedMd.spec.template.spec.version).toBe('v1.31.0');
    const kept = out.items.filter((i: Obj) => i.metadata.annotations?.['render-clusterclass.dev/observed']);
    expect(kept).toEqual(observed);
  });

  it('strict: true reports warnings as errors and fails the run', async () => {
    // A skipped external patch is a warning (skipExternalPatches); strict makes it an error.
    const docs = classDocs() as Obj[];
    docs.find((d) => d.kind === 'ClusterClass')!.spec.patches = [
      { name: 'gen', external: { generatePatchesExtension: 'gen.example' } },
    ];
    const inputs = [...docs, cluster({ version: 'v1.31.0', mds: [{ name: 'md-0' }] })];
    const plain = fakeIO(
      resourceList(inputs, {
        apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
        kind: 'RenderClusterClass',
        spec: { skipExternalPatches: true },
      }),
    );
    expect(await runFunction(plain)).toBe(0);
    const warning = (YAML.parse(plain.out) as Obj).results.find((r: Obj) => r.severity === 'warning');
    expect(warning).toMatchObject({
      resourceRef: { kind: 'ClusterClass' },
      message: expect.stringContaining('skipped'),
    });

    const strict = fakeIO(
      resourceList(inputs, {
        apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
        kind: 'RenderClusterClass',
        spec: { skipExternalPatches: true, strict: true },
      }),
    );
    expect(await runFunction(strict)).toBe(1);
    const promoted = (YAML.parse(strict.out) as Obj).results.find((r: Obj) => r.message === warning.message);
    expect(promoted).toMatchObject({ severity: 'error', tags: { strict: 'true' }, resourceRef: warning.resourceRef });
  });
});

describe('render CLI: --previous DIR, --observed DIR, --upgrade, --strict', () => {
  const write = (dir: string, docs: JsonObject[]) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'all.yaml'), docs.map((d) => YAML.stringify(d)).join('---\n'));
  };
  const versionsIn = (text: string) =>
    (YAML.parseAllDocuments(text).map((d) => d.toJS()) as Obj[])
      .filter((o) => o.kind === 'KubeadmControlPlane' || o.kind === 'MachineDeployment')
      .map((o) => `${o.kind} ${o.spec.version ?? o.spec.template.spec.version}`);

  it('sequences from the previous inputs and the observed export', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rcc-upgrade-'));
    const classDocs = YAML.parseAllDocuments(classText).map((d) => d.toJS()) as JsonObject[];
    const mds = [{ name: 'md-0' }];
    write(join(root, 'now'), [...classDocs, cluster({ version: 'v1.31.0', mds })]);
    write(join(root, 'before'), [...classDocs, cluster({ version: 'v1.30.0', mds })]);
    write(join(root, 'live'), [
      observedControlPlane('v1.31.0', 'v1.31.0'),
      observedMachineDeployment('md-0', 'v1.30.0'),
    ]);

    const held = fakeIO();
    expect(await runRender([join(root, 'now'), '--previous', join(root, 'before')], held)).toBe(0);
    expect(versionsIn(held.out)).toEqual(['KubeadmControlPlane v1.31.0', 'MachineDeployment v1.30.0']);
    expect(held.err).toContain('stays at v1.30.0 (target v1.31.0)');

    const follow = fakeIO();
    expect(
      await runRender(
        [join(root, 'now'), '--previous', join(root, 'before'), '--observed', join(root, 'live')],
        follow,
      ),
    ).toBe(0);
    expect(versionsIn(follow.out)).toEqual(['KubeadmControlPlane v1.31.0', 'MachineDeployment v1.31.0']);

    const atOnce = fakeIO();
    expect(
      await runRender([join(root, 'now'), '--previous', join(root, 'before'), '--upgrade', 'all-at-once'], atOnce),
    ).toBe(0);
    expect(versionsIn(atOnce.out)).toEqual(['KubeadmControlPlane v1.31.0', 'MachineDeployment v1.31.0']);

    // --strict: the skipped external patch warning of a class becomes an error, and nothing is printed.
    write(join(root, 'ext'), [
      ...classDocs.map((d) =>
        d.kind === 'ClusterClass'
          ? {
              ...d,
              spec: {
                ...(d.spec as JsonObject),
                patches: [{ name: 'ext', external: { generatePatchesExtension: 'gen.example' } }],
              },
            }
          : d,
      ),
      cluster({ version: 'v1.31.0', mds }),
    ]);
    const lax = fakeIO();
    expect(await runRender([join(root, 'ext'), '--set', 'skipExternalPatches=true'], lax)).toBe(0);
    const strict = fakeIO();
    expect(await runRender([join(root, 'ext'), '--set', 'skipExternalPatches=true', '--strict'], strict)).toBe(1);
    expect(strict.out).toBe('');
    expect(strict.err).toMatch(/error.*external patch \(generatePatchesExtension "gen\.example"\) skipped/);
  });
});

describe('hostile current state', () => {
  it('never crashes or reports an internal error, whatever the observed and previous objects hold (fast-check seed 7)', () => {
    const junk = fc.oneof(
      fc.constant(null),
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
    );
    const version = fc.oneof(
      junk,
      fc.constantFrom('v1.30.0', 'v1.31.0', '1.31', 'v1.31.0+abc', 'v1.99.0-rc.1', 'v01.031.00', ''),
    );
    const observed = fc.record({
      cpSpec: version,
      cpStatus: fc.oneof(version, fc.constant({ versions: [{ version: 'v1.30.0' }, { version: 7 }] })),
      mdVersion: version,
      mdStatus: fc.dictionary(
        fc.constantFrom('replicas', 'upToDateReplicas', 'updatedReplicas', 'observedGeneration'),
        junk,
        { maxKeys: 4 },
      ),
      concurrency: fc.oneof(fc.constant(undefined), fc.constantFrom('0', '-1', 'x', '99999999999999999999', '2')),
    });
    fc.assert(
      fc.property(observed, (o) => {
        const cp = observedControlPlane('v1.31.0') as Obj;
        cp.spec.version = o.cpSpec;
        cp.status =
          typeof o.cpStatus === 'object' && o.cpStatus !== null && !Array.isArray(o.cpStatus)
            ? o.cpStatus
            : { version: o.cpStatus };
        const md = observedMachineDeployment('md-0', 'v1.30.0') as Obj;
        md.spec.template.spec.version = o.mdVersion;
        md.status = o.mdStatus;
        const annotations =
          o.concurrency === undefined ? undefined : { 'topology.cluster.x-k8s.io/upgrade-concurrency': o.concurrency };
        const out = runPipeline(
          inputs(cluster({ version: 'v1.31.0', mds: [{ name: 'md-0' }], ...(annotations ? { annotations } : {}) })),
          config(),
          [],
          { observed: [cp, md] },
        );
        expect(out.results.filter((r) => r.tags?.rule === 'internal')).toEqual([]);
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});

/**
 * Build metadata (`+rke2r1`, every RKE2 class uses it): CAPI parses versions with blang
 * `ParseTolerant` and orders them with `version.Compare(a, b, WithBuildTags())`
 * (util/version/version.go): equal cores are ordered by build identifiers, and two different
 * string identifiers give 2 ("different, order unknown"), which every `!= 0` / `>= 1` check in
 * exp/topology/desiredstate/upgrade_plan.go and internal/contract/controlplane.go `IsUpgrading`
 * treats as "not the same version".
 */
describe('upgrade sequencing with build-metadata versions (as CAPI util/version)', () => {
  const mds = [{ name: 'md-0' }];
  const stable = (v: string) => [observedControlPlane(v, v), observedMachineDeployment('md-0', v)];

  it('a Cluster at v1.36.0+rke2r1 renders every object at that version (new Cluster)', () => {
    const r = render(cluster({ version: 'v1.36.0+rke2r1', mds }), {});
    expect(r.errors).toEqual([]);
    expect(r.controlPlane).toBe('v1.36.0+rke2r1');
    expect(r.machineDeployments).toEqual({ 'md-0': 'v1.36.0+rke2r1' });
  });

  it('a minor upgrade between RKE2 versions moves the control plane first (GetUpgradePlanOneMinor)', () => {
    const r = render(cluster({ version: 'v1.36.0+rke2r1', mds }), { observed: stable('v1.35.3+rke2r1') });
    expect(r.controlPlane).toBe('v1.36.0+rke2r1');
    expect(r.machineDeployments).toEqual({ 'md-0': 'v1.35.3+rke2r1' });
    expect(r.sequence[0]).toBe('spec.topology.version: control plane moves from v1.35.3+rke2r1 to v1.36.0+rke2r1');
  });

  it('a build-only change (+rke2r1 → +rke2r2) is an upgrade step: Compare WithBuildTags gives 2, not 0', () => {
    const r = render(cluster({ version: 'v1.36.0+rke2r2', mds }), { observed: stable('v1.36.0+rke2r1') });
    expect(r.controlPlane).toBe('v1.36.0+rke2r2');
    expect(r.machineDeployments).toEqual({ 'md-0': 'v1.36.0+rke2r1' });
  });

  it('a control plane whose status reports another build of the same version is upgrading (IsUpgrading: Compare >= 1)', () => {
    const observed = [
      observedControlPlane('v1.36.0+rke2r2', 'v1.36.0+rke2r1'),
      observedMachineDeployment('md-0', 'v1.36.0+rke2r1'),
    ];
    const r = render(cluster({ version: 'v1.36.0+rke2r3', mds }), { observed });
    expect(r.controlPlane).toBe('v1.36.0+rke2r2');
    expect(r.sequence[0]).toBe(
      'spec.topology.version: control plane stays at v1.36.0+rke2r2: it is still upgrading (its status reports an older version); it moves on once it reports v1.36.0+rke2r2',
    );
  });

  it('workers follow a control plane that reached the build-tagged target (workers plan: the desired version)', () => {
    const observed = [
      observedControlPlane('v1.36.0+rke2r1', 'v1.36.0+rke2r1'),
      observedMachineDeployment('md-0', 'v1.35.3+rke2r1'),
    ];
    const r = render(cluster({ version: 'v1.36.0+rke2r1', mds }), { observed });
    expect(r.controlPlane).toBe('v1.36.0+rke2r1');
    expect(r.machineDeployments).toEqual({ 'md-0': 'v1.36.0+rke2r1' });
  });

  it('kubernetesVersions with build tags: the plan takes the last listed version of each minor (GetUpgradePlanFromClusterClassVersions)', () => {
    const versions = ['v1.35.3+rke2r1', 'v1.36.0+rke2r1', 'v1.36.2+rke2r1', 'v1.37.1+rke2r1'];
    const r = render(
      cluster({ version: 'v1.37.1+rke2r1', mds }),
      { observed: stable('v1.35.3+rke2r1') },
      {},
      (cc) => (cc.spec.kubernetesVersions = versions),
    );
    expect(r.errors).toEqual([]);
    expect(r.controlPlane).toBe('v1.36.2+rke2r1');
    expect(r.sequence[0]).toBe(
      'spec.topology.version: control plane moves from v1.35.3+rke2r1 to v1.36.2+rke2r1 (step 1 of 2: v1.36.2+rke2r1 → v1.37.1+rke2r1)',
    );
  });
});

describe('versions that differ in text alone (1.36.0, v1.36.0): pending by text, no plan by semver', () => {
  // CAPI: IsPendingUpgrade compares strings, ComputeUpgradePlan compares parsed versions and
  // returns early, so computeControlPlaneVersion / computeMachineDeploymentVersion error out.
  const mds = [{ name: 'md-0' }];
  const versions = fc.record({ minor: fc.integer({ min: 20, max: 40 }), patch: fc.integer({ min: 0, max: 12 }) });

  it('a control plane written without the v is an error, not a version-less control plane (fast-check seed 2802)', () => {
    fc.assert(
      fc.property(versions, ({ minor, patch }) => {
        const bare = `1.${minor}.${patch}`;
        const r = render(cluster({ version: `v${bare}`, mds }), {
          observed: [observedControlPlane(bare, bare), observedMachineDeployment('md-0', bare)],
        });
        expect(r.errors.map((e) => e.message)).toEqual([
          `cannot compute the control plane version if the control plane is pending upgrade and the upgrade plan is not set: it is at ${bare} and spec.topology.version is v${bare}, the same version written differently; CAPI compares the text, so write both alike`,
        ]);
      }),
      { seed: 2802, numRuns: 25 },
    );
  });

  it('a MachineDeployment written without the v under a stable control plane is an error (fast-check seed 2803)', () => {
    fc.assert(
      fc.property(versions, ({ minor, patch }) => {
        const bare = `1.${minor}.${patch}`;
        const r = render(cluster({ version: `v${bare}`, mds }), {
          observed: [observedControlPlane(`v${bare}`, `v${bare}`), observedMachineDeployment('md-0', bare)],
        });
        expect(r.errors.map((e) => [e.field?.path, e.message])).toEqual([
          [
            'spec.topology.workers.machineDeployments[0]',
            `cannot compute the machine deployment version if the machine deployment is pending upgrade and the upgrade plan is not set: it is at ${bare} and spec.topology.version is v${bare}, the same version written differently; CAPI compares the text, so write both alike`,
          ],
        ]);
      }),
      { seed: 2803, numRuns: 25 },
    );
  });
});
