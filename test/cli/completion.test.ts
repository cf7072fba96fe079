/**
 * `render-clusterclass completion SHELL`: the scripts the real CLI prints, run by the real
 * shells. bash always (COMP_WORDS as bash builds them, `complete -p`); zsh and fish when
 * installed (skipped visibly otherwise): zsh with its completion builtins stubbed to print what
 * they are given, fish through its own engine (`complete -C`).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { binPath, run, skipUnless } from '../helpers/tools.js';

const script = (shell: string): string => {
  const out = run(binPath, ['completion', shell]);
  expect(out.code).toBe(0);
  return out.stdout;
};

/** A directory with a file and a subdirectory, where completion of paths runs. */
const dir = mkdtempSync(join(tmpdir(), 'rcc-completion-'));
mkdirSync(join(dir, 'clusters'));
writeFileSync(join(dir, 'classes.yaml'), '');
for (const shell of ['bash', 'zsh', 'fish']) writeFileSync(join(dir, `completion.${shell}`), script(shell));

/** What bash completes for the words typed so far (the last one is being completed). */
function bash(...words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const out = run(
    'bash',
    [
      '-c',
      `source completion.bash; COMP_WORDS=(render-clusterclass ${line}); COMP_CWORD=${words.length}; _render_clusterclass; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { cwd: dir },
  );
  expect(out.stderr).toBe('');
  return out.stdout.split('\n').filter((l) => l !== '');
}

describe('completion bash', () => {
  it('registers itself for the program', () => {
    expect(run('bash', ['-c', 'source completion.bash; complete -p render-clusterclass'], { cwd: dir }).stdout).toBe(
      'complete -F _render_clusterclass render-clusterclass\n',
    );
  });
  it("completes commands, then each command's options from the table the parser uses", () => {
    expect(bash('')).toEqual(Object.keys(COMMANDS));
    expect(bash('ex')).toEqual(['explain']);
    for (const [name, spec] of Object.entries(COMMANDS)) {
      const options = [...Object.keys(spec.flags).map((f) => (f.length === 1 ? `-${f}` : `--${f}`)), '--color'];
      expect(bash(name, '-').sort()).toEqual(options.sort());
    }
  });
  it('completes the values of options with a fixed set, in every spelling', () => {
    expect(bash('render', '--format', '')).toEqual(['manifests', 'all', 'resourcelist', 'kustomize', 'json']);
    expect(bash('render', '--format', '=', 'j')).toEqual(['json']);
    expect(bash('render', '--format', '=')).toEqual(['manifests', 'all', 'resourcelist', 'kustomize', 'json']);
    expect(bash('render', '--format=r')).toEqual(['--format=resourcelist']);
    expect(bash('render', '--mode', '')).toEqual(['expand', 'preview', 'validate']);
    expect(bash('plan', '--capi-version', '')).toEqual(['1.12', '1.13', '1.14', '1.15']);
    expect(bash('explain', '--format', '')).toEqual(['text', 'json']);
    expect(bash('--color', '=', 'always', 'render', '--fail-on', '')).toEqual(['error', 'warning']);
    expect(bash('completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });
  it('completes paths where a path goes, and nothing for free text', () => {
    expect(bash('render', 'cl').sort()).toEqual(['classes.yaml', 'clusters']);
    expect(bash('render', '-o', 'clu')).toEqual(['clusters']);
    expect(bash('render', '--set', '')).toEqual([]);
    expect(bash('explain', '')).toEqual([]);
  });
});

describe.skipIf(skipUnless('zsh'))('completion zsh', () => {
  const zsh = (...words: string[]): string => {
    const stubs =
      'compadd() { while [[ $# -gt 0 && "$1" != -- ]]; do shift; done; shift; print -r -- "$*"; }; _files() { print -r -- FILES; }; compset() { :; }; compdef() { print -r -- "compdef $*"; }';
    const out = run(
      'zsh',
      [
        '-f',
        '-c',
        `${stubs}; source ./completion.zsh; words=(render-clusterclass ${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length + 1}; _render_clusterclass`,
      ],
      { cwd: dir },
    );
    expect(out.stderr).toBe('');
    return out.stdout;
  };
  it('registers itself with compdef and offers commands, options, values and files', () => {
    expect(zsh('')).toBe(`compdef _render_clusterclass render-clusterclass\n${Object.keys(COMMANDS).join(' ')}\n`);
    expect(zsh('render', '--format', '')).toContain('manifests all resourcelist kustomize json\n');
    expect(zsh('render', '--capi-version=1')).toContain('1.12 1.13 1.14 1.15\n');
    expect(zsh('render', '-o', '')).toContain('FILES\n');
    expect(zsh('render', '')).toContain('FILES\n');
    expect(zsh('completion', '')).toContain('bash zsh fish\n');
    expect(zsh('plan', '--')).toContain('--base --format --config --set --help');
  });
});

describe.skipIf(skipUnless('fish'))('completion fish', () => {
  const fish = (line: string): string[] => {
    const out = run('fish', ['--no-config', '-c', `source completion.fish; complete -C '${line}'`], { cwd: dir });
    expect(out.stderr).toBe('');
    return out.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0]!);
  };
  it("offers commands, options, values and files through fish's own engine", () => {
    expect(fish('render-clusterclass ').sort()).toEqual(Object.keys(COMMANDS).sort());
    expect(fish('render-clusterclass render --format ')).toEqual([
      'all',
      'json',
      'kustomize',
      'manifests',
      'resourcelist',
    ]);
    expect(fish('render-clusterclass render --format=j')).toEqual(['--format=json']);
    expect(fish('render-clusterclass explain --format ')).toEqual(['json', 'text']);
    expect(fish('render-clusterclass render cl')).toEqual(['classes.yaml', 'clusters/']);
    expect(fish('render-clusterclass completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(fish('render-clusterclass --col')).toEqual(['--color']);
  });
});

describe('completion usage', () => {
  it('refuses no or an unknown shell with exit 3', () => {
    expect(run(binPath, ['completion']).code).toBe(3);
    const unknown = run(binPath, ['completion', 'powershell']);
    expect([unknown.code, unknown.stderr]).toEqual([
      3,
      'render-clusterclass completion: unknown shell "powershell": use bash, zsh or fish (see render-clusterclass completion --help)\n',
    ]);
  });
});
