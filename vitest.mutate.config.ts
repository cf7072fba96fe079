/**
 * vitest.config.ts for `npm run mutate` (scripts/mutate.mjs): MUTATE_TESTS, a comma-separated
 * list of test files, narrows the run to the tests of the file being mutated. (Stryker's own
 * `--testFiles` is not used: with it, mutants of module-level constants are never activated.)
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const only = (process.env.MUTATE_TESTS ?? '').split(',').filter((f) => f !== '');

export default defineConfig({ ...base, test: { ...base.test, ...(only.length > 0 ? { include: only } : {}) } });
