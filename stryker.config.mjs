/**
 * StrykerJS (mutation testing), run through `npm run mutate` (scripts/mutate.mjs), which adds
 * the files to mutate, and names the report and the tests to run in MUTATE_REPORT, MUTATE_TESTS
 * (vitest.mutate.config.ts), MUTATE_RELATED and MUTATE_WHOLE_SUITE. Not part of `npm test` or CI: see test/MUTATION.md.
 */
export default {
  testRunner: 'vitest',
  // `related`: only the test files that import a mutated file (for files without a test list).
  vitest: { configFile: 'vitest.mutate.config.ts', related: process.env.MUTATE_RELATED === '1' },
  // Each mutant runs only the tests that executed its code in the dry run.
  coverageAnalysis: 'perTest',
  // A static mutant (code run outside any test: module or test-file load, describe bodies,
  // beforeAll hooks) runs every listed test. Against the whole
  // suite that is a full suite run per constant, hours on this machine; whole-suite mode leaves
  // them out of its score and per-file mode, which runs them against the file's tests, counts them.
  ignoreStatic: process.env.MUTATE_WHOLE_SUITE === '1',
  // The machine has 2 cores shared by several developers.
  concurrency: 1,
  // Generous: the load on the machine varies a lot and a slow run is not a killed mutant.
  timeoutFactor: 3,
  timeoutMS: 20_000,
  // The whole suite in one test runner takes far longer than Stryker's default 5 minutes.
  dryRunTimeoutMinutes: 120,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${process.env.MUTATE_REPORT ?? 'mutation'}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  // .cache (the oracles, often a symlink) is passed by absolute path instead (scripts/mutate.mjs).
  ignorePatterns: ['dist/**/*.map', 'coverage', '*.tgz', '.cache'],
  // No `checkers`: TypeScript runs through vitest's esbuild, where a mutant that does not
  // type-check still runs and is judged by the tests.
};
