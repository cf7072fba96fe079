/**
 * Install paths as users take them (the package is not on the npm registry): the README's quick
 * start and "Install" lines in a fresh `git clone`, the tarball `npm pack` makes installed with
 * `npm install -g` and run from PATH, and the commands of the GitHub Actions, Argo CD and Flux
 * examples as they are written there, on a fleet in two namespaces. npm installs into a
 * temporary prefix; nothing outside the test's directories changes.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { classObjects, clusterName, clusterObject } from '../../bench/fleet.mjs';
import { hasTool, repoRoot, run, skipUnless, snapshot } from '../helpers/tools.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const examples = join(repoRoot, 'examples');
const temp = (name: string) => mkdtempSync(join(tmpdir(), `rcc-${name}-`));

/** The lines of the first fenced block of `lang` after the line `heading` in `text`. */
function blockUnder(text: string, heading: string, lang: string): string[] {
  const at = `\n${text}`.indexOf(`\n${heading}\n`);
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text.slice(at));
  if (at < 0 || !block) throw new Error(`no ${lang} block under ${heading}`);
  return block[1]!.split('\n').filter((l) => l.trim() !== '');
}

/** The commands of a README `sh` block: its lines less the comment-only ones (a comment's continuation). */
const commandsUnder = (heading: string) =>
  blockUnder(readme, heading, 'sh').filter((l) => !l.trimStart().startsWith('#'));

/** PATH without any node_modules/.bin (npm test puts the checkout's there): only the system's tools. */
const systemPath = (process.env.PATH ?? '/usr/bin:/bin')
  .split(':')
  .filter((p) => !p.includes('node_modules'))
  .join(':');

/**
 * The machine's global npmrc (its CA file, its registry). npm reads it from `<prefix>/etc/npmrc`,
 * so a temporary prefix would hide it, and a dependency not yet in npm's cache could not be fetched.
 */
const globalConfig = run('npm', ['config', 'get', 'globalconfig'], {
  env: { PATH: systemPath, HOME: process.env.HOME ?? '/tmp' },
}).stdout.trim();

