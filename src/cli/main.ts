/**
 * Command-line entry point. Without a command it is the KRM function (ResourceList on stdin), so
 * `exec: render-clusterclass` works in kpt and kustomize as is.
 */
import { ExitCode, processIO, type CliIO } from './io.js';
import { RENDER_HELP, runFunction, runRender } from './render.js';

const HELP = `render-clusterclass: render Cluster API ClusterClass topologies offline

Usage:
  render-clusterclass                      KRM function: ResourceList on stdin, ResourceList on stdout
  render-clusterclass render PATH...       render YAML files/directories (see render --help)
  render-clusterclass plan --base REF|DIR  what a change does to every Cluster (see plan --help)
  render-clusterclass explain CLUSTER      where each rendered field comes from (see explain --help)
  render-clusterclass template TEMPLATE    evaluate a Go template as ClusterClass patches do
  render-clusterclass convert PATH...      move ClusterClasses, Clusters and kubeadm templates to v1beta2 (see convert --help)
  render-clusterclass help | version

${RENDER_HELP}`;

export async function dispatch(args: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case undefined:
    case 'fn':
      return runFunction(io);
    case 'render':
      return runRender(rest, io);
    case 'plan': {
      const { runPlanCommand } = await import('./plan.js');
      return runPlanCommand(rest, io, process.stdout.isTTY === true);
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
    case 'help':
    case '--help':
    case '-h':
      io.stdout(HELP);
      return ExitCode.ok;
    case 'version':
    case '--version':
      io.stdout('render-clusterclass 0.1.0\n');
      return ExitCode.ok;
    default:
      io.stderr(`render-clusterclass: unknown command "${command}"\n\n${HELP}`);
      return ExitCode.functionConfig;
  }
}

/**
 * Runs a command and sets the exit code. Never `process.exit()`: it would cut stdout written to a
 * pipe at 64 KiB (krm-integration §2). Never a stack trace: internal failures are one line, exit 2.
 */
export async function main(args: string[]): Promise<void> {
  try {
    process.exitCode = await dispatch(args, processIO);
  } catch (e) {
    process.stderr.write(`render-clusterclass: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = ExitCode.internal;
  }
}
