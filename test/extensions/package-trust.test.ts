/**
 * A package alone never makes the renderer connect anywhere (README "Security and limits"): an
 * ExtensionConfig among the inputs, a function config's `extensions` and its `extensionURLs` are
 * package content, used only when the operator allows it from outside the package
 * (`--allow-package-extensions`, RENDER_CLUSTERCLASS_ALLOW_PACKAGE_EXTENSIONS=1). "No connection"
 * is measured: the ExtensionConfigs point at TCP listeners of this process that count every
 * connection (and close it at once). Runs are asynchronous so the listeners can accept.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, hasTool } from '../helpers/tools.js';
import { cli, extensionConfig, tempDir, type CliRun } from './helpers.js';
import { EXT, classYaml, clusterYaml } from './inputs.js';

interface Listener {
  url: string;
  connections: number;
  server: Server;
}

async function listen(): Promise<Listener> {
  const l = { url: '', connections: 0, server: createServer() };
  l.server.on('connection', (socket) => {
    l.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => l.server.listen(0, '127.0.0.1', resolve));
  l.url = `https://127.0.0.1:${(l.server.address() as AddressInfo).port}`;
  return l;
}

/** A command in a child process, with its own environment (never blocking the listeners). */
function exec(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const ENV = 'RENDER_CLUSTERCLASS_ALLOW_PACKAGE_EXTENSIONS';
const withoutOptIn = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env[ENV];
  return env;
};
const REFUSED = `ExtensionConfig "${EXT}" comes with the package: the package alone may not make the renderer connect anywhere: give it with --extensions, allow the package's ExtensionConfigs (--allow-package-extensions, or ${ENV}=1 in the renderer's environment), or replay recorded answers (--replay-extensions)`;

let pkgTarget: Listener;
let operatorTarget: Listener;
beforeAll(async () => {
  [pkgTarget, operatorTarget] = [await listen(), await listen()];
});
afterAll(() => {
  pkgTarget?.server.close();
  operatorTarget?.server.close();
});

/** The test class and Cluster (external patches of ExtensionConfig `test-extension`), plus `files`. */
const pkg = (files: Record<string, string> = {}) =>
  tempDir({ 'class.yaml': classYaml(), 'cluster.yaml': clusterYaml(), ...files });
const packageConfig = () => extensionConfig(EXT, { url: pkgTarget.url }, undefined);

describe('a package alone opens no network connection', () => {
  it('render: an ExtensionConfig among the inputs is not called; the Cluster fails saying how to opt in', async () => {
    const dir = pkg({ 'extension.yaml': packageConfig() });
    const before = pkgTarget.connections;
    const r = await cli(['render', dir], undefined, undefined, withoutOptIn());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(REFUSED);
    expect(pkgTarget.connections).toBe(before);
    // The operator's opt-in, by flag or environment, calls it (the listener sees the connections).
    await cli(['render', dir, '--allow-package-extensions'], undefined, undefined, withoutOptIn());
    expect(pkgTarget.connections).toBeGreaterThan(before);
    const flagged = pkgTarget.connections;
    await cli(['render', dir], undefined, undefined, { ...withoutOptIn(), [ENV]: '1' });
    expect(pkgTarget.connections).toBeGreaterThan(flagged);
  });

  it("render: the same ExtensionConfig given with --extensions is the operator's and is called", async () => {
    const dir = pkg();
    const before = pkgTarget.connections;
    const r = await cli(
      ['render', dir, '--extensions', tempDir({ 'extension.yaml': packageConfig() })],
      undefined,
      undefined,
      withoutOptIn(),
    );
    expect(r.stderr).toContain(`Post "${pkgTarget.url}/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?timeout=10s"`);
    expect(pkgTarget.connections).toBeGreaterThan(before);
  });

  it("a name conflict: the operator's ExtensionConfig wins, with or without the opt-in, and the package's is said to be unused", async () => {
    const dir = pkg({ 'extension.yaml': packageConfig() });
    const operator = tempDir({ 'extension.yaml': extensionConfig(EXT, { url: operatorTarget.url }, undefined) });
    const [pkgBefore, operatorBefore] = [pkgTarget.connections, operatorTarget.connections];
    for (const optIn of [[], ['--allow-package-extensions']]) {
      const r = await cli(
        ['render', dir, '--extensions', operator, '--format', 'resourcelist', ...optIn],
        undefined,
        undefined,
        withoutOptIn(),
      );
      const results: { message: string; severity: string; resourceRef?: { kind: string } }[] = YAML.parse(
        r.stdout,
      ).results;
      expect(results).toContainEqual(
        expect.objectContaining({
          severity: 'info',
          message: `not used: the operator's ExtensionConfig "${EXT}" (--extensions) has the same name and is called instead`,
          resourceRef: expect.objectContaining({ kind: 'ExtensionConfig' }),
        }),
      );
    }
    expect(pkgTarget.connections).toBe(pkgBefore);
    expect(operatorTarget.connections).toBeGreaterThan(operatorBefore);
  });

  it("extensionURLs of a --config file are package content: they never redirect the operator's ExtensionConfig without the opt-in", async () => {
    const closed = await listen();
    closed.server.close();
    const dir = pkg({
      'fn.yaml': `apiVersion: fn.render-clusterclass.dev/v1alpha1\nkind: RenderClusterClass\nmetadata: {name: fn}\nspec:\n  extensionURLs: {${EXT}: ${pkgTarget.url}}\n`,
    });
    const operator = tempDir({ 'extension.yaml': extensionConfig(EXT, { url: closed.url }, undefined) });
    const before = pkgTarget.connections;
    const r = await cli(
      [
        'render',
        join(dir, 'class.yaml'),
        join(dir, 'cluster.yaml'),
        '--config',
        join(dir, 'fn.yaml'),
        '--extensions',
        operator,
      ],
      undefined,
      undefined,
      withoutOptIn(),
    );
    expect(r.stderr).toContain(
      `warning: extensionURLs of the function config not used (${EXT}): the package alone may not make the renderer connect anywhere: give them with --extension NAME=URL`,
    );
    expect(r.stderr).toContain(`Post "${closed.url}/`);
    expect(pkgTarget.connections).toBe(before);
    await cli(
      [
        'render',
        join(dir, 'class.yaml'),
        join(dir, 'cluster.yaml'),
        '--config',
        join(dir, 'fn.yaml'),
        '--extensions',
        operator,
        '--allow-package-extensions',
      ],
      undefined,
      undefined,
      withoutOptIn(),
    );
    expect(pkgTarget.connections).toBeGreaterThan(before);
  });
});

