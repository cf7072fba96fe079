/**
 * `render-clusterclass completion bash|zsh|fish`: a completion script, generated from the command
 * table (./commands.ts) that the parsers use, for commands, options, the values of options that
 * take a fixed set, and files where an option or operand is a path.
 */
import type { ArgSpec } from './args.js';
import { COLOUR_WHEN, COMMANDS, GLOBAL, SHELLS, type CommandSpec } from './commands.js';
import { ExitCode, type CliIO } from './io.js';

export const COMPLETION_HELP = `Usage: render-clusterclass completion SHELL

Prints a completion script for SHELL (bash, zsh or fish): commands, options, the values of
options with a fixed set (formats, modes, CAPI versions) and file names where a path goes.

  bash   source <(render-clusterclass completion bash)     (e.g. in ~/.bashrc)
  zsh    source <(render-clusterclass completion zsh)      (after compinit, e.g. in ~/.zshrc)
  fish   render-clusterclass completion fish > ~/.config/fish/completions/render-clusterclass.fish
Exit codes: 0 ok, 3 no or an unknown SHELL.
`;

const PROGRAM = 'render-clusterclass';

/** A word in single quotes, for any of the three shells. */
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const spelled = (flag: string): string => (flag.length === 1 ? `-${flag}` : `--${flag}`);

/** One command's options as the shells see them: every spelling, and what its value is. */
interface Option {
  flag: string;
  /** `boolean`: no value; `paths`: a file or directory; `words`: one of `values`; `any`: free text. */
  value: 'boolean' | 'paths' | 'words' | 'any';
  values: readonly string[];
}

function optionsOf(spec: ArgSpec): Option[] {
  const options = Object.entries(spec.flags).map(([flag, type]): Option => {
    const values = spec.values?.[flag] ?? [];
    const value =
      type === 'boolean' ? 'boolean' : values.length > 0 ? 'words' : spec.paths?.includes(flag) ? 'paths' : 'any';
    return { flag, value, values };
  });
  // `--color[=WHEN]` goes anywhere on the line (main.ts globalOptions).
  return spec === GLOBAL ? options : [...options, { flag: 'color', value: 'words', values: COLOUR_WHEN }];
}

/** Every command with its options; '' is the program before any command. */
const table = (): { name: string; options: Option[]; operands: CommandSpec['operands'] }[] => [
  { name: '', options: optionsOf(GLOBAL), operands: Object.keys(COMMANDS) },
  ...Object.entries(COMMANDS).map(([name, spec]) => ({ name, options: optionsOf(spec), operands: spec.operands })),
];

const words = (list: readonly string[]): string => quote(list.join(' '));

/**
 * bash: the command is the first word that is not an option (global options take no separate
 * value); `--opt=value` arrives as three words, `--opt`, `=`, `value` (`=` in COMP_WORDBREAKS,
 * the default), else as one.
 */
function bash(): string {
  const rows = table();
  const cases = (body: (r: (typeof rows)[number]) => string | undefined) =>
    rows.flatMap((r) => {
      const b = body(r);
      return b === undefined ? [] : [`    ${quote(r.name)}) ${b} ;;`];
    });
  const valueCases = rows.flatMap((r) =>
    r.options
      .filter((o) => o.value !== 'boolean')
      .map((o) => {
        const reply =
          o.value === 'words'
            ? `COMPREPLY=($(compgen -W ${words(o.values)} -- "$cur"))`
            : o.value === 'paths'
              ? '_render_clusterclass_files'
              : 'COMPREPLY=()';
        return `    ${quote(`${r.name} ${spelled(o.flag)}`)}) ${reply} ;;`;
      }),
  );
  const operands = cases((r) =>
    r.operands === 'paths'
      ? '_render_clusterclass_files'
      : r.operands === 'other'
        ? 'COMPREPLY=()'
        : `COMPREPLY=($(compgen -W ${words(r.operands)} -- "$cur"))`,
  );
  return `# bash completion for ${PROGRAM}: source <(${PROGRAM} completion bash)
_render_clusterclass_files() {
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
}
_render_clusterclass() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" option="" command="" prefix="" i
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      -*|=) ;;
      *) [[ "\${COMP_WORDS[i-1]}" == = ]] || { command="\${COMP_WORDS[i]}"; break; } ;;
    esac
  done
  if [[ "$cur" == = ]]; then
    option="$prev"; cur=""
  elif [[ "$cur" == -*=* ]]; then
    option="\${cur%%=*}"; prefix="$option="; cur="\${cur#*=}"
  elif [[ "$prev" == = ]] && (( COMP_CWORD > 1 )); then
    option="\${COMP_WORDS[COMP_CWORD-2]}"
  elif [[ "$prev" == -* ]]; then
    option="$prev"
  fi
  if [[ -n "$option" ]]; then
    case "$command $option" in
${valueCases.join('\n')}
    *) option="" ;;
    esac
    [[ -n "$prefix" ]] && COMPREPLY=("\${COMPREPLY[@]/#/$prefix}")
    [[ -n "$option" ]] && return 0
  fi
  if [[ "$cur" == -* ]]; then
    case "$command" in
${cases((r) => `COMPREPLY=($(compgen -W ${words(r.options.map((o) => spelled(o.flag)))} -- "$cur"))`).join('\n')}
    esac
    return 0
  fi
  case "$command" in
${operands.join('\n')}
  esac
}
complete -F _render_clusterclass ${PROGRAM}
`;
}

