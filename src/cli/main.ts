/**
 * Command-line entry point. Without a command it is the KRM function (ResourceList on stdin), so
 * `exec: render-clusterclass` works in kpt and kustomize as is.
 */
import { closestMatches, didYouMean } from '../core/suggest.js';
import { COLOUR_WHEN, COMMANDS, GLOBAL, TOOL_VERSION, commandLines } from './commands.js';
import { COMPLETION_HELP } from './completion.js';
import { CONVERT_HELP } from './convert.js';
import { EXPLAIN_HELP } from './explain.js';
import { colourFor, ExitCode, processIO, type CliIO, type ColourWhen } from './io.js';
import { PLAN_HELP } from './plan.js';
import { RENDER_HELP, runFunction, runRender } from './render.js';
import { TEMPLATE_HELP } from './template.js';

const HELP = `render-clusterclass: render Cluster API ClusterClass topologies offline

Usage:
${commandLines()}
Global options:
  --color[=WHEN]   colour diagnostics and plan output: auto (default: on a terminal, unless the
                   NO_COLOR environment variable is set), always, never

Exit codes: 0 ok, 1 error results or unreadable input, 2 internal error (a bug: please report
it), 3 invalid function config or usage, 141 the reader of stdout went away (as for SIGPIPE).
`;

const COMMAND_HELP: Record<string, string> = {
  render: RENDER_HELP,
  plan: PLAN_HELP,
  explain: EXPLAIN_HELP,
  template: TEMPLATE_HELP,
  convert: CONVERT_HELP,
  completion: COMPLETION_HELP,
};

/** One line for a word that is not a command, with the closest ones, as git says it. */
function unknown(
  what: string,
  word: string,
  candidates: readonly string[],
  io: CliIO,
  spell = (c: string) => `"${c}"`,
): number {
  const hint = didYouMean(closestMatches(word.replace(/^--?/, ''), candidates, 3), spell);
  io.stderr(
    `render-clusterclass: unknown ${what} "${word}"${hint ? `; ${hint}` : ''} (see render-clusterclass help)\n`,
  );
  return ExitCode.functionConfig;
}

export async function dispatch(args: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case undefined:
    case 'fn':
      // Nothing piped in: a person typed the bare command, so show how to use it instead of waiting.
      if (io.tty?.stdin) {
        await io.stdout(HELP);
        return ExitCode.ok;
      }
      return runFunction(io);
    case 'render':
      return runRender(rest, io);
    case 'plan': {
      const { runPlanCommand } = await import('./plan.js');
      return runPlanCommand(rest, io);
    }
    case 'explain': {
      const { runExplainCommand } = await import('./explain.js');
      return runExplainCommand(rest, io);
    }
    case 'convert': {
      const { runConvertCommand } = await import('./convert.js');
      return runConvertCommand(rest, io);
    }
    case 'template': {
      const { runTemplateCommand } = await import('./template.js');
      return runTemplateCommand(rest, io);
    }
    case 'completion': {
      const { runCompletionCommand } = await import('./completion.js');
      return runCompletionCommand(rest, io);
    }
    case 'help':
    case '--help':
    case '-h': {
      const topic = rest[0];
      if (topic === undefined) {
        await io.stdout(HELP);
        return ExitCode.ok;
      }
      // Own keys only: `help toString` is an unknown command, not Object.prototype's function.
      const help = Object.hasOwn(COMMAND_HELP, topic) ? COMMAND_HELP[topic] : undefined;
      if (help === undefined) return unknown('command', topic, Object.keys(COMMAND_HELP), io);
      await io.stdout(help);
      return ExitCode.ok;
    }
    case 'version':
    case '--version':
      await io.stdout(`render-clusterclass ${TOOL_VERSION}\n`);
      return ExitCode.ok;
    default: {
      // `-v` is not an option of its own: it begins --version, so that is the hint.
      const options = Object.keys(GLOBAL.flags).filter((f) => f.length > 1);
      return command.startsWith('-')
        ? unknown('option', command, options, io, (o) => `--${o}`)
        : unknown('command', command, Object.keys(COMMANDS), io);
    }
  }
}

/** `--color[=WHEN]` anywhere before `--`, taken out of the arguments. */
export function globalOptions(
  args: readonly string[],
): { ok: true; args: string[]; colour: ColourWhen } | { ok: false; message: string } {
  let colour: ColourWhen = 'auto';
  const rest: string[] = [];
  for (const [i, a] of args.entries()) {
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    const m = /^--colou?r(?:=(.*))?$/.exec(a);
    if (!m) {
      rest.push(a);
      continue;
    }
    const when = m[1] ?? 'always';
    if (!(COLOUR_WHEN as readonly string[]).includes(when))
      return { ok: false, message: `--color must be auto, always or never, not "${when}"` };
    colour = when as ColourWhen;
  }
  return { ok: true, args: rest, colour };
}

/** One line for a failure no command reported itself (a bug); never a stack trace. */
export function internalError(e: unknown): void {
  process.stderr.write(`render-clusterclass: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = ExitCode.internal;
}

/**
 * Runs a command and sets the exit code. Never `process.exit()`: it would cut stdout written to a
 * pipe at 64 KiB (KRM Functions Specification: kustomize cmd/config/docs/api-conventions/functions-spec.md). Never a stack trace: internal failures are one line, exit 2.
 * A reader of stdout that went away (EPIPE) ends every command quietly with 141, whatever it was
 * doing; any other failure of stdout (a full disk) is one line and exit 1.
 */
export async function main(args: string[]): Promise<void> {
  const io = processIO();
  try {
    const global = globalOptions(args);
    if (!global.ok) {
      process.stderr.write(`render-clusterclass: ${global.message}\n`);
      process.exitCode = ExitCode.functionConfig;
      return;
    }
    const tty = {
      stdin: process.stdin.isTTY === true,
      stdout: process.stdout.isTTY === true,
      stderr: process.stderr.isTTY === true,
    };
    const colour = {
      stdout: colourFor(global.colour, tty.stdout, process.env),
      stderr: colourFor(global.colour, tty.stderr, process.env),
    };
    const start = performance.now();
    process.exitCode = await dispatch(global.args, { ...io, tty, colour, now: () => performance.now() - start });
  } catch (e) {
    internalError(e);
  }
  await io.flush();
  const lost = io.stdoutError();
  if (lost?.code === 'EPIPE') {
    process.exitCode = ExitCode.stdoutClosed;
  } else if (lost) {
    process.stderr.write(`render-clusterclass: cannot write to standard output: ${lost.message}\n`);
    process.exitCode = ExitCode.errorResults;
  }
}