describe.skipIf(!hasTool('kpt'))(
  "under kpt: the function config and the items are the package's; the environment is the operator's",
  () => {
    /** A kpt package whose Kptfile runs the function with `data` as its ConfigMap. */
    function kptPackage(files: Record<string, string>, data: Record<string, string> = {}): string {
      const dir = pkg(files);
      const config = Object.keys(data).length > 0 ? `      configMap: ${JSON.stringify(data)}\n` : '';
      writeFileSync(
        join(dir, 'Kptfile'),
        `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n  annotations:\n    config.kubernetes.io/local-config: "true"\npipeline:\n  mutators:\n    - exec: ${binPath}\n${config}`,
      );
      return dir;
    }

    it('kpt fn render and kpt fn eval --exec: no connection for an ExtensionConfig item, a function-config extensions file or extensionURLs', async () => {
      const elsewhere = extensionConfig(EXT, { url: 'https://127.0.0.1:1' }, undefined);
      const packages = [
        kptPackage({ 'extension.yaml': packageConfig() }),
        kptPackage({ 'extension.yaml': elsewhere }, { extensionURLs: `${EXT}=${pkgTarget.url}` }),
      ];
      const viaFile = kptPackage({}, { extensions: 'ext/extension.yaml' });
      mkdirSync(join(viaFile, 'ext'));
      writeFileSync(join(viaFile, 'ext', 'extension.yaml'), packageConfig());
      writeFileSync(join(viaFile, '.krmignore'), 'ext/\n');
      packages.push(viaFile);
      const before = pkgTarget.connections;
      for (const dir of packages) {
        const rendered = await exec('kpt', ['fn', 'render', '.', '--allow-exec'], dir, withoutOptIn());
        expect(rendered.code, rendered.stderr).not.toBe(0);
        expect(rendered.stderr).toContain('the package alone may not make the renderer connect anywhere');
      }
      const evaluated = await exec('kpt', ['fn', 'eval', '.', '--exec', binPath], packages[0]!, withoutOptIn());
      expect(evaluated.code).not.toBe(0);
      expect(evaluated.stderr).toContain(REFUSED);
      expect(pkgTarget.connections).toBe(before);
      // kpt passes its environment to exec functions: the operator's opt-in reaches the function.
      for (const dir of packages)
        await exec('kpt', ['fn', 'render', '.', '--allow-exec'], dir, { ...withoutOptIn(), [ENV]: '1' });
      expect(pkgTarget.connections).toBeGreaterThanOrEqual(before + packages.length);
    });
  },
);