/** zsh: the same walk over \`words\`; \`--opt=value\` is one word, its prefix moved aside with compset. */
function zsh(): string {
  const rows = table();
  const valueCases = rows.flatMap((r) =>
    r.options
      .filter((o) => o.value !== 'boolean')
      .map(
        (o) =>
          `    ${quote(`${r.name} ${spelled(o.flag)}`)}) ${o.value === 'words' ? `compadd -- ${o.values.map(quote).join(' ')}` : o.value === 'paths' ? '_files' : ':'} ; return ;;`,
      ),
  );
  const optionCases = rows.map(
    (r) => `    ${quote(r.name)}) compadd -- ${r.options.map((o) => quote(spelled(o.flag))).join(' ')} ;;`,
  );
  const operandCases = rows.map(
    (r) =>
      `    ${quote(r.name)}) ${r.operands === 'paths' ? '_files' : r.operands === 'other' || r.operands.length === 0 ? ':' : `compadd -- ${r.operands.map(quote).join(' ')}`} ;;`,
  );
  return `#compdef ${PROGRAM}
# zsh completion for ${PROGRAM}: source <(${PROGRAM} completion zsh), after compinit
_render_clusterclass() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" option="" command="" i
  for ((i = 2; i < CURRENT; i++)); do
    case "\${words[i]}" in
      -*) ;;
      *) command="\${words[i]}"; break ;;
    esac
  done
  if [[ "$cur" == -*=* ]]; then
    option="\${cur%%=*}"
    compset -P '*='
  elif [[ "$prev" == -* && "$prev" != *=* ]]; then
    option="$prev"
  fi
  if [[ -n "$option" ]]; then
    case "$command $option" in
${valueCases.join('\n')}
    esac
  fi
  if [[ "$cur" == -* ]]; then
    case "$command" in
${optionCases.join('\n')}
    esac
    return
  fi
  case "$command" in
${operandCases.join('\n')}
  esac
}
if [[ "\${funcstack[1]}" == _render_clusterclass ]]; then
  _render_clusterclass "$@"
else
  compdef _render_clusterclass ${PROGRAM}
fi
`;
}

/** fish: one \`complete\` line per command, option and operand list, each guarded by the command seen. */
function fish(): string {
  const lines = [
    `# fish completion for ${PROGRAM}: ${PROGRAM} completion fish > ~/.config/fish/completions/${PROGRAM}.fish`,
    `complete -c ${PROGRAM} -f`,
  ];
  const names = Object.keys(COMMANDS);
  for (const [name, spec] of Object.entries(COMMANDS))
    lines.push(
      `complete -c ${PROGRAM} -n ${quote(`not __fish_seen_subcommand_from ${names.join(' ')}`)} -a ${quote(name)} -d ${quote(spec.summary)}`,
    );
  for (const r of table()) {
    const when =
      r.name === '' ? `not __fish_seen_subcommand_from ${names.join(' ')}` : `__fish_seen_subcommand_from ${r.name}`;
    for (const o of r.options) {
      const flag = o.flag.length === 1 ? `-s ${o.flag}` : `-l ${o.flag}`;
      const value =
        o.value === 'boolean'
          ? ''
          : o.value === 'words'
            ? ` -x -a ${words(o.values)}`
            : o.value === 'paths'
              ? ' -r -F'
              : ' -x';
      lines.push(`complete -c ${PROGRAM} -n ${quote(when)} ${flag}${value}`);
    }
    if (r.name === '') continue;
    if (r.operands === 'paths') lines.push(`complete -c ${PROGRAM} -n ${quote(when)} -F`);
    else if (r.operands !== 'other' && r.operands.length > 0)
      lines.push(`complete -c ${PROGRAM} -n ${quote(when)} -a ${words(r.operands)}`);
  }
  return `${lines.join('\n')}\n`;
}

const SCRIPTS: Record<(typeof SHELLS)[number], () => string> = { bash, zsh, fish };

function completionScript(shell: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(SCRIPTS, shell) ? SCRIPTS[shell as (typeof SHELLS)[number]]() : undefined;
}

export async function runCompletionCommand(args: string[], io: CliIO): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    await io.stdout(COMPLETION_HELP);
    return ExitCode.ok;
  }
  const [shell] = args;
  const script = shell !== undefined && args.length === 1 ? completionScript(shell) : undefined;
  if (script === undefined) {
    io.stderr(
      `render-clusterclass completion: ${args.length === 0 ? 'no SHELL given' : args.length > 1 ? `one SHELL, not ${args.length} arguments` : `unknown shell "${args[0]}"`}: use bash, zsh or fish (see render-clusterclass completion --help)\n`,
    );
    return ExitCode.functionConfig;
  }
  await io.stdout(script);
  return ExitCode.ok;
}
