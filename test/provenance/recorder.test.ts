/**
 * The provenance recorder (src/provenance): origins follow values as the stages move them —
 * copied subtrees keep their source with the path extended, list inserts and removals shift the
 * items after them, a later set wins — and the stages that set values report to it: CRD
 * defaulting, upgrade sequencing, and (for the coming Runtime SDK work) an external patch applied
 * through the same JSON patch observer as inline patches. Explain names Cluster and ClusterClass
 * fields as the input wrote them, through the v1beta1 conversion's own rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import { asObject } from '../../src/core/json.js';
import { OriginRecorder } from '../../src/provenance/recorder.js';
import type { ExternalPatchSource, Source } from '../../src/provenance/sources.js';
import { applyJsonPatch, recordJsonPatchEffect, type JsonPatchEffect } from '../../src/patches/jsonpatch.js';
import { describeSource } from '../../src/provenance/format.js';
import { applyGeneratedPatches } from '../../src/patches/external.js';
import { inputFieldOf } from '../../src/api/conversion/index.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { fixtureCrdsMissing, loadFixtureCrds } from '../helpers/fixture-crds.js';
import { config, hasShared, itemsOf, readItems, sharedFixtures } from '../explain/helpers.js';

const template: JsonObject = {
  apiVersion: 'example.com/v1',
  kind: 'WidgetTemplate',
  metadata: { name: 'w' },
  spec: { template: { spec: { list: ['a', 'b', 'c'], obj: { x: 1 } } } },
};
const T = { apiVersion: 'example.com/v1', kind: 'WidgetTemplate', name: 'w' };
const fromT = (path: string): Source => ({ kind: 'template', template: T, path });
const fixed = (detail: string): Source => ({ kind: 'fixed', detail });

describe('OriginRecorder', () => {
  it('a copied subtree keeps its source, the path extended below it; a later set wins', () => {
    const rec = new OriginRecorder();
    const obj: JsonObject = {};
    rec.fromTemplate(template, ['spec', 'template', 'spec'], obj, ['spec']);
    rec.set(obj, ['spec', 'obj', 'x'], fixed('mine'));
    expect(rec.sourceOf(obj, ['spec', 'list', 2])).toEqual(fromT('spec.template.spec.list[2]'));
    expect(rec.sourceOf(obj, ['spec', 'obj', 'x'])).toEqual(fixed('mine'));
    expect(rec.sourceOf(obj, ['spec', 'obj', 'x', 'below'])).toEqual(fixed('mine'));
    expect(rec.sourceOf(obj, ['metadata'])).toBeUndefined();
  });

  it('inserting into and removing from a list shifts the items after it', () => {
    const rec = new OriginRecorder();
    const obj: JsonObject = {};
    rec.fromTemplate(template, [], obj, []);
    const list = ['spec', 'template', 'spec', 'list'];
    rec.insert(obj, list, 0, 3, fixed('inserted'));
    expect([0, 1, 2, 3].map((i) => rec.sourceOf(obj, [...list, i]))).toEqual([
      fixed('inserted'),
      fromT('spec.template.spec.list[0]'),
      fromT('spec.template.spec.list[1]'),
      fromT('spec.template.spec.list[2]'),
    ]);
    rec.remove(obj, [...list, 1], 4);
    expect([0, 1, 2].map((i) => rec.sourceOf(obj, [...list, i]))).toEqual([
      fixed('inserted'),
      fromT('spec.template.spec.list[1]'),
      fromT('spec.template.spec.list[2]'),
    ]);
  });

  it('copy-on-write successors and written-back objects keep origins and the patches considered', () => {
    const rec = new OriginRecorder();
    const a: JsonObject = {};
    const b: JsonObject = {};
    const c: JsonObject = {};
    rec.set(a, ['spec'], fixed('a'));
    rec.considered(a, { patch: 'p', patchIndex: 0, definitions: [0], enabled: true });
    rec.moved(a, b);
    rec.writtenBack(b, c);
    expect(rec.sourceOf(b, ['spec', 'x'])).toEqual(fixed('a'));
    expect(rec.patchesOf(c)).toEqual([{ patch: 'p', patchIndex: 0, definitions: [0], enabled: true }]);
  });

  it('a Cluster field the webhook defaulted carries the note wherever it is read', () => {
    const rec = new OriginRecorder();
    const obj: JsonObject = {};
    rec.clusterDefault('spec.topology.version', 'with the "v" prefix the Cluster defaulting webhook adds');
    rec.set(obj, ['spec', 'version'], { kind: 'topology', path: 'spec.topology.version' });
    rec.set(obj, ['spec', 'replicas'], { kind: 'topology', path: 'spec.topology.controlPlane.replicas' });
    expect(rec.sourceOf(obj, ['spec', 'version'])).toEqual({
      kind: 'topology',
      path: 'spec.topology.version',
      note: 'with the "v" prefix the Cluster defaulting webhook adds',
    });
    expect(rec.sourceOf(obj, ['spec', 'replicas'])).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.replicas',
    });
  });

  /** `ops` applied to a copy of the template with the observer, each effect recorded as that operation of an external patch. */
  function patchRecorded(ops: { op: string; path: string; value?: number | string }[]) {
    const rec = new OriginRecorder();
    const doc = structuredClone(template);
    rec.fromTemplate(template, [], doc, []);
    const effects: [number, JsonPatchEffect][] = [];
    const r = applyJsonPatch(doc, ops, (i, e) => effects.push([i, e]));
    expect(r.ok).toBe(true);
    const patched = r.ok ? (r.doc as JsonObject) : {};
    rec.copy(doc, [], patched, []);
    const source = (i: number): ExternalPatchSource => ({
      kind: 'externalPatch',
      patch: 'ext',
      patchIndex: 0,
      extension: 'generate-patches.my-extension',
      op: ops[i]!.op,
      operationIndex: i,
      opPath: ops[i]!.path,
    });
    for (const [i, e] of effects) recordJsonPatchEffect(rec, patched, e, source(i));
    return {
      effects: effects.map(([, e]) => e),
      patched,
      source,
      sourceOf: (path: (string | number)[]) => rec.sourceOf(patched, ['spec', 'template', 'spec', ...path]),
    };
  }

  it('an external patch (Runtime SDK GeneratePatches response) is attributed through the JSON patch observer', () => {
    const { effects, source, sourceOf } = patchRecorded([
      { op: 'add', path: '/spec/template/spec/list/1', value: 'z' },
      { op: 'replace', path: '/spec/template/spec/obj/x', value: 2 },
    ]);
    expect(effects).toEqual([
      { op: 'add', path: ['spec', 'template', 'spec', 'list', 1], listLength: 3 },
      { op: 'replace', path: ['spec', 'template', 'spec', 'obj', 'x'] },
    ]);
    expect(sourceOf(['list', 1])).toEqual(source(0));
    expect(sourceOf(['list', 2])).toEqual(fromT('spec.template.spec.list[1]'));
    expect(sourceOf(['obj', 'x'])).toEqual(source(1));
    expect(describeSource(source(1))).toBe(
      'external patch "ext" (spec.patches[0], extension generate-patches.my-extension): operations[1] replace /spec/template/spec/obj/x',
    );
  });

  it('a removed list item shifts the items after it back; a replaced item or an added key shifts nothing (RFC 6902 §4.2, §4.3, §4.1)', () => {
    const { patched, source, sourceOf } = patchRecorded([
      { op: 'remove', path: '/spec/template/spec/list/0' },
      { op: 'replace', path: '/spec/template/spec/list/0', value: 'r' },
      { op: 'add', path: '/spec/template/spec/obj/y', value: 1 },
    ]);
    expect(patched.spec).toEqual({ template: { spec: { list: ['r', 'c'], obj: { x: 1, y: 1 } } } });
    expect(sourceOf(['list', 0])).toEqual(source(1));
    expect(sourceOf(['list', 1])).toEqual(fromT('spec.template.spec.list[2]'));
    expect(sourceOf(['obj', 'y'])).toEqual(source(2));
    expect(sourceOf(['obj', 'x'])).toEqual(fromT('spec.template.spec.obj.x'));
  });
});

