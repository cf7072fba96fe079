#!/usr/bin/env node
/**
 * Mutation testing with StrykerJS (stryker.config.mjs). Not part of `npm test` or CI.
 *
 *   npm run mutate                        every file below, each against its own tests
 *   npm run mutate -- src/x.ts …          those files, each against its own tests (a file not
 *                                         listed below runs against every test that imports it);
 *                                         src/x.ts:FROM-TO mutates only those lines
 *   npm run mutate -- --whole-suite [FILE…]  the files (default: all below), in one run, against the
 *                                         whole suite but test/e2e and test/hostile
 *                                         (vitest.mutate.config.ts), each mutant running the tests
 *                                         that execute it; static mutants (code run outside any
 *                                         test, which would re-run the whole suite each) are left to
 *                                         per-file mode (stryker.config.mjs, ignoreStatic)
 *
 * Reports: reports/mutation/<file>.json (per file) or reports/mutation/whole-suite[_<name>…].json.
 * Results and surviving mutants are recorded in test/MUTATION.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

const DESIRED_STATE_TESTS = [
  'test/topology/desired.test.ts',
  'test/golden.test.ts',
  'test/topology/upgrade.test.ts',
  'test/realworld/all-fixtures.test.ts',
  'test/provenance/recorder.test.ts',
  'test/explain/quick-start.test.ts',
];

/** The semantic core and the tests that exercise each file (unit tests first). */
const TARGETS = {
  'src/names/names.ts': ['test/topology/names.test.ts', 'test/golden.test.ts'],
  'src/core/labels.ts': ['test/topology/labels.test.ts', 'test/golden.test.ts'],
  'src/patches/selector.ts': ['test/patches/selector.test.ts', 'test/patches/engine.test.ts'],
  // External patches decode their operations (extensions); inline and external patches report their effects (provenance).
  'src/patches/jsonpatch.ts': [
    'test/patches/jsonpatch.test.ts',
    'test/patches/engine.test.ts',
    'test/extensions/units.test.ts',
    'test/provenance/recorder.test.ts',
    'test/explain/unit.test.ts',
  ],
  'src/webhooks/rules.ts': ['test/validation/rules.test.ts', 'test/validation/rules-catalogue.test.ts'],
  'src/variables/defaulting.ts': ['test/variables/defaulting.test.ts', 'test/variables/clustervariables.test.ts'],
  'src/output/write.ts': ['test/krm/write.test.ts', 'test/krm/stream.test.ts', 'test/golden.test.ts'],
  // The desired state (issue 15 split desired.ts into one module per CAPI compute function): the
  // module's unit tests (test/topology/<module>.test.ts where there is one), then the goldens and
  // real fixtures that render it and the provenance tests that read what it records.
  ...Object.fromEntries(
    ['desired', 'controlplane', 'workers', 'healthcheck', 'objects'].map((m) => [
      `src/topology/${m}.ts`,
      [...new Set([`test/topology/${m}.test.ts`, ...DESIRED_STATE_TESTS])],
    ]),
  ),
};

const args = process.argv.slice(2);
const wholeSuite = args.includes('--whole-suite');
/** `FILE` or `FILE:FROM-TO` (only the mutants on those lines, e.g. to re-check survivors). */
const specs = args
  .filter((a) => a !== '--whole-suite')
  .map((a) => {
    const [, file, lines] = /^(.*?)(:\d+-\d+)?$/.exec(a);
    return { file: relative(root, resolve(file)), lines: lines ?? '' };
  });
for (const { file } of specs) {
  if (!existsSync(join(root, file))) {
    console.error(`mutate: no such file: ${file}`);
    process.exit(1);
  }
}
const files = specs.map((s) => s.file + s.lines);

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
  console.log(
    `\nmutate: ${mutate.join(' ')} against ${existing ? existing.join(' ') : related ? 'the tests that import it' : 'the whole suite'}`,
  );
  linkShared();
  const env = {
    ...process.env,
    MUTATE_REPORT: report,
    MUTATE_TESTS: existing?.join(',') ?? '',
    MUTATE_RELATED: related ? '1' : '0',
    MUTATE_WHOLE_SUITE: wholeSuite ? '1' : '0',
  };
  env.GOTMPL_ORACLE ??= join(root, '.cache', 'gotmpl-oracle');
  return spawnSync('npx', argv, { cwd: root, stdio: 'inherit', env }).status ?? 1;
}

let status = 0;
if (wholeSuite) {
  const names = specs.map((s) => s.file.replace(/^.*\//, '').replace(/\.ts$/, '') + s.lines.replace(':', '-'));
  status = stryker(files.length > 0 ? files : Object.keys(TARGETS), ['whole-suite', ...names].join('_'));
} else {
  for (const { file, lines } of specs.length > 0 ? specs : Object.keys(TARGETS).map((file) => ({ file, lines: '' }))) {
    const code = stryker(
      [file + lines],
      (file + lines.replace(':', '-')).replace(/^src\//, '').replace(/[/.]/g, '_'),
      TARGETS[file],
    );
    status ||= code;
  }
}
process.exitCode = status;
