/** The process boundary every CLI command talks through, so commands stay testable. */
import { setFlagsFromString } from 'node:v8';

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
  /** Told how many input items a render reads, before it renders: lets the process tune V8 for the run's length. */
  rendering?(items: number): void;
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

/** Exit codes shared by every command, each meaning one thing (README "Exit codes"; `plan`'s gates add 4-8, plan/gates.ts; the KRM Functions Specification (kustomize cmd/config/docs/api-conventions/functions-spec.md)). */
export const ExitCode = {
  ok: 0,
  /** Error results, including input that cannot be read. */
  errorResults: 1,
  /** An internal failure: a bug, never bad input. */
  internal: 2,
  /** An invalid function config or command-line usage. */
  functionConfig: 3,
  /**
   * The reader of stdout went away before the output was complete (EPIPE: `| head`, quitting
   * `less`): 128 + SIGPIPE, the status shells report for git, kubectl or grep killed by SIGPIPE.
   */
  stdoutClosed: 141,
} as const;

/**
 * Items above which a render is a fleet: V8 then optimises as it does by default. The bin raises
 * V8's optimisation budget for a short run (bin/render-clusterclass); over a fleet, functions
 * left unoptimised that long cost more than the compiling saved (1,000 Clusters: +10-24% CPU,
 * 100 Clusters: -20%).
 */
const FLEET_ITEMS = 500;
/** V8's own --interrupt-budget (v8/src/flags/flag-definitions.h; 66 KB of bytecode in Node 20's V8 11.3). */
const V8_INTERRUPT_BUDGET = 66 * 1024;

/** The real process's IO, and at the end what became of its stdout. */
export interface ProcessIO extends CliIO {
  /** Waits until everything written to stdout has reached its reader, or failed to. */
  flush(): Promise<void>;
  /** The error that ended stdout, if one did. */
  stdoutError(): NodeJS.ErrnoException | undefined;
}

/**
 * The real process. Never `process.exit()` after writing: the caller sets `process.exitCode`. A
 * failing stdout (EPIPE) or stderr never ends the process with an uncaught error: once stdout
 * has failed, the rest of the output is dropped, as a tool killed by SIGPIPE would have lost it,
 * and `stdoutError` says so to the caller.
 */
export function processIO(): ProcessIO {
  let failed: NodeJS.ErrnoException | undefined;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => (failed ??= e));
  // Nowhere to report a failing stderr.
  process.stderr.on('error', () => undefined);
  return {
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    stdout: (text) => {
      if (failed || process.stdout.destroyed) return undefined;
      return process.stdout.write(text) ? undefined : writable(process.stdout);
    },
    stderr: (text) => void process.stderr.write(text),
    // Written last, so done once every earlier write is (write callbacks come in order).
    flush: () =>
      new Promise((resolve) =>
        failed || process.stdout.destroyed ? resolve() : process.stdout.write('', () => resolve()),
      ),
    stdoutError: () => failed,
    rendering: (items) => {
      if (items > FLEET_ITEMS) setFlagsFromString(`--interrupt-budget=${V8_INTERRUPT_BUDGET}`);
    },
  };
}

/** Resolves once `stream` takes more (drain) or never will (closed, as after EPIPE): a writer never waits forever, and never fails. */
function writable(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