describe('external patches (GeneratePatches answers) are attributed to the patch and its extension', () => {
  const source = {
    kind: 'externalPatch' as const,
    patch: 'ext',
    patchIndex: 2,
    extension: 'generate-patches.my-extension',
  };
  const answer = (patchType: string, patch: string) => ({
    status: 'Success',
    message: '',
    items: [{ uid: 'u1', patchType, patch }],
  });
  const apply = (patchType: string, patch: string) => {
    const rec = new OriginRecorder();
    const doc = structuredClone(template);
    rec.fromTemplate(template, [], doc, []);
    const out = applyGeneratedPatches(answer(patchType, patch), [doc], ['u1'], { rec, source });
    if (!out.ok) throw new Error(out.error);
    return { rec, patched: out.templates[0]! };
  };
  it('a JSONPatch answer: each operation with its index; list items after an insert keep theirs', () => {
    const { rec, patched } = apply(
      'JSONPatch',
      JSON.stringify([
        { op: 'add', path: '/spec/template/spec/list/0', value: 'z' },
        { op: 'remove', path: '/spec/template/spec/obj/x' },
      ]),
    );
    expect(patched.spec).toEqual({ template: { spec: { list: ['z', 'a', 'b', 'c'], obj: {} } } });
    expect(rec.sourceOf(patched, ['spec', 'template', 'spec', 'list', 0])).toEqual({
      ...source,
      op: 'add',
      operationIndex: 0,
      opPath: '/spec/template/spec/list/0',
    });
    expect(rec.sourceOf(patched, ['spec', 'template', 'spec', 'list', 1])).toEqual(fromT('spec.template.spec.list[0]'));
    expect(rec.sourceOf(patched, ['spec', 'template', 'spec', 'obj'])).toEqual(fromT('spec.template.spec.obj'));
  });
  it('a JSONMergePatch answer (RFC 7386): merged members keep their origins, replaced values are the patch', () => {
    const { rec, patched } = apply(
      'JSONMergePatch',
      JSON.stringify({ spec: { template: { spec: { list: ['n'], obj: { y: 2 } } } } }),
    );
    expect(patched.spec).toEqual({ template: { spec: { list: ['n'], obj: { x: 1, y: 2 } } } });
    expect(rec.sourceOf(patched, ['spec', 'template', 'spec', 'list', 0])).toEqual(source);
    expect(rec.sourceOf(patched, ['spec', 'template', 'spec', 'obj', 'x'])).toEqual(fromT('spec.template.spec.obj.x'));
    expect(rec.sourceOf(patched, ['spec', 'template', 'spec', 'obj', 'y'])).toEqual(source);
    expect(describeSource(source)).toBe(
      'external patch "ext" (spec.patches[2], extension generate-patches.my-extension)',
    );
  });
});

