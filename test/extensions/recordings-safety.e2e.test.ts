/**
 * Issue 23, recordings: `--record-extensions DIR` writes only inside DIR (a planted
 * `<recording>.json.tmp` link is never written through; a link in place of a recording is
 * refused), under DIR's lock, sweeping what killed runs left. Function-config paths stay inside
 * the package in the KRM function; on the command line the user names any path.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tree } from '../helpers/tree.js';
import { cli, extensionConfig, parseAll, tempDir, testExtension } from './helpers.js';
import { EXT, classYaml, clusterYaml } from './inputs.js';

const extension = testExtension('the recordings safety tests');

const resourceList = (items: unknown[], data: Record<string, string>) =>
  JSON.stringify({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items,
    functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fn' }, data },
  });

describe('function-config paths stay inside the package (KRM function); the command line takes any path', () => {
  for (const [field, value] of [
    ['recordExtensions', '../../x'],
    ['extensions', '/etc'],
    ['replayExtensions', 'recordings/../../r'],
  ] as const) {
    it(`${field}: ${value} is an invalid function config naming the field`, async () => {
      const dir = tempDir({});
      const r = await cli([], dir, resourceList(parseAll(clusterYaml()), { [field]: value }));
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(
        new RegExp(
          `^render-clusterclass: functionConfig\\.data\\.${field}: invalid function config: ${field} must stay inside the package \\(a relative path without \\.\\.\\); a path anywhere else is given on the command line \\(--`,
        ),
      );
      expect(readdirSync(dir)).toEqual([]);
    });
  }
});

describe.skipIf(extension.missing)('recordings are written only inside their directory', () => {
  const inputs = () =>
    tempDir({
      'class.yaml': classYaml(),
      'cluster.yaml': clusterYaml(),
      'extension.yaml': extensionConfig(EXT, { url: extension.ext().url }, extension.pki().caPem),
    });
  const record = (dir: string, rec: string) =>
    cli(['render', dir, '--extensions', join(dir, 'extension.yaml'), '--record-extensions', rec]);

  it('a planted <recording>.json.tmp link is never written through; a link in place of a recording is refused', async () => {
    const dir = inputs();
    const first = join(tempDir({}), 'rec');
    expect((await record(dir, first)).code).toBe(0);
    const names = readdirSync(first).sort();
    const elsewhere = tempDir({ 'victim.json': 'precious\n' });
    const victim = join(elsewhere, 'victim.json');

    const planted = join(tempDir({}), 'rec');
    mkdirSync(planted);
    for (const name of names) symlinkSync(victim, join(planted, `${name}.tmp`));
    const r = await record(dir, planted);
    expect(r.code, r.stderr).toBe(0);
    expect(tree(elsewhere)).toEqual({ 'victim.json': expect.stringMatching(/ precious\n$/) });
    const written = tree(planted);
    for (const name of names) expect(written[name]).toBe(tree(first)[name]);

    const replaced = join(tempDir({}), 'rec');
    mkdirSync(replaced);
    symlinkSync(victim, join(replaced, names[0]!));
    const refused = await record(dir, replaced);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `render-clusterclass render: recordExtensions: cannot write ${replaced}: ${replaced}/${names[0]} is a symbolic link: refusing to write through it or over it\n`,
    );
    expect(readdirSync(replaced)).toEqual([names[0]]);
    expect(tree(elsewhere)).toEqual({ 'victim.json': expect.stringMatching(/ precious\n$/) });
  });

  it('holds the directory’s lock and sweeps a killed run’s temporary files', async () => {
    const dir = inputs();
    const rec = join(tempDir({}), 'rec');
    mkdirSync(rec);
    writeFileSync(join(rec, '.render-clusterclass-lock'), JSON.stringify({ pid: process.pid, host: hostname() }));
    const locked = await record(dir, rec);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(
      `cannot write ${rec}: ${rec} is in use by another render-clusterclass run (pid ${process.pid} on ${hostname()})`,
    );
    expect(readdirSync(rec)).toEqual(['.render-clusterclass-lock']);
    rmSync(join(rec, '.render-clusterclass-lock'));
    writeFileSync(join(rec, '.render-clusterclass-tmp-0badf00d'), 'half a recording');
    mkdirSync(join(rec, '.render-clusterclass-tmp-dead12'));
    const r = await record(dir, rec);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(rec).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(readdirSync(rec).length).toBeGreaterThan(0);
  });

  it('the KRM function refuses a recordings directory that is a link out of the package', async () => {
    const pkg = tempDir({});
    const elsewhere = tempDir({});
    symlinkSync(elsewhere, join(pkg, 'recordings'));
    const items = [
      ...parseAll(classYaml()),
      ...parseAll(clusterYaml()),
      ...parseAll(extensionConfig(EXT, { url: extension.ext().url }, extension.pki().caPem)),
    ];
    const r = await cli([], pkg, resourceList(items, { recordExtensions: 'recordings' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'render-clusterclass: recordExtensions: cannot write recordings: recordings is a symbolic link: refusing to write through it\n',
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
