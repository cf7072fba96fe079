/** The process boundary every CLI command talks through, so commands stay testable. */
import { once } from 'node:events';

export interface CliIO {
  /** Reads all of standard input as UTF-8 text. */
  readStdin(): Promise<string>;
  /**
   * Writes to standard output. A promise means the stream is full: await it before writing more
   * (outputs of a fleet are hundreds of MiB; writing them unawaited would buffer them all).
   */
  stdout(text: string): void | Promise<void>;
  stderr(text: string): void;
  /** Which streams are terminals; absent: none (pipes, CI logs, tests). */
  tty?: { stdin: boolean; stdout: boolean; stderr: boolean };
  /** Whether stdout and stderr get colour (`colourFor`); absent: no colour. */
  colour?: { stdout: boolean; stderr: boolean };
  /** Milliseconds from a fixed start, for progress and the summary line; absent: neither is shown. */
  now?: () => number;
}

export type ColourWhen = 'auto' | 'always' | 'never';

/**
 * Colour as git and the NO_COLOR convention have it: `always` and `never` win; `auto` colours a
 * terminal unless NO_COLOR is set (to anything non-empty) or TERM is dumb.
 */
export function colourFor(when: ColourWhen, tty: boolean, env: NodeJS.ProcessEnv): boolean {
  if (when !== 'auto') return when === 'always';
  return tty && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** Exit codes shared by every command, each meaning one thing (README "Exit codes"; krm-integration §1.3). */
export const ExitCode = {
  ok: 0,
  /** Error results, including input that cannot be read. */
  errorResults: 1,
  /** An internal failure: a bug, never bad input. */
  internal: 2,
  /** An invalid function config or command-line usage. */
  functionConfig: 3,
} as const;

/** The real process. Never `process.exit()` after writing: the caller sets `process.exitCode`. */
export const processIO: CliIO = {
  async readStdin() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  // `once` also rejects when the stream fails (EPIPE), so a writer never waits forever.
  stdout: (text) => (process.stdout.write(text) ? undefined : once(process.stdout, 'drain').then(() => undefined)),
  stderr: (text) => void process.stderr.write(text),
};
