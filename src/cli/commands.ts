/**
 * The one table of commands and their options. Each command parses its arguments with its entry
 * here; the top-level help lists the commands from it, an unknown word is matched against it, and
 * `completion` generates the bash, zsh and fish scripts from it, so a new option is offered by
 * every shell as soon as a command accepts it.
 */
import type { ArgSpec } from './args.js';
import { CAPI_VERSIONS } from '../core/capi-release.js';
import { FAIL_ON, MODES, UPGRADE_POLICIES } from '../krm/config.js';
import { CAPI_FLAGS, EXTENSION_FLAGS } from './inputs.js';
import { PLAN_FAIL_ON } from '../plan/gates.js';

export interface CommandSpec extends ArgSpec {
  /** How it is called, after the program name (the help's first column). */
  usage: string;
  /** One line: what it does. */
  summary: string;
  /** What its operands are: paths (the shell offers files), fixed words, or anything (nothing offered). */
  operands: 'paths' | readonly string[] | 'other';
}

/** `render --format`: manifests, kpt's view, a ResourceList, kustomize's plugin output, or one JSON List. */
export const RENDER_FORMATS = ['manifests', 'all', 'resourcelist', 'kustomize', 'json'] as const;
export const PLAN_FORMATS = ['text', 'markdown', 'json', 'sarif'] as const;
/** What `version` prints, and the SARIF log's tool version. */
export const TOOL_VERSION = '0.1.0';
/** `plan --only`: what to list. */
export const PLAN_ONLY = ['rollouts'] as const;
const EXPLAIN_FORMATS = ['text', 'json'] as const;
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** The colour choices of the global `--color[=WHEN]`. */
export const COLOUR_WHEN = ['auto', 'always', 'never'] as const;

const EXTENSION_PATHS = ['extensions', 'record-extensions', 'replay-extensions'];
const CAPI_VALUES = { 'capi-version': CAPI_VERSIONS };
const HELP_FLAGS = { help: 'boolean', h: 'boolean' } as const;

const render: CommandSpec = {
  usage: 'render PATH...',
  summary: 'render YAML files/directories (- for a YAML stream on stdin)',
  operands: 'paths',
  flags: {
    previous: 'string',
    observed: 'string',
    crds: 'string',
    output: 'string',
    o: 'string',
    config: 'string',
    mode: 'string',
    format: 'string',
    set: 'list',
    ...HELP_FLAGS,
    'with-inputs': 'boolean',
    'no-reuse': 'boolean',
    'fail-on': 'string',
    strict: 'boolean',
    upgrade: 'string',
    shard: 'string',
    ...EXTENSION_FLAGS,
    ...CAPI_FLAGS,
  },
  // `convert` is the KRM function's mode; the command line has `render-clusterclass convert`.
  values: {
    mode: MODES.filter((m) => m !== 'convert'),
    format: RENDER_FORMATS,
    'fail-on': FAIL_ON,
    upgrade: UPGRADE_POLICIES,
    ...CAPI_VALUES,
  },
  paths: ['previous', 'observed', 'crds', 'output', 'o', 'config', ...EXTENSION_PATHS],
};

const plan: CommandSpec = {
  usage: 'plan --base REF|DIR',
  summary: 'what a change does to every Cluster',
  operands: 'paths',
  flags: {
    base: 'string',
    format: 'string',
    config: 'string',
    set: 'list',
    help: 'boolean',
    class: 'list',
    only: 'string',
    'max-replaced-machines': 'string',
    'max-rolling-clusters': 'string',
    'fail-on': 'list',
    crds: 'string',
    'to-capi-version': 'string',
    'to-crds': 'string',
    ...EXTENSION_FLAGS,
    ...CAPI_FLAGS,
  },
  values: {
    format: PLAN_FORMATS,
    only: PLAN_ONLY,
    'fail-on': PLAN_FAIL_ON,
    'to-capi-version': CAPI_VERSIONS,
    ...CAPI_VALUES,
  },
  paths: ['base', 'config', 'crds', 'to-crds', ...EXTENSION_PATHS],
};

const explain: CommandSpec = {
  usage: 'explain CLUSTER',
  summary: 'where each rendered field comes from',
  operands: 'other',
  flags: {
    f: 'list',
    input: 'list',
    field: 'string',
    format: 'string',
    config: 'string',
    set: 'list',
    ...HELP_FLAGS,
    ...EXTENSION_FLAGS,
    ...CAPI_FLAGS,
  },
  values: { format: EXPLAIN_FORMATS, ...CAPI_VALUES },
  paths: ['f', 'input', 'config', ...EXTENSION_PATHS],
};

const template: CommandSpec = {
  usage: 'template TEMPLATE',
  summary: 'evaluate a Go template as ClusterClass patches do',
  operands: 'other',
  flags: {
    data: 'string',
    f: 'string',
    set: 'list',
    missingkey: 'string',
    functions: 'string',
    yaml: 'boolean',
    jsonl: 'boolean',
    ...HELP_FLAGS,
  },
  values: { missingkey: ['default', 'error'], functions: ['sprig-hermetic', 'builtins'] },
  paths: ['data', 'f'],
};

const convert: CommandSpec = {
  usage: 'convert PATH...',
  summary: 'move ClusterClasses, Clusters and kubeadm templates to v1beta2',
  operands: 'paths',
  flags: { output: 'string', o: 'string', 'in-place': 'boolean', to: 'string', help: 'boolean' },
  values: { to: ['v1beta2'] },
  paths: ['output', 'o'],
};

const completion: CommandSpec = {
  usage: 'completion SHELL',
  summary: 'a completion script for bash, zsh or fish',
  operands: SHELLS,
  flags: {},
};

/** The commands with options of their own (and a help text). */
const withOptions = { render, plan, explain, template, convert, completion };

/** Every command, in the order the help lists them. */
export const COMMANDS = {
  ...withOptions,
  help: {
    usage: 'help [COMMAND]',
    summary: "this help, or a command's options",
    operands: Object.keys(withOptions),
    flags: {},
  },
  version: { usage: 'version', summary: 'print the version', operands: [], flags: {} },
} as const satisfies Record<string, CommandSpec>;

/** What the program takes before any command: `--color[=WHEN]` anywhere, and help and version as options. */
export const GLOBAL: ArgSpec = {
  flags: { color: 'string', help: 'boolean', h: 'boolean', version: 'boolean' },
  values: { color: COLOUR_WHEN },
};

/** The help's lines for the commands: the bare program (the KRM function), then each command. */
export const commandLines = (): string =>
  [
    ['', 'KRM function: ResourceList on stdin, ResourceList on stdout'],
    ...Object.values(COMMANDS).map((c) => [` ${c.usage}`, c.summary]),
  ]
    .map(([usage, summary]) => `${`  render-clusterclass${usage}`.padEnd(43)}${summary}\n`)
    .join('');