/** An environment whose npm installs globally into `prefix`, with `prefix/bin` first on PATH, and nothing of this run's npm. */
function npmEnv(prefix: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${join(prefix, 'bin')}:${systemPath}`,
    HOME: process.env.HOME ?? '/tmp',
    NPM_CONFIG_PREFIX: prefix,
    NPM_CONFIG_GLOBALCONFIG: globalConfig,
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    ...extra,
  };
}

const sh = (command: string, cwd: string, env: NodeJS.ProcessEnv) => run('sh', ['-c', command], { cwd, env });

function expectOk(r: { code: number; stdout: string; stderr: string }, what: string) {
  expect(r.code, `${what}\n${r.stdout}\n${r.stderr}`).toBe(0);
}

/** The files of an installed package (no node_modules: it has no runtime dependencies). */
const installedFiles = (prefix: string) =>
  Object.keys(snapshot(join(prefix, 'lib', 'node_modules', 'render-clusterclass'))).sort();
const INSTALLED = [
  'LICENSE',
  'README.md',
  'bin/package.json',
  'bin/render-clusterclass',
  'dist/render-clusterclass.cjs',
  'dist/render-clusterclass.cjs.cache',
  'package.json',
  'schemas/plan.v1.json',
];

/**
 * A fleet repository as a platform team has it: the bench class and its templates in two
 * namespaces, `count` Clusters spread over them, under `clusters/`.
 */
function fleetRepo(count: number): string {
  const dir = temp('fleet');
  mkdirSync(join(dir, 'clusters'));
  const inNamespace = (text: string, ns: string) => text.replace(/namespace: fleet\b/g, `namespace: ${ns}`);
  const classes = classObjects()
    .map((o) => YAML.stringify(o))
    .join('---\n');
  for (const ns of ['team-a', 'team-b'])
    writeFileSync(join(dir, 'clusters', `class-${ns}.yaml`), inNamespace(classes, ns));
  for (let i = 0; i < count; i++) {
    writeFileSync(
      join(dir, 'clusters', `${clusterName(i)}.yaml`),
      inNamespace(YAML.stringify(clusterObject(i)), i % 3 === 0 ? 'team-b' : 'team-a'),
    );
  }
  return dir;
}

/** The tarball of this checkout's build (`npm test` builds first), as `npm pack` makes it. */
let tarball = '';
beforeAll(() => {
  const dest = temp('pack');
  const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', dest], {
    cwd: repoRoot,
    env: npmEnv(temp('prefix')),
  });
  expectOk(packed, 'npm pack');
  tarball = join(dest, packed.stdout.trim().split('\n').pop()!);
});

describe('README quick start and Install, in a fresh git clone', () => {
  it('the quick start renders the example; Install links, packs and installs a tarball that runs from PATH', () => {
    const [setup, suite, ...more] = commandsUnder('## Quick start');
    expect(more).toEqual([]);
    // The second set-up command is the whole suite: checked as written, not run (this test is in it).
    expect(suite!.replace(/#.*/, '').trim()).toBe('npm test');

    const clone = join(temp('clone'), 'render-clusterclass');
    expectOk(run('git', ['clone', '--quiet', repoRoot, clone]), 'git clone');
    const prefix = temp('prefix');
    const env = npmEnv(prefix);
    const quick = sh(setup!, clone, env);
    expectOk(quick, setup!);
    expect(quick.stdout).toContain('kind: KubeadmControlPlane');
    expect(quick.stderr).not.toMatch(/warning/);

    const app = join(temp('app'), 'basic');
    cpSync(join(examples, 'basic'), app, { recursive: true });
    const fromCheckout = run(join(clone, 'bin', 'render-clusterclass'), ['render', '.'], { cwd: app, env });
    expectOk(fromCheckout, "the clone's bin");
    const installed = join(prefix, 'bin', 'render-clusterclass');
    for (const line of commandsUnder('## Install')) {
      expectOk(sh(line, clone, env), line);
      const command = line.replace(/#.*/, '').trim();
      if (command === 'npm link')
        expect(realpathSync(installed)).toBe(realpathSync(join(clone, 'bin', 'render-clusterclass')));
      if (command.startsWith('npm install -g')) {
        expect(lstatSync(join(prefix, 'lib', 'node_modules', 'render-clusterclass')).isSymbolicLink()).toBe(false);
        expect(installedFiles(prefix)).toEqual(INSTALLED);
      }
      // Whatever the line installed, the command on PATH renders as the checkout does.
      if (existsSync(installed)) expect(sh('render-clusterclass render .', app, env)).toEqual(fromCheckout);
    }
    expect(existsSync(installed)).toBe(true);
  }, 1_200_000); // npm ci, then npm link and npm pack each build: minutes on a loaded machine
});

describe('examples install from the packed tarball', () => {
  it('GitHub Actions: every step of render-fleet.yaml, four shards and the collect job, gives the unsharded render', () => {
    const workflow = YAML.parse(readFileSync(join(examples, 'github-actions', 'render-fleet.yaml'), 'utf8'));
    const count = 24;
    const repo = fleetRepo(count);
    // The workflow installs what its RENDER_CLUSTERCLASS names: the tarball committed under vendor/.
    const vendored = workflow.env.RENDER_CLUSTERCLASS as string;
    expect(basename(vendored)).toBe(basename(tarball));
    mkdirSync(join(repo, 'vendor'));
    cpSync(tarball, join(repo, vendored));

    const artifacts = temp('artifacts');
    /** Runs a job's steps: `run:` as written (GitHub expressions substituted), the actions it uses emulated. */
    const runJob = (
      job: { steps: Record<string, any>[] },
      matrix: Record<string, string>,
      workspace: string,
      extra: NodeJS.ProcessEnv = {},
    ) => {
      const env = npmEnv(temp('prefix'), { ...workflow.env, ...extra });
      const expand = (text: string) =>
        text.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, expr: string) => {
          const [scope, key] = expr.split('.');
          if (scope === 'matrix' && key! in matrix) return matrix[key!]!;
          throw new Error(`the test does not know the expression ${expr}`);
        });
      const outputs: string[] = [];
      for (const step of job.steps) {
        const uses = String(step.uses ?? '').replace(/@.*/, '');
        if (step.run) {
          const r = sh(expand(step.run), workspace, { ...env, ...step.env });
          expectOk(r, step.run);
          outputs.push(r.stdout);
        } else if (uses === 'actions/checkout') cpSync(repo, workspace, { recursive: true });
        else if (uses === 'actions/setup-node') expect(String(step.with['node-version'])).toBe('20');
        else if (uses === 'actions/upload-artifact') {
          // upload-artifact leaves hidden files out (include-hidden-files: false).
          const dest = join(artifacts, expand(step.with.name));
          cpSync(join(workspace, step.with.path), dest, {
            recursive: true,
            filter: (src) => !basename(src).startsWith('.'),
          });
        } else if (uses === 'actions/download-artifact') {
          const pattern = new RegExp(`^${step.with.pattern.replace('*', '.*')}$`);
          expect(step.with['merge-multiple']).toBe(true);
          for (const name of readdirSync(artifacts).filter((n) => pattern.test(n))) {
            cpSync(join(artifacts, name), join(workspace, step.with.path), {
              recursive: true,
              errorOnExist: true,
              force: false,
            });
          }
        } else throw new Error(`the test does not know the step ${JSON.stringify(step)}`);
      }
      return outputs;
    };

    const shards: string[] = workflow.jobs.render.strategy.matrix.shard.map(String);
    expect(shards).toEqual(['0', '1', '2', '3']);
    const rendered = new Set<string>();
    for (const shard of shards) {
      const workspace = temp('runner');
      runJob(workflow.jobs.render, { shard }, workspace);
      for (const file of Object.keys(snapshot(join(artifacts, `rendered-shard-${shard}`)))) {
        expect(rendered.has(file), `${file} in two shards`).toBe(false);
        rendered.add(file);
      }
    }
    expect(workflow.jobs.collect.needs).toBe('render');
    const collect = temp('collect');
    const summary = join(collect, 'summary.md');
    const printed = runJob(workflow.jobs.collect, {}, collect, { GITHUB_STEP_SUMMARY: summary });
    expect(printed.join('')).toBe(`rendered ${count} Clusters\n`);
    expect(readFileSync(summary, 'utf8')).toBe(`rendered ${count} Clusters\n`);

    // The collected tree is the unsharded render, file for file, in both namespaces.
    const whole = join(temp('whole'), 'out');
    expectOk(
      run(join(repoRoot, 'bin', 'render-clusterclass'), ['render', join(repo, 'clusters'), '-o', whole]),
      'unsharded render',
    );
    const expected = snapshot(whole);
    delete expected['.render-clusterclass-outputs'];
    expect(snapshot(join(collect, 'rendered'))).toEqual(expected);
    expect(new Set(Object.keys(expected).map((f) => f.split('/')[0]))).toEqual(new Set(['team-a', 'team-b']));
  });

  it("Argo CD: the image's RUN line installs the tarball, and the plugin's generate command runs it from PATH", () => {
    const argo = readFileSync(join(examples, 'argocd', 'README.md'), 'utf8');
    const install = blockUnder(argo, '# render-clusterclass as an Argo CD Config Management Plugin', 'dockerfile')
      .map((l) => l.trim())
      .find((l) => l.startsWith('RUN npm install -g'))!;
    const prefix = temp('prefix');
    const env = npmEnv(prefix);
    // The Dockerfile copies the tarball to /tmp (and the line removes it); here to a directory of its own.
    const copy = join(temp('image'), basename(tarball));
    cpSync(tarball, copy);
    const command = install.slice('RUN '.length).replaceAll(`/tmp/${basename(tarball)}`, copy);
    expect(command).not.toBe(install.slice('RUN '.length));
    expectOk(sh(command, temp('image'), env), command);
    expect(existsSync(copy)).toBe(false);
    expect(installedFiles(prefix)).toEqual(INSTALLED);

    const plugin = YAML.parse(readFileSync(join(examples, 'argocd', 'plugin.yaml'), 'utf8'));
    const app = join(temp('app'), 'clusters');
    cpSync(join(examples, 'basic'), app, { recursive: true });
    cpSync(join(examples, 'argocd', 'clusterclass-render.yaml'), join(app, 'clusterclass-render.yaml'));
    const [cmd, ...args] = [...plugin.spec.generate.command, ...plugin.spec.generate.args];
    const out = run(cmd, args, { cwd: app, env: { ...env, ARGOCD_APP_NAME: 'clusters' } });
    expectOk(out, 'generate');
    expect(out.stdout).toContain('kind: KubeadmControlPlane');
  });

  it("Flux: the README's CI command writes rendered/<namespace>/<cluster>.yaml with the installed tarball", () => {
    const flux = readme.slice(readme.indexOf('\n### Flux and other GitOps pipelines\n'));
    const command = /`(render-clusterclass render [^`]+)`/.exec(flux)![1]!;
    const prefix = temp('prefix');
    const env = npmEnv(prefix);
    expectOk(run('npm', ['install', '-g', '--no-audit', '--no-fund', tarball], { env }), 'npm install -g');
    const repo = fleetRepo(6);
    expectOk(sh(command, repo, env), command);
    expect(Object.keys(snapshot(join(repo, 'rendered'))).sort()).toEqual([
      '.render-clusterclass-outputs',
      ...['team-a/c00001', 'team-a/c00002', 'team-a/c00004', 'team-a/c00005', 'team-b/c00000', 'team-b/c00003'].map(
        (f) => `${f}.yaml`,
      ),
    ]);
  });

  it.skipIf(skipUnless('kubectl'))(
    'kustomize: the plugin, copied out of any checkout, runs the render-clusterclass on PATH',
    () => {
      const prefix = temp('prefix');
      const env = npmEnv(prefix);
      expectOk(run('npm', ['install', '-g', '--no-audit', '--no-fund', tarball], { env }), 'npm install -g');
      const dir = join(temp('kustomize'), 'app');
      cpSync(join(examples, 'kustomize'), dir, { recursive: true });
      const out = run('kubectl', ['kustomize', '--enable-alpha-plugins', dir], {
        env: { ...env, KUSTOMIZE_PLUGIN_HOME: join(dir, 'plugins') },
      });
      expectOk(out, 'kubectl kustomize');
      expect(out.stdout).toContain('kind: KubeadmControlPlane');
    },
  );
});

