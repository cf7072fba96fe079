import type { CliIO } from '../../src/cli/io.js';

/** An in-memory CliIO for driving commands in tests. */
export function fakeIO(stdin = ''): CliIO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    readStdin: async () => stdin,
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}
