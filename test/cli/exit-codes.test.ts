/**
 * Exit code 2 means one thing: an internal failure (a bug). It is the only code `main` gives on
 * its own, when a command throws; input problems are 1 and configuration problems 3 (those are
 * tested through the real CLI in test/krm/io-contract.test.ts). No stack trace, one line.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/cli/render.js', () => ({
  RENDER_HELP: '',
  runFunction: () => Promise.reject(new Error('a bug')),
  runRender: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'x')")),
}));

const { main } = await import('../../src/cli/main.js');

describe('exit code 2: an internal failure', () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  it.each([
    [[], 'a bug'],
    [['render', 'x'], "Cannot read properties of undefined (reading 'x')"],
  ])('%j: one line on stderr, exit 2', async (args, message) => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await main(args);
    expect(process.exitCode).toBe(2);
    expect(stderr.mock.calls.map((c) => c[0])).toEqual([`render-clusterclass: internal error: ${message}\n`]);
  });
});
