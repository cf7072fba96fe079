import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';

const spec = { flags: { output: 'string', o: 'string', set: 'list', help: 'boolean' } } as const;

describe('parseArgs', () => {
  it('reads flags in both spellings, lists and positionals', () => {
    const out = parseArgs(['a', '--output', 'dir', '--set=x=1', '--set', 'y=2', '-o', 'd2', 'b', '--help'], spec);
    expect(out).toEqual({ ok: true, positional: ['a', 'b'], flags: { output: 'dir', set: ['x=1', 'y=2'], o: 'd2', help: true } });
  });
  it('rejects unknown options and missing values', () => {
    expect(parseArgs(['--nope'], spec)).toEqual({ ok: false, message: 'unknown option --nope' });
    expect(parseArgs(['--output'], spec)).toEqual({ ok: false, message: 'option --output needs a value' });
  });
  it('treats everything after -- as positional', () => {
    expect(parseArgs(['--', '--help'], spec)).toEqual({ ok: true, positional: ['--help'], flags: {} });
  });
});