describe.skipIf(!hasShared || fixtureCrdsMissing())('stages report their origins', () => {
  it('CRD defaulting: a field the CRD schema defaulted in a template is attributed to that default', () => {
    // capa-ci-default: the AWSClusterTemplate sets controlPlaneLoadBalancer without `scheme`, which the
    // v1beta2 AWSClusterTemplate CRD defaults to internet-facing (awsclustertemplates.yaml).
    const items = readItems(join(sharedFixtures, 'capa-ci-default.yaml'));
    const out = runPipeline(items, config({ skipExternalPatches: true, provenance: true }), [], {
      crds: loadFixtureCrds(),
    });
    const report = out.generated.find((g) => g.cluster === 'default/capa-ci-1')!.provenance!;
    const awsCluster = report.objects.find((o) => o.ref.kind === 'AWSCluster')!;
    expect(awsCluster.fields.find((f) => f.path === 'spec.controlPlaneLoadBalancer.scheme')).toEqual({
      path: 'spec.controlPlaneLoadBalancer.scheme',
      value: 'internet-facing',
      source: {
        kind: 'default',
        detail: 'default in the schema of CRD awsclustertemplates.infrastructure.cluster.x-k8s.io (v1beta2)',
      },
    });
    // Without the CRDs the field is not there at all.
    const plain = runPipeline(items, config({ skipExternalPatches: true, provenance: true }));
    const bare = plain.generated
      .find((g) => g.cluster === 'default/capa-ci-1')!
      .provenance!.objects.find((o) => o.ref.kind === 'AWSCluster')!;
    expect(bare.fields.some((f) => f.path === 'spec.controlPlaneLoadBalancer.scheme')).toBe(false);
  });

  it("templates read as stored: a field CAPA's defaulting webhook wrote is attributed to the webhook, one the CRD then defaulted below it to the CRD", () => {
    // webhooks/awsclustertemplate_webhook.go → SetDefaults_AWSClusterSpec (identityRef), the Go round trip
    // (network.vpc), then the CRD default availabilityZoneUsageLimit 3 (awsclustertemplates.yaml).
    const items = readItems(join(sharedFixtures, 'capa-ci-default.yaml'));
    const out = runPipeline(items, config({ skipExternalPatches: true, provenance: true }), [], {
      crds: loadFixtureCrds(),
    });
    const awsCluster = (cluster: string) =>
      out.generated.find((g) => g.cluster === cluster)!.provenance!.objects.find((o) => o.ref.kind === 'AWSCluster')!;
    const webhook = {
      kind: 'default',
      detail:
        'defaulting webhook kubernetes-sigs/cluster-api-provider-aws webhooks/awsclustertemplate_webhook.go (SetObjectDefaults_AWSClusterTemplate)',
    };
    const fields = awsCluster('default/capa-ci-1').fields;
    expect(fields.find((f) => f.path === 'spec.identityRef.name')).toEqual({
      path: 'spec.identityRef.name',
      value: 'default',
      source: webhook,
    });
    expect(fields.find((f) => f.path === 'spec.network.vpc.availabilityZoneUsageLimit')).toEqual({
      path: 'spec.network.vpc.availabilityZoneUsageLimit',
      value: 3,
      source: {
        kind: 'default',
        detail: 'default in the schema of CRD awsclustertemplates.infrastructure.cluster.x-k8s.io (v1beta2)',
      },
    });
    expect(fields.some((f) => f.path.startsWith('spec.controlPlaneEndpoint'))).toBe(false);
    const limit = awsCluster('default/capa-ci-selfhosted').fields.find(
      (f) => f.path === 'spec.network.vpc.availabilityZoneUsageLimit',
    )!;
    expect(limit.value).toBe(1);
    expect(limit.source).toMatchObject({ kind: 'patch', patch: 'limitAZ', op: 'replace' });
  });
});

