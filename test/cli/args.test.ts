import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';

const spec = { flags: { output: 'string', o: 'string', set: 'list', help: 'boolean', 'fail-on': 'string' } } as const;

describe('parseArgs', () => {
  it('reads flags in both spellings, lists and positionals', () => {
    const out = parseArgs(['a', '--output', 'dir', '--set=x=1', '--set', 'y=2', '-o', 'd2', 'b', '--help'], spec);
    expect(out).toEqual({
      ok: true,
      positional: ['a', 'b'],
      flags: { output: 'dir', set: ['x=1', 'y=2'], o: 'd2', help: true },
    });
  });
  it('rejects unknown options (suggesting the closest) and missing values, naming the option as typed', () => {
    expect(parseArgs(['--nope'], spec)).toEqual({ ok: false, message: 'unknown option --nope' });
    expect(parseArgs(['--outptu', 'x'], spec)).toEqual({
      ok: false,
      message: 'unknown option --outptu; did you mean --output?',
    });
    expect(parseArgs(['--fail-onn=warning'], spec)).toEqual({
      ok: false,
      message: 'unknown option --fail-onn; did you mean --fail-on?',
    });
    expect(parseArgs(['--output'], spec)).toEqual({ ok: false, message: 'option --output needs a value' });
    expect(parseArgs(['.', '-o'], spec)).toEqual({ ok: false, message: 'option -o needs a value' });
  });
  it('treats everything after -- as positional', () => {
    expect(parseArgs(['--', '--help'], spec)).toEqual({ ok: true, positional: ['--help'], flags: {} });
  });
});
