/**
 * YAML values as Kubernetes reads them (sigs.k8s.io/yaml over go-yaml v2; src/yaml/kubernetes.ts),
 * on a Proxmox-style ClusterClass and on the examples of issue 12. Expected values are what the
 * k8s-yaml-oracle README table says Kubernetes reads (../shared/tools/k8s-yaml-oracle/README.md),
 * and what go-yaml v2's own writer (encode.go `stringv`) quotes; the differential tests next to
 * this file check the same rule on thousands of scalars.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import { runFunction } from '../../src/cli/render.js';
import { DEFAULT_CONFIG } from '../../src/krm/config.js';
import { emitYaml } from '../../src/output/emit.js';
import { readYamlStream } from '../../src/krm/read.js';
import { stringifyDocuments } from '../../src/output/write.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { fakeIO } from '../helpers/io.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const read = (text: string): any => {
  const r = readYamlStream(text, 'input.yaml');
  if (!r.ok) throw new Error(r.message);
  return r.items[0]!.value;
};

describe('a Proxmox-style ClusterClass: enum [e1000, virtio, rtl8139, vmxnet3] and 1:20 values', () => {
  const file = 'proxmox-style.yaml';
  const input = readYamlStream(readFileSync(join(import.meta.dirname, 'fixtures', file), 'utf8'), file);
  if (!input.ok) throw new Error(input.message);
  const output = runPipeline(input.items, { ...DEFAULT_CONFIG, skipExternalPatches: true }, input.results);
  const objects = output.generated.flatMap((g) => g.objects) as any[];
  const find = (cluster: string, kind: string, from: string) =>
    objects.find(
      (o) =>
        o.metadata.labels['cluster.x-k8s.io/cluster-name'] === cluster &&
        o.kind === kind &&
        o.metadata.annotations?.['cluster.x-k8s.io/cloned-from-name'] === from,
    );

  it('reads the enum, the default and the example as the strings Kubernetes reads (e1000 was NaN, 1:20 was 80)', () => {
    const cc = input.items.find((i) => i.value.kind === 'ClusterClass')!.value as any;
    expect(cc.spec.variables[0].schema.openAPIV3Schema.enum).toEqual(['e1000', 'virtio', 'rtl8139', 'vmxnet3']);
    expect(cc.spec.variables[0].schema.openAPIV3Schema.example).toBe('e1000');
    expect(cc.spec.variables[1].schema.openAPIV3Schema.default).toBe('1:20');
    expect(cc.spec.variables[1].schema.openAPIV3Schema.example).toBe('1:20');
  });

  it('renders both Clusters with no error result', () => {
    expect(output.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(output.generated.map((g) => g.cluster).sort()).toEqual(['default/pve-1', 'default/pve-2']);
  });

  it('carries e1000 and 1:20 into the rendered objects as strings: from templates, variable values, defaults and template output', () => {
    expect(find('pve-1', 'ProxmoxMachineTemplate', 'cp-machine').spec.template.spec.network.default.model).toBe(
      'e1000',
    );
    expect(find('pve-1', 'ProxmoxMachineTemplate', 'worker-machine').spec.template.spec.network.default.model).toBe(
      'e1000',
    );
    expect(find('pve-2', 'ProxmoxMachineTemplate', 'worker-machine').spec.template.spec.network.default.model).toBe(
      'vmxnet3',
    );
    for (const cluster of ['pve-1', 'pve-2']) {
      const infra = find(cluster, 'ProxmoxCluster', 'cluster');
      expect(infra.spec.schedule).toBe('1:20');
      // pve-1 sets the value, pve-2 gets the default; both through `{{ .maintenanceWindow }}`.
      expect(infra.spec.maintenanceWindow).toBe('1:20');
    }
  });

  it('writes e1000 plain and 1:20 quoted, as go-yaml v2 writes them (encode.go quotes base-60 look-alikes)', () => {
    const text = stringifyDocuments(objects);
    expect(text).toContain('          model: e1000\n');
    expect(text).toContain('  schedule: "1:20"\n');
    expect(text).toContain('  maintenanceWindow: "1:20"\n');
  });
});

describe('issue 12 examples', () => {
  it('reads the oracle README table as Kubernetes does', () => {
    const cases: [string, unknown][] = [
      ['e1000', 'e1000'],
      ['1:20', '1:20'],
      ['12:30:00', '12:30:00'],
      ['yes', true],
      ['on', true],
      ['y', true],
      ['0x1F', 31],
      ['1_000', 1000],
      ['0o12', 10],
      ['012', 10],
      ['0b101', 5],
      ['1e3', 1000],
      ['1E3', 1000],
      ['.5', 0.5],
      ['+1', 1],
      ['1.', 1],
      ['2026-01-01', '2026-01-01'],
      ['~', null],
      ['Null', null],
      ['1e400', '1e400'],
    ];
    for (const [scalar, value] of cases) expect([scalar, read(`v: ${scalar}\n`).v]).toEqual([scalar, value]);
    expect(read('yes: a\n3.14159265358979: b\n.inf: c\n')).toEqual({ true: 'a', '3.1415927': 'b', '.inf': 'c' });
  });

  it('refuses what Kubernetes refuses (.inf/.nan values, null keys): an error result, the object passed through and not used', () => {
    const cases: [string, string][] = [
      ['v: .inf', 'json: unsupported value: +Inf at line 4, column 4'],
      ['v: -.inf', 'json: unsupported value: -Inf at line 4, column 4'],
      ['v: [.nan]', 'json: unsupported value: NaN at line 4, column 5'],
      ['~: a', 'Unsupported map key of type: <nil> at line 4, column 1'],
      ['Null: a', 'Unsupported map key of type: <nil> at line 4, column 1'],
    ];
    for (const [line, message] of cases) {
      const r = readYamlStream(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n${line}\n`, 'f.yaml');
      if (!r.ok) throw new Error(r.message);
      expect(r.items[0]!.ref).toBeUndefined();
      expect(r.results).toEqual([
        {
          severity: 'error',
          message: `f.yaml document 0: Kubernetes cannot read this object: ${message}`,
          resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'c' },
        },
      ]);
    }
  });

  it('quotes every string Kubernetes would read back as something else, and reads it back as the same string', () => {
    for (const s of [
      'yes',
      'on',
      'y',
      '0x1F',
      '012',
      '1_000',
      '1e3',
      '~',
      'null',
      'Yes',
      'OFF',
      'n',
      '0o12',
      '.5',
      '+1',
      '1.',
      '.inf',
      '<<',
    ]) {
      const text = emitYaml({ v: s, [s]: 'key', list: [s] });
      expect(text).toContain(`v: "${s}"\n`);
      expect(read(text)).toEqual({ v: s, [s]: 'key', list: [s] });
    }
    expect(emitYaml({ v: 'e1000', w: 'virtio' })).toBe('v: e1000\nw: virtio\n');
  });

  it('keeps the text of the scalars of pass-through items (0x1F stays 0x1F; e1000 was written as .nan)', async () => {
    const item =
      '  - apiVersion: example.com/v1\n    kind: Thing\n    metadata:\n      name: t\n    data:\n      a: 0x1F\n      b: 1_000\n      c: e1000\n      d: 1:20\n      e: Yes\n      f: ~\n      g: 0o12\n      h: 1.50\n';
    const io = fakeIO(`apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${item}`);
    expect(await runFunction(io)).toBe(0);
    expect(io.out).toBe(`apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${item}`);
  });

  it('keeps an int64 beyond ±2^53 exactly and reads a uint64 beyond int64 as the float64 the API server stores', () => {
    const r = readYamlStream(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nv: 9007199254740993\nw: -9223372036854775808\nx: 0x7FFFFFFFFFFFFFFF\nu: 9223372036854775808\n',
      'f.yaml',
    );
    if (!r.ok) throw new Error(r.message);
    const o = r.items[0]!.value as JsonObject;
    expect([o.v, o.w, o.x, o.u]).toEqual([9007199254740993n, -9223372036854775808n, 9223372036854775807n, 2 ** 63]);
    expect(r.results).toEqual([]);
    expect(emitYaml(o)).toContain('v: 9007199254740993\nw: -9223372036854775808\nx: 9223372036854775807\n');
    // A float64 beyond int64 is written as Go writes it, which the API server reads back as that float64.
    expect(emitYaml({ v: 2 ** 63 })).toBe('v: 9223372036854776000\n');
  });
});