describe('upgrade sequencing reports why a version is held', () => {
  it('workers kept at the current version are attributed to upgrade sequencing, with its reason', () => {
    // CAPI computeMachineDeploymentVersion: workers wait while the control plane upgrades.
    const classText = readFileSync(join(import.meta.dirname, '..', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');
    const clusterAt = (version: string) =>
      YAML.stringify({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: 'c1', namespace: 'fleet' },
        spec: {
          topology: {
            classRef: { name: 'fleet' },
            version,
            workers: { machineDeployments: [{ class: 'general', name: 'md-0' }] },
          },
        },
      });
    const out = runPipeline(
      itemsOf(`${classText}\n---\n${clusterAt('v1.31.2')}`),
      config({ provenance: true, mode: 'preview' }),
      [],
      {
        previousInputs: itemsOf(`${classText}\n---\n${clusterAt('v1.30.5')}`),
      },
    );
    const objects = out.generated[0]!.provenance!.objects;
    const cp = objects.find((o) => o.role === 'ControlPlane')!;
    const md = objects.find((o) => o.role === 'MachineDeployment md-0')!;
    expect(cp.fields.find((f) => f.path === 'spec.version')).toMatchObject({
      value: 'v1.31.2',
      source: { kind: 'topology', path: 'spec.topology.version' },
    });
    const held = md.fields.find((f) => f.path === 'spec.template.spec.version')!;
    expect(held.value).toBe('v1.30.5');
    expect(held.source.kind).toBe('builtin');
    expect(asObject(held.source as never)?.detail).toMatch(
      /^Kubernetes version v1\.30\.5 chosen by upgrade sequencing on the way to spec\.topology\.version v1\.31\.2: MachineDeployment .* stays at v1\.30\.5 \(target v1\.31\.2\): waiting for the control plane/,
    );
  });
});

describe('fields named as the input wrote them (the v1beta1 conversion undone)', () => {
  const v1 = (controlPlane: JsonObject): JsonObject => ({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Cluster',
    metadata: { name: 'c' },
    spec: { topology: { class: 'k', version: 'v1.30.0', controlPlane } },
  });
  it('renamed fields, durations, and the spelling the document actually has', () => {
    // v1beta1 ControlPlaneTopology: nodeDrainTimeout (a duration), metadata.labels; the proposal-era `labels` folded into metadata.
    expect(
      inputFieldOf(v1({ nodeDrainTimeout: '90s' }), 'spec.topology.controlPlane.deletion.nodeDrainTimeoutSeconds'),
    ).toEqual({ path: 'spec.topology.controlPlane.nodeDrainTimeout', seconds: true });
    expect(
      inputFieldOf(v1({ metadata: { labels: { a: 'x' } } }), 'spec.topology.controlPlane.metadata.labels.a'),
    ).toEqual({ path: 'spec.topology.controlPlane.metadata.labels.a', seconds: false });
    expect(inputFieldOf(v1({ labels: { a: 'x' } }), 'spec.topology.controlPlane.metadata.labels.a')).toEqual({
      path: 'spec.topology.controlPlane.labels.a',
      seconds: false,
    });
    expect(inputFieldOf(v1({}), 'spec.topology.classRef.name')).toEqual({
      path: 'spec.topology.class',
      seconds: false,
    });
    const v2 = { ...v1({}), apiVersion: 'cluster.x-k8s.io/v1beta2' };
    expect(inputFieldOf(v2, 'spec.topology.controlPlane.deletion.nodeDrainTimeoutSeconds')).toEqual({
      path: 'spec.topology.controlPlane.deletion.nodeDrainTimeoutSeconds',
      seconds: false,
    });
  });
});
