/**
 * Golden renders: every folder under test/golden/render holds an input.yaml (and optionally a
 * config.yaml); expected.yaml is the applyable output, results.yaml the results. Regenerate with
 * `npm run golden:update` and review the diff by eye.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runRender } from '../src/cli/render.js';
import { readYamlStream } from '../src/krm/read.js';
import { runPipeline } from '../src/pipeline/run.js';
import { parseFunctionConfig } from '../src/krm/config.js';
import { fakeIO } from './helpers/io.js';

const root = join(import.meta.dirname, 'golden', 'render');
const update = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(root)
  .filter((d) => existsSync(join(root, d, 'input.yaml')))
  .sort();

async function render(dir: string): Promise<{ code: number; out: string }> {
  const args = [join(dir, 'input.yaml')];
  if (existsSync(join(dir, 'config.yaml'))) args.push('--config', join(dir, 'config.yaml'));
  const io = fakeIO();
  const code = await runRender(args, io);
  return { code, out: io.out };
}

function results(dir: string): string {
  const read = readYamlStream(readFileSync(join(dir, 'input.yaml'), 'utf8'), 'input.yaml');
  if (!read.ok) throw new Error(read.message);
  const cfgFile = join(dir, 'config.yaml');
  const cfg = parseFunctionConfig(existsSync(cfgFile) ? YAML.parse(readFileSync(cfgFile, 'utf8')) : undefined);
  if (!cfg.ok) throw new Error(cfg.message);
  return YAML.stringify(runPipeline(read.items, cfg.config, read.results).results, { lineWidth: 0 });
}

describe('golden renders', () => {
  it.each(cases)('%s', async (name) => {
    const dir = join(root, name);
    const { out } = await render(dir);
    const res = results(dir);
    if (update) {
      writeFileSync(join(dir, 'expected.yaml'), out);
      writeFileSync(join(dir, 'results.yaml'), res);
    }
    expect(out).toBe(readFileSync(join(dir, 'expected.yaml'), 'utf8'));
    expect(res).toBe(readFileSync(join(dir, 'results.yaml'), 'utf8'));
  });

  it('renders byte-identical output twice in a row', async () => {
    for (const name of cases) {
      const a = await render(join(root, name));
      const b = await render(join(root, name));
      expect(b.out).toBe(a.out);
    }
  });
});
