/**
 * `render --format json`: the manifests `render` prints, as one JSON document (a v1 List), through
 * the real CLI; the same bytes on every run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { fleetCluster, fleetDocs } from '../helpers/scenario.js';
import { binPath, run } from '../helpers/tools.js';

const dir = mkdtempSync(join(tmpdir(), 'rcc-json-'));
writeFileSync(
  join(dir, 'classes.yaml'),
  fleetDocs()
    .map((d) => YAML.stringify(d))
    .join('---\n'),
);
for (const name of ['b', 'a'])
  writeFileSync(
    join(dir, `${name}.yaml`),
    YAML.stringify(fleetCluster(name, (t) => (t.workers.machineDeployments[0].replicas = 2))),
  );

describe('render --format json', () => {
  const json = run(binPath, ['render', dir, '--format', 'json']);
  const yaml = run(binPath, ['render', dir]);

  it('is one JSON v1 List of the objects the manifests format prints, in the same order', () => {
    expect([json.code, json.stderr]).toEqual([0, '']);
    const list = JSON.parse(json.stdout);
    expect(Object.keys(list)).toEqual(['apiVersion', 'kind', 'items']);
    expect([list.apiVersion, list.kind]).toEqual(['v1', 'List']);
    expect(list.items).toEqual(YAML.parseAllDocuments(yaml.stdout).map((d) => d.toJS()));
    expect(
      list.items
        .filter((o: { kind: string }) => o.kind === 'MachineDeployment')
        .map((o: { spec: { replicas: number } }) => o.spec.replicas),
    ).toEqual([2, 2]);
  });

  it('is indented by two spaces, ends with a newline, and is byte-identical across runs', () => {
    expect(json.stdout).toBe(`${JSON.stringify(JSON.parse(json.stdout), null, 2)}\n`);
    expect(run(binPath, ['render', dir, '--format=json']).stdout).toBe(json.stdout);
  });

  it('prints to stdout only: with -o it is a usage error', () => {
    const out = run(binPath, ['render', dir, '--format', 'json', '-o', join(dir, 'out')]);
    expect([out.code, out.stderr]).toEqual([
      3,
      'render-clusterclass render: --format json prints to stdout; it does not go with -o (see render-clusterclass render --help)\n',
    ]);
  });

  it('prints nothing on error, like every format an applier reads', () => {
    writeFileSync(
      join(dir, 'broken.yaml'),
      YAML.stringify(fleetCluster('broken', (t) => (t.classRef.name = 'no-such-class'))),
    );
    const out = run(binPath, ['render', dir, '--format', 'json']);
    expect([out.code, out.stdout]).toEqual([1, '']);
  });
});