/** A daemonless builder from Debian (`apt-get install buildah` or `podman`), or undefined. */
const builder = ['buildah', 'podman'].find(hasTool);

describe('the container image (Dockerfile)', () => {
  it('builds and runs as a KRM function where a daemonless builder can fetch its base image', ({ skip }) => {
    if (!builder) {
      console.warn('SKIPPED: neither buildah nor podman is installed; the container image was not built');
      return skip();
    }
    const bases = [
      ...new Set([...readFileSync(join(repoRoot, 'Dockerfile'), 'utf8').matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!)),
    ];
    for (const base of bases) {
      const pulled = run(builder, ['pull', '--quiet', base]);
      if (pulled.code !== 0) {
        console.warn(
          `SKIPPED: ${builder} cannot pull the base image ${base} here (${pulled.stderr.trim().split('\n').pop()}); the container image was not built`,
        );
        return skip();
      }
    }
    const tag = 'localhost/render-clusterclass-test:latest';
    const built = spawnSync(
      builder,
      builder === 'buildah' ? ['bud', '--quiet', '-t', tag, '.'] : ['build', '--quiet', '-t', tag, '.'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(built.status, built.stderr).toBe(0);
    const source = run('kpt', ['fn', 'source', join(examples, 'basic')]);
    expectOk(source, 'kpt fn source');
    const runArgs =
      builder === 'podman'
        ? ['run', '--rm', '-i', '--network', 'none', tag]
        : [
            'run',
            '--network',
            'none',
            run('buildah', ['from', '--quiet', tag]).stdout.trim(),
            '--',
            'node',
            '/fn/bin/render-clusterclass',
          ];
    const out = run(builder, runArgs, { input: source.stdout });
    expectOk(out, 'the image as a KRM function');
    expect(out.stdout).toContain('kind: KubeadmControlPlane');
  });
});
