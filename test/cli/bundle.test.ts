/**
 * How the bin starts: the bundle with its V8 code cache, CEL initialised only when a class has a
 * rule (scripts/bundle.mjs, scripts/lazy-cel.mjs), Node built-ins required on first call
 * (scripts/lazy-builtins.mjs), V8 told the length of the run before it renders
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
import { LAZY_BUILTINS, lazyBuiltins } from '../../scripts/lazy-builtins.mjs';
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

describe('Node built-ins are required on first call, not at start-up', () => {
  let work: string;
  let probe: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'rcc-builtins-'));
    probe = join(work, 'probe.cjs');
    // The public built-ins the process loaded, on stderr as it exits.
    writeFileSync(
      probe,
      `process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => 'node:' + m.slice(13))) + '\\n'));\n`,
    );
  });

  /** The bin's output, and the lazy built-ins it loaded. */
  const probed = (args: string[], input?: string) => {
    const r = run(process.execPath, ['--require', probe, binPath, ...args], { input });
    const line = /^LOADED (.*)\n/m.exec(r.stderr);
    if (!line?.[1]) throw new Error(`no LOADED line: ${r.stderr}`);
    const loaded = (JSON.parse(line[1]) as string[]).filter((m) => LAZY_BUILTINS.includes(m));
    return { ...r, stderr: r.stderr.replace(line[0], ''), loaded };
  };

  it('--version loads none of them', () => {
    const r = probed(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.loaded).toEqual([]);
  });

  it('a one-Cluster KRM run loads only hashing, and writes what the bin writes', () => {
    const input = fleetResourceList(1);
    const r = probed([], input);
    expect(r.code, r.stderr).toBe(0);
    // Its output is not deflated while it waits to be written: it is less than 1 MiB (output/write.ts).
    expect(r.loaded).toEqual(['node:crypto']);
    expect(r.stdout).toBe(run(process.execPath, [binPath], { input }).stdout);
  });

  it('a render of files loads the file functions it calls', () => {
    const r = probed(['render', join(repoRoot, 'examples', 'basic')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.loaded).toContain('node:fs/promises');
    expect(r.loaded).not.toContain('node:worker_threads');
  });

  it('a constant of a lazy built-in fails the build: it would be needed at load', async () => {
    mkdirSync(join(work, 'src'));
    const entry = join(work, 'src', 'uses-constant.ts');
    writeFileSync(entry, "import { EOL } from 'node:os';\nexport const eol = EOL;\n");
    const bundle = build({
      plugins: [lazyBuiltins(work)],
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    await expect(bundle).rejects.toThrow(/No matching export .* for import "EOL"/);
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
    copyFileSync(join(dirname(binPath), 'package.json'), join(dir, 'bin', 'package.json'));
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
