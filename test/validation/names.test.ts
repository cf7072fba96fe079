/**
 * Names the API server accepts: a Cluster's name is a lowercase RFC 1123 subdomain (the API
 * server's rule for custom resources) and a label value (the Cluster webhook's), checked before
 * anything is rendered or written for it; a name a class's naming template makes for one Cluster
 * is checked as well. Through the real CLI (`render`, `render -o`) and the KRM function.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, run } from '../helpers/tools.js';
import { fleetCluster, fleetDocs } from '../helpers/scenario.js';

const CLASS = readFileSync(join(repoRoot, 'test', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/** A directory with the fleet class and one file per Cluster name. */
function fleet(names: readonly string[], classText = CLASS): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-names-'));
  writeFileSync(join(dir, 'class.yaml'), classText);
  names.forEach((name, i) => writeFileSync(join(dir, `c${i}.yaml`), YAML.stringify(fleetCluster(name))));
  return dir;
}

const render = (...args: string[]) => run(binPath, ['render', ...args]);

describe('Cluster names as the API server and the Cluster webhook accept them', () => {
  it.each([
    ['Foo', SUBDOMAIN],
    ['foo_bar', SUBDOMAIN],
    ['a_b', SUBDOMAIN],
    ['-foo', SUBDOMAIN],
    ['foo.', SUBDOMAIN],
    ['x'.repeat(64), 'must be a valid label value must be no more than 63 characters'],
  ])('%s is an error result at metadata.name; the valid Cluster next to it renders', (name, message) => {
    const dir = fleet([name, 'ok']);
    const r = render(dir, '--format', 'resourcelist');
    expect(r.code).toBe(1);
    const list = YAML.parse(r.stdout);
    const errors = list.results.filter((x: any) => x.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(`Invalid value: ${JSON.stringify(name)}: ${message}`),
        resourceRef: expect.objectContaining({ kind: 'Cluster', name }),
        field: { path: 'metadata.name' },
      }),
    ]);
    const owners = new Set(
      list.items.map((o: any) => o.metadata.labels?.['cluster.x-k8s.io/cluster-name']).filter(Boolean),
    );
    expect([...owners]).toEqual(['ok']);
  });

  it('63 characters, dots and digits are fine', () => {
    const r = render(fleet(['a'.repeat(63), 'web.eu-1', '0x']));
    expect(r.code, r.stderr).toBe(0);
  });

  it('Foo and foo are never both written (one file on a case-insensitive file system), whatever the order', () => {
    for (const names of [
      ['Foo', 'foo'],
      ['foo', 'Foo'],
    ]) {
      const dir = fleet(names);
      const out = join(dir, '..', `${dir.split('/').pop()}-out`);
      const r = render(dir, '-o', out);
      expect(r.code).toBe(1);
      expect(readdirSync(join(out, 'fleet'))).toEqual(['foo.yaml']);
      expect(existsSync(join(out, 'fleet', 'Foo.yaml'))).toBe(false);
    }
  });

  it('the KRM function: no object is generated for Foo, and its error names metadata.name', () => {
    const items = [...fleetDocs(), fleetCluster('Foo'), fleetCluster('foo')];
    const r = run(binPath, [], {
      input: YAML.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items }),
    });
    expect(r.code).toBe(1);
    const list = YAML.parse(r.stdout);
    const paths = new Set(
      list.items
        .map((o: any) => o.metadata.annotations?.['internal.config.kubernetes.io/path'])
        .filter((p: string | undefined) => p?.startsWith('rendered/')),
    );
    expect([...paths]).toEqual(['rendered/fleet/foo.yaml']);
    expect(
      list.results.filter((x: any) => x.severity === 'error').map((x: any) => [x.resourceRef.name, x.field.path]),
    ).toEqual([['Foo', 'metadata.name']]);
  });

  it('a naming template that makes a name the API server refuses for one Cluster fails that Cluster only', () => {
    // The class webhook renders the template for a sample Cluster ("cluster"): valid there.
    const template = '{{ if eq .cluster.name "odd-one" }}Odd{{ else }}{{ .cluster.name }}{{ end }}-cp';
    const classText = CLASS.replace(/( {2}controlPlane:\n)/, `$1    naming: {template: '${template}'}\n`);
    expect(classText).toContain(template);
    const r = render(fleet(['odd-one', 'even-one'], classText), '--format', 'resourcelist');
    expect(r.code).toBe(1);
    const list = YAML.parse(r.stdout);
    expect(list.results.filter((x: any) => x.severity === 'error')).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(
          `failed to generate name for ControlPlane: metadata.name: Invalid value: "Odd-cp": ${SUBDOMAIN}`,
        ),
        // CAPI admits the class and that Cluster; creating its control plane fails.
        resourceRef: expect.objectContaining({ kind: 'Cluster', name: 'odd-one' }),
        field: { path: 'metadata.name' },
      }),
    ]);
    expect(list.items.filter((o: any) => o.kind === 'KubeadmControlPlane').map((o: any) => o.metadata.name)).toEqual([
      'even-one-cp',
    ]);
  });
});
