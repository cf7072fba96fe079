/** `render-clusterclass explain`: syntax, output formats, filters and exit codes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExplainCommand } from '../../src/cli/explain.js';
import { fakeIO } from '../helpers/io.js';
import { QUICK_START_GATES, hasShared, quickStart } from './helpers.js';

const run = async (...args: string[]) => {
  const io = fakeIO();
  const code = await runExplainCommand(args, io);
  return { code, out: io.out, err: io.err };
};

describe('explain CLI: usage', () => {
  it('help and bad usage', async () => {
    expect(await run('--help')).toMatchObject({
      code: 0,
      out: expect.stringContaining('Usage: render-clusterclass explain CLUSTER'),
    });
    expect((await run()).code).toBe(3);
    expect((await run('c', '--format', 'yaml')).code).toBe(3);
    expect((await run('c', '--bogus')).code).toBe(3);
    expect((await run('c', 'Kind/name', 'extra')).code).toBe(3);
  });

  // Issue #13: exit 2 is an internal failure only; input that cannot be read is exit 1, with one
  // line; issue #14: it names the path as typed, in the words of ls.
  it('unreadable input is exit 1 (one line), a missing Cluster exit 1', async () => {
    const unreadable = await run('c', '-f', '/nonexistent/path.yaml');
    expect(unreadable.code).toBe(1);
    expect(unreadable.err).toBe('render-clusterclass explain: /nonexistent/path.yaml: no such file or directory\n');
    const dir = mkdtempSync(join(tmpdir(), 'rcc-explain-'));
    writeFileSync(join(dir, 'x.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
    const r = await run('c', '-f', dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('Cluster "c" not found');
  });
});

describe.skipIf(!hasShared)('explain CLI on the quick-start fixture', () => {
  it('text: one line per leaf, grouped per object, with the patches considered', async () => {
    const r = await run('qs-dev-1', 'KubeadmControlPlane', '-f', quickStart, ...QUICK_START_GATES);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^# Cluster default\/qs-dev-1, ClusterClass default\/quick-start\nKubeadmControlPlane default\/qs-dev-1-\w+ \(controlplane.cluster.x-k8s.io\/v1beta2, ControlPlane\)\n/,
    );
    expect(r.out).toMatch(/\n {2}spec\.replicas = 3 +← Cluster spec\.topology\.controlPlane\.replicas\n/);
    expect(r.out).toMatch(
      /\n {2}spec\.kubeadmConfigSpec\.files\[0\]\.path = .* +← patch "podSecurityStandard" \(spec\.patches\[11\]\.definitions\[0\]\.jsonPatches\[2\]: add \/spec\/template\/spec\/kubeadmConfigSpec\/files\); valueFrom\.template\n/,
    );
    expect(r.out).toContain(
      'spec.patches[1] "etcdImageTag": disabled (enabledIf "{{ ne .etcdImageTag \\"\\" }}" → false with etcdImageTag="" (Cluster spec.topology.variables[0].value))',
    );
    expect(r.out).not.toContain('UNATTRIBUTED');
  });

  it('--field filters to a path and its children; json output', async () => {
    const r = await run(
      'default/qs-custom',
      'kubeadmcontrolplane',
      '--field',
      'spec.kubeadmConfigSpec.clusterConfiguration.etcd',
      '--format',
      'json',
      '-f',
      quickStart,
      ...QUICK_START_GATES,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.cluster).toMatchObject({ name: 'qs-custom' });
    expect(out.objects).toHaveLength(1);
    expect(out.objects[0].fields).toEqual([
      {
        path: 'spec.kubeadmConfigSpec.clusterConfiguration.etcd.local.imageTag',
        value: '3.5.21-0',
        source: expect.objectContaining({
          kind: 'patch',
          patch: 'etcdImageTag',
          patchIndex: 1,
          definitionIndex: 0,
          jsonPatchIndex: 0,
          enabledIf: '{{ ne .etcdImageTag "" }}',
        }),
      },
    ]);
    const all = await run('qs-custom', '--field', 'spec.version', '-f', quickStart, ...QUICK_START_GATES);
    expect(all.code).toBe(0);
    expect(all.out.match(/spec\.version = "v1\.33\.5"/g)).toHaveLength(1); // only the control plane has spec.version
    expect(all.out).not.toContain('patches whose selectors');
  });

  it('object selection: ambiguous kind is exit 3, unknown object or field exit 1', async () => {
    const amb = await run('qs-dev-1', 'DevMachineTemplate', '-f', quickStart, ...QUICK_START_GATES);
    expect(amb.code).toBe(3);
    expect(amb.err).toContain('matches 2 objects');
    expect((await run('qs-dev-1', 'Secret/x', '-f', quickStart, ...QUICK_START_GATES)).code).toBe(1);
    expect(
      (await run('qs-dev-1', 'KubeadmControlPlane', '--field', 'spec.nope', '-f', quickStart, ...QUICK_START_GATES))
        .code,
    ).toBe(1);
    const byName = await run('qs-dev-1', 'MachineDeployment/qs-dev-1-md-0', '-f', quickStart, ...QUICK_START_GATES);
    expect(byName.code).toBe(0);
    expect(byName.out).toContain('spec.replicas = 2');
  });
});
