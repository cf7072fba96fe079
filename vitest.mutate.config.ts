/**
 * vitest.config.ts for `npm run mutate` (scripts/mutate.mjs). MUTATE_TESTS, a comma-separated
 * list of test files, narrows the run to the tests of the file being mutated (Stryker's own
 * `--testFiles` is not used: with it, mutants of module-level constants are never activated).
 * Without it (whole-suite mode) every test runs except test/e2e and test/hostile, which drive the
 * built bundle in child processes, where no mutant of src/ is active. (The hostile corpus's
 * in-process prototype-pollution cases are covered for the patch engine by
 * test/patches/jsonpatch.test.ts.)
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const only = (process.env.MUTATE_TESTS ?? '').split(',').filter((f) => f !== '');
const bundleOnly = ['test/e2e/**', 'test/hostile/**'];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    ...(only.length > 0 ? { include: only } : { exclude: [...(base.test?.exclude ?? []), ...bundleOnly] }),
  },
});
