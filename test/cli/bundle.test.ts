/**
 * How the bin starts: the bundle with its V8 code cache, CEL initialised only when a class has a
 * rule (scripts/bundle.mjs, scripts/lazy-cel.mjs), V8 told the length of the run before it renders
 * (src/cli/io.ts). No timing here: what is checked is which code runs and that the output never
 * depends on how the code was loaded.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { classObjects, clusterObject, fleetResourceList } from '../../bench/fleet.mjs';
import { lazyCel } from '../../scripts/lazy-cel.mjs';
import { runFunction, runRender } from '../../src/cli/render.js';
import { fakeIO } from '../helpers/io.js';
import { binPath, repoRoot, run } from '../helpers/tools.js';

const CEL_LOADED = 'test: @bufbuild/cel initialised';

/**
 * The fleet's class and one Cluster (region ap-south-1) as a YAML stream; with `rule`, the
 * `region` variable has that CEL rule instead of its enum (the class check runs rules on enum values).
 */
function fleetInput(dir: string, rule?: { rule: string; message: string }): string {
  const objects = [...classObjects(), clusterObject(0)];
  if (rule) {
    const cc = objects.find((o) => o.kind === 'ClusterClass') as {
      spec: { variables: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[] };
    };
    const region = cc.spec.variables.find((v) => v.name === 'region');
    if (!region) throw new Error('the fleet class has no region variable');
    delete region.schema.openAPIV3Schema.enum;
    region.schema.openAPIV3Schema['x-kubernetes-validations'] = [rule];
  }
  const file = join(dir, rule ? 'with-rule.yaml' : 'without-rule.yaml');
  writeFileSync(file, objects.map((o) => YAML.stringify(o)).join('---\n'));
  return file;
}

const REGION_RULE = { rule: "!self.startsWith('ap-')", message: 'no Clusters in Asia-Pacific regions yet' };

describe('CEL is initialised on the first rule, not at start-up', () => {
  let work: string;
  let driver: string;

  // The bundle as scripts/bundle.mjs builds it, but @bufbuild/cel says on stderr when it is initialised.
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rcc-bundle-'));
    await build({
      plugins: [
        lazyCel(repoRoot),
        {
          name: 'mark-cel-init',
          setup(b) {
            b.onLoad({ filter: /@bufbuild[\\/]cel[\\/]dist[\\/]esm[\\/]index\.js$/ }, ({ path }) => ({
              contents: `${readFileSync(path, 'utf8')}\nprocess.stderr.write(${JSON.stringify(`${CEL_LOADED}\n`)});\n`,
              resolveDir: dirname(path),
              loader: 'js',
            }));
          },
        },
      ],
      entryPoints: [join(repoRoot, 'src', 'cli', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: join(work, 'bundle.cjs'),
      logLevel: 'error',
      define: { __RENDER_CLUSTERCLASS_BUILD__: '"test"' },
    });
    driver = join(work, 'driver.cjs');
    writeFileSync(driver, "require('./bundle.cjs').main(process.argv.slice(2));\n");
  });

  it('a render without rules never initialises it, and prints what the bin prints', () => {
    const input = fleetInput(work);
    const r = run(process.execPath, [driver, 'render', input]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(CEL_LOADED);
    expect(r.stdout).toBe(run(process.execPath, [binPath, 'render', input]).stdout);
  });

  it('a render with a rule initialises it once and evaluates the rule', () => {
    const r = run(process.execPath, [driver, 'render', fleetInput(work, REGION_RULE)]);
    expect(r.code).toBe(1);
    expect(r.stderr.split(CEL_LOADED)).toHaveLength(2);
    expect(r.stderr).toContain(REGION_RULE.message);
  });

  it("the bin evaluates a rule on a Cluster's variable", () => {
    const r = run(process.execPath, [binPath, 'render', fleetInput(work, REGION_RULE)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Cluster fleet/c00000 spec.topology.variables[region].value: Invalid value: "\\"ap-south-1\\"": ${REGION_RULE.message}`,
    );
    expect(r.stdout).toBe('');
  });
});

describe('the code cache', () => {
  const bundle = join(repoRoot, 'dist', 'render-clusterclass.cjs');
  const example = join(repoRoot, 'examples', 'basic');

  /** A copy of the bin and the bundle, with `cache` (or none) as the bundle's code cache. */
  function install(cache?: Buffer, source = readFileSync(bundle, 'utf8')): string {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-cache-'));
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist'));
    copyFileSync(binPath, join(dir, 'bin', 'render-clusterclass'));
    writeFileSync(join(dir, 'dist', 'render-clusterclass.cjs'), source);
    if (cache) writeFileSync(join(dir, 'dist', 'render-clusterclass.cjs.cache'), cache);
    return join(dir, 'bin', 'render-clusterclass');
  }

  const expected = () => run(process.execPath, [binPath, 'render', example]);

  it.each([
    ['missing', () => install()],
    ['not a code cache', () => install(Buffer.from('not a V8 code cache\n'))],
    ['truncated', () => install(readFileSync(`${bundle}.cache`).subarray(0, 4096))],
    // V8 checks the source's hash: the cache of the bundle before a change is stale.
    [
      'of another bundle',
      () => install(readFileSync(`${bundle}.cache`), `${readFileSync(bundle, 'utf8')}\n// changed\n`),
    ],
  ])('a cache that is %s changes nothing but the time', (_, bin) => {
    const want = expected();
    expect(want.code).toBe(0);
    const r = run(process.execPath, [bin(), 'render', example]);
    expect(r).toEqual(want);
  });

  it('is written by the build for the flags the bin sets', () => {
    // The bin reads it under its own V8 flags; a cache made under others would be rejected silently.
    const dir = dirname(install(readFileSync(`${bundle}.cache`)));
    const probe = join(dir, 'probe.mjs');
    const bin = readFileSync(binPath, 'utf8');
    const flags = [...bin.matchAll(/setFlagsFromString\('([^']+)'\)/g)].map((m) => m[1]);
    expect(flags.length).toBeGreaterThan(0);
    writeFileSync(
      probe,
      `import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import Module from 'node:module';
import { readFileSync } from 'node:fs';
for (const f of ${JSON.stringify(flags)}) setFlagsFromString(f);
const s = new Script(Module.wrap(readFileSync(${JSON.stringify(bundle)}, 'utf8')), { filename: ${JSON.stringify(bundle)}, cachedData: readFileSync(${JSON.stringify(`${bundle}.cache`)}) });
process.stdout.write(String(s.cachedDataRejected));
`,
    );
    expect(run(process.execPath, [probe]).stdout).toBe('false');
  });
});

describe('a render says how many items it renders before it renders them', () => {
  /** A CliIO that notes `rendering` calls and whether anything was written before the first. */
  const recordingIO = (stdin = '') => {
    const io = fakeIO(stdin);
    const calls: { items: number; writtenBefore: boolean }[] = [];
    return Object.assign(io, {
      calls,
      rendering: (items: number) => calls.push({ items, writtenBefore: io.out !== '' }),
    });
  };

  it('the KRM function: every item of the ResourceList', async () => {
    const io = recordingIO(fleetResourceList(3));
    expect(await runFunction(io)).toBe(0);
    // The Kptfile, the class and its templates, and the Clusters.
    expect(io.calls).toEqual([{ items: 1 + classObjects().length + 3, writtenBefore: false }]);
  });

  it('render PATH: every object of the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-items-'));
    const io = recordingIO();
    expect(await runRender([fleetInput(dir)], io)).toBe(0);
    expect(io.calls).toEqual([{ items: classObjects().length + 1, writtenBefore: false }]);
  });
});
