/**
 * `.krmignore` against the real kpt: for each set of patterns, the files `render DIR` reads are
 * exactly the files `kpt fn source DIR` reads (a package with a subpackage, nested directories,
 * `.yaml`/`.yml`/`.json`). The expected file sets come from kpt, not from our reading of it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readInputs } from '../../src/cli/inputs.js';
import { fakeIO } from '../helpers/io.js';
import { run, skipUnless } from '../helpers/tools.js';

const FILES = [
  'a.yaml',
  'b.yml',
  'c.json',
  'docs/a.yaml',
  'docs/x/a.yaml',
  'sub/a.yaml',
  'sub/docs/a.yaml',
  'sub/b.yaml',
  'x/sub/a.yaml',
  'rendered/ns/c.yaml',
  'rendered/ns/d.yaml',
  'values.yaml',
  'sub/values.yaml',
  'deep/er/values.yaml',
  'pkg/a.yaml',
  'pkg/docs/a.yaml',
  'pkg/values.yaml',
];

const PATTERNS: [string, string][] = [
  ['', ''],
  ['a name matches at any depth', 'a.yaml'],
  ['a leading slash anchors', '/a.yaml'],
  ['a directory name, with or without a slash', 'docs'],
  ['a directory pattern', 'docs/'],
  ['an anchored directory', '/docs'],
  ['a path matches as a suffix at any depth', 'sub/a.yaml'],
  ['an anchored path', '/sub/a.yaml'],
  ['an extension glob', '*.yml'],
  ['a glob does not cross a slash', 'sub/*.yaml'],
  ['an exception', 'values.yaml\n!sub/values.yaml'],
  ['an exception wins wherever it is', '!a.yaml\na.yaml'],
  ['the output directory', 'rendered/'],
  ['a nested directory', 'docs/x'],
  ['a double star is one component', '**/values.yaml'],
  ['a trailing double star', 'deep/**'],
  ['comments, blank lines and spaces', '# comment\n\n  a.yaml  '],
  ['a wildcard extension', 'a.*'],
  ['a parent can ignore a subpackage directory', 'pkg'],
  ['a parent pattern does not reach inside a subpackage', 'values.yaml\ndocs/'],
  ['a character class', '[ab].y*ml'],
];

function packageWith(krmignore: string, subpackageIgnore = 'docs/\n'): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-krmignore-'));
  const kptfile = (name: string) =>
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n  annotations:\n    config.kubernetes.io/local-config: "true"\n`;
  writeFileSync(join(dir, 'Kptfile'), kptfile('p'));
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'pkg', 'Kptfile'), kptfile('pkg'));
  writeFileSync(join(dir, 'pkg', '.krmignore'), subpackageIgnore);
  FILES.forEach((f, i) => {
    mkdirSync(join(dir, dirname(f)), { recursive: true });
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } };
    writeFileSync(join(dir, f), f.endsWith('.json') ? JSON.stringify(object) : YAML.stringify(object));
  });
  writeFileSync(join(dir, '.krmignore'), krmignore);
  return dir;
}

/** The files kpt reads (Kptfiles aside: render reads only YAML and JSON files). */
function kptFiles(dir: string): string[] {
  const out = run('kpt', ['fn', 'source', dir]);
  if (out.code !== 0) throw new Error(out.stderr);
  const items = (
    YAML.parse(out.stdout) as { items: { kind: string; metadata: { annotations: Record<string, string> } }[] }
  ).items;
  return items
    .filter((i) => i.kind !== 'Kptfile')
    .map((i) => i.metadata.annotations['internal.config.kubernetes.io/path']!)
    .sort();
}

async function renderFiles(dir: string): Promise<string[]> {
  const read = await readInputs([dir], fakeIO());
  if (!read.ok) throw new Error(read.message);
  return read.files.map((f) => f.rel).sort();
}

describe.skipIf(skipUnless('kpt'))('.krmignore reads the files kpt reads', () => {
  for (const [what, patterns] of PATTERNS) {
    it(`${what}: ${JSON.stringify(patterns)}`, async () => {
      const dir = packageWith(patterns);
      expect(await renderFiles(dir)).toEqual(kptFiles(dir));
    });
  }
});
