import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSetValue, runTemplateCommand } from '../../src/cli/template.js';
import { fakeIO } from '../helpers/io.js';

describe('render-clusterclass template', () => {
  it('renders with --set', async () => {
    const io = fakeIO();
    const code = await runTemplateCommand(['{{ .builtin.cluster.name }}-cp', '--set', 'builtin.cluster.name=x'], io);
    expect(code).toBe(0);
    expect(io.out).toBe('x-cp\n');
  });
  it('parses --set values as documented', () => {
    expect(parseSetValue('3')).toBe(3);
    expect(parseSetValue('true')).toBe(true);
    expect(parseSetValue('v1.2')).toBe('v1.2');
    expect(parseSetValue('null')).toBe(null);
  });
  it('numbers from --set behave as float64', async () => {
    const io = fakeIO();
    await runTemplateCommand(['{{ printf "%d" .n }} {{ .big }}', '--set', 'n=3', '--set=big=1000000'], io);
    expect(io.out).toBe('%!d(float64=3) 1e+06\n');
  });
  it('reads --data as YAML or JSON and can parse the output as YAML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gotpl-'));
    const f = join(dir, 'd.yaml');
    writeFileSync(f, 'mode: "yes"\nreplicas: 3\n');
    const io = fakeIO();
    expect(await runTemplateCommand(['{{ .mode }}', '--data', f, '--yaml'], io)).toBe(0);
    expect(io.out).toBe('true\n');
  });
  it('reports parse and exec errors on stderr with exit 1', async () => {
    const io = fakeIO();
    expect(await runTemplateCommand(['{{ toYaml . }}'], io)).toBe(1);
    expect(io.err).toContain('parse error: template: tpl:1: function "toYaml" not defined');
    const io2 = fakeIO();
    expect(await runTemplateCommand(['{{ .a.b }}', '--missingkey', 'error'], io2)).toBe(1);
    expect(io2.err).toContain('exec error:');
    const io3 = fakeIO();
    expect(await runTemplateCommand(['--bogus'], io3)).toBe(3);
    expect(io3.err).not.toContain('    at ');
  });
  it('speaks the oracle JSON Lines protocol', async () => {
    const input = [
      JSON.stringify({
        id: 1,
        template: '{{ .builtin.cluster.name }}-cp',
        data: { builtin: { cluster: { name: 'c1' } } },
      }),
      JSON.stringify({ id: 'b', template: '{{ nope }}' }),
      JSON.stringify({ id: [3], template: '{{ eq .r 3 }}', data: { r: 3 } }),
      JSON.stringify({ id: 4 }),
      'not json',
      '',
    ].join('\n');
    const io = fakeIO(input);
    expect(await runTemplateCommand(['--jsonl'], io)).toBe(0);
    const lines = io.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ id: 1, output: 'c1-cp' });
    expect(lines[1]).toMatchObject({ id: 'b', phase: 'parse' });
    expect(lines[2]).toMatchObject({ id: [3], phase: 'exec' });
    expect(lines[3]).toMatchObject({ id: 4, phase: 'input' });
    expect(lines[4]).toMatchObject({ id: null, phase: 'input' });
  });
});
