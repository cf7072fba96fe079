#!/usr/bin/env node
/**
 * Mutation testing with StrykerJS (stryker.config.mjs). Not part of `npm test` or CI.
 *
 *   npm run mutate                        every file below, each against its own tests
 *   npm run mutate -- src/x.ts …          those files, each against its own tests (a file not
 *                                         listed below runs against every test that imports it)
 *   npm run mutate -- --whole-suite [FILE…]  the files (default: all below) against the whole suite
 *                                         but test/e2e and test/hostile (vitest.mutate.config.ts),
 *                                         each mutant running the tests that execute it
 *
 * Reports: reports/mutation/<file>.json (per file) or reports/mutation/whole-suite.json. Results
 * and surviving mutants are recorded in test/MUTATION.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** The semantic core and the tests that exercise each file (unit tests first). */
const TARGETS = {
  'src/topology/names.ts': ['test/topology/names.test.ts', 'test/golden.test.ts'],
  'src/topology/labels.ts': ['test/topology/labels.test.ts', 'test/golden.test.ts'],
  'src/patches/selector.ts': ['test/patches/selector.test.ts', 'test/patches/engine.test.ts'],
  'src/patches/jsonpatch.ts': ['test/patches/jsonpatch.test.ts', 'test/patches/engine.test.ts'],
  'src/validation/rules.ts': ['test/validation/rules.test.ts', 'test/validation/rules-catalogue.test.ts'],
  'src/variables/defaulting.ts': ['test/variables/defaulting.test.ts', 'test/variables/clustervariables.test.ts'],
  'src/krm/write.ts': ['test/krm/write.test.ts', 'test/krm/stream.test.ts', 'test/golden.test.ts'],
  'src/topology/desired.ts': ['test/topology/desired.test.ts', 'test/topology/upgrade.test.ts', 'test/golden.test.ts'],
};

const args = process.argv.slice(2);
const wholeSuite = args.includes('--whole-suite');
const files = args.filter((a) => a !== '--whole-suite').map((f) => relative(root, resolve(f)));
for (const f of files) {
  if (!existsSync(join(root, f))) {
    console.error(`mutate: no such file: ${f}`);
    process.exit(1);
  }
}

/** Tests find ../shared from the project root; Stryker's sandboxes are .stryker-tmp/<sandbox>. */
function linkShared() {
  mkdirSync(join(root, '.stryker-tmp'), { recursive: true });
  const link = join(root, '.stryker-tmp', 'shared');
  if (!existsSync(link)) symlinkSync(join('..', '..', 'shared'), link);
}

// Tests that drive bin/ need the current build.
const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

/** One Stryker run; its exit status. */
function stryker(mutate, report, testFiles) {
  const argv = ['stryker', 'run', '--mutate', mutate.join(',')];
  const found = testFiles?.filter((t) => existsSync(join(root, t))) ?? [];
  const existing = found.length > 0 ? found : undefined;
  const related = !existing && !wholeSuite;
  console.log(`\nmutate: ${mutate.join(' ')} against ${existing ? existing.join(' ') : related ? 'the tests that import it' : 'the whole suite'}`);
  linkShared();
  const env = { ...process.env, MUTATE_REPORT: report, MUTATE_TESTS: existing?.join(',') ?? '', MUTATE_RELATED: related ? '1' : '0' };
  env.GOTMPL_ORACLE ??= join(root, '.cache', 'gotmpl-oracle');
  return spawnSync('npx', argv, { cwd: root, stdio: 'inherit', env }).status ?? 1;
}

let status = 0;
if (wholeSuite) {
  status = stryker(files.length > 0 ? files : Object.keys(TARGETS), 'whole-suite');
} else {
  for (const f of files.length > 0 ? files : Object.keys(TARGETS)) {
    const code = stryker([f], f.replace(/^src\//, '').replace(/[/.]/g, '_'), TARGETS[f]);
    status ||= code;
  }
}
process.exitCode = status;
