/**
 * External patches end to end: the real CLI (child process) calls the TypeScript test extension
 * (server.ts) over HTTPS with a CA made by openssl. Expected request shapes are CAPI's
 * api/runtime/hooks/v1alpha1 types (JSON names, omitempty); expected texts are CAPI's client
 * (internal/runtime/client/client.go) and patch engine (patches/engine.go).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hasTool, snapshot } from '../helpers/tools.js';
import { cli, extensionConfig, goRoundTrip, parseAll, tempDir } from './helpers.js';
import { EXT, classYaml, clusterYaml, namespaceYaml, type ClassOptions } from './inputs.js';
import { startExtension, type Received, type RunningExtension } from './server.js';
import { SERVICE_HOST, makePki, type TestPki } from './tls.js';

const HOOKS = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const noOpenssl = !hasTool('openssl');
if (noOpenssl) console.warn('SKIPPED: openssl is not installed; the extension end-to-end tests did not run');

let pki: TestPki;
let ext: RunningExtension;

beforeAll(async () => {
  if (noOpenssl) return;
  pki = makePki();
  ext = await startExtension(pki);
});
afterAll(async () => ext?.stop());

/** Inputs for the test class; `config` overrides the ExtensionConfig (default: url + CA + a secret setting). */
function inputs(
  o: ClassOptions & { extraCommand?: string; region?: string; config?: string; extra?: string } = {},
): string {
  const config = o.config ?? extensionConfig(EXT, { url: ext.url }, pki.caPem, { settings: { token: 's3cret-token' } });
  const { extraCommand: _e, region: _r, config: _c, extra: _x, ...classOptions } = o;
  return tempDir({
    'class.yaml': classYaml(classOptions),
    'cluster.yaml': clusterYaml(o.extraCommand, o.region),
    'extension.yaml': config,
    ...(o.extra ? { 'extra.yaml': o.extra } : {}),
  });
}

/** The ExtensionConfig is among the inputs here: the operator allows the package's (package-trust.test.ts has the default). */
const render = (dir: string, ...flags: string[]) =>
  cli(['render', dir, '--set', 'keepClassInputs=false', '--allow-package-extensions', ...flags]);
const objectsOf = (stdout: string) => parseAll(stdout);
const byKind = (objs: any[], kind: string, name?: RegExp) =>
  objs.find((o) => o.kind === kind && (!name || name.test(o.metadata.name)));
/** Requests received since `from`, for one handler path. */
const received = (from: number, path: string): Received[] =>
  ext.requests.slice(from).filter((r) => r.path.endsWith(path));

describe.skipIf(noOpenssl)('external patches through a real HTTPS extension', () => {
  it('applies inline and external patches in class order, with discovered variables, overrides and builtins', async () => {
    const r = await render(inputs());
    expect(r.stderr).not.toMatch(/\[error\]/);
    expect(r.code).toBe(0);
    const objs = objectsOf(r.stdout);
    const kcp = byKind(objs, 'KubeadmControlPlane');
    // inline-first, then the external JSONPatch (builtins + a defaulted discovered variable + a set one), then inline-last.
    expect(kcp.spec.kubeadmConfigSpec.preKubeadmCommands).toEqual([
      'echo inline-first',
      'echo external ext-1 v1.34.2 eu-west-1',
      'echo from variable',
      'echo inline-last',
    ]);
    expect(kcp.metadata.labels).toMatchObject({ region: 'eu-west-1', replicas: '3' });
    // The MD template sees its own builtins and the MD override of the discovered variable.
    expect(byKind(objs, 'DevMachineTemplate', /md-0/).spec.template.spec.backend.docker.customImage).toBe(
      'img-md-0-v1.34.2-us-east-2',
    );
    // JSONMergePatch: an object merged in, a null removing a field (RFC 7386).
    const dc = byKind(objs, 'DevCluster');
    expect(dc.spec.backend.docker).toEqual({ loadBalancer: { imageRepository: 'merged.example.com' } });
  });

  it('sends the GeneratePatches request CAPI sends: JSON names, omitempty, holder references per contract, uids, variables', async () => {
    const from = ext.requests.length;
    expect((await render(inputs())).code).toBe(0);
    const calls = received(from, `/generatepatches/builtin-patches.${EXT}`.replace(`.${EXT}`, ''));
    // Two passes (placeholder names, then final names): the same shape, so check the last one.
    expect(calls.length).toBe(2);
    const call = calls[1]!;
    expect(call.query).toBe('?timeout=10s');
    const req = call.body;
    expect(Object.keys(req)).toEqual(['kind', 'apiVersion', 'settings', 'variables', 'items']);
    expect(req.apiVersion).toBe(HOOKS);
    expect(req.kind).toBe('GeneratePatchesRequest');
    // The patch's settings over the ExtensionConfig's (cloneAndAddSettings).
    expect(req.settings).toEqual({ mode: 'strict', token: 's3cret-token' });
    // Global variables: only those defined by this patch's DiscoverVariables, Cluster order, then builtin.
    expect(req.variables.map((v: any) => v.name)).toEqual(['extraCommand', 'region', 'builtin']);
    for (const v of req.variables) expect(Object.keys(v)).toEqual(['name', 'value']);
    const cluster = req.variables[2].value.cluster;
    // ClusterBuiltins in Go field order; uid omitted (unknown offline), no network (none set).
    expect(Object.keys(cluster)).toEqual(['name', 'namespace', 'metadata', 'topology']);
    expect(cluster).toMatchObject({
      name: 'ext-1',
      namespace: 'team-a',
      topology: {
        version: 'v1.34.2',
        classRef: { name: 'ext-class', namespace: 'team-a' },
        class: 'ext-class',
        classNamespace: 'team-a',
      },
    });
    const holders = req.items.map((i: any) => i.holderReference);
    for (const h of holders) expect(Object.keys(h)).toEqual(['apiVersion', 'kind', 'namespace', 'name', 'fieldPath']);
    expect(holders.map((h: any) => [h.apiVersion, h.kind, h.fieldPath])).toEqual([
      ['cluster.x-k8s.io/v1beta2', 'Cluster', 'spec.infrastructureRef'],
      ['cluster.x-k8s.io/v1beta2', 'Cluster', 'spec.controlPlaneRef'],
      ['controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlane', 'spec.machineTemplate.spec.infrastructureRef'],
      ['cluster.x-k8s.io/v1beta2', 'MachineDeployment', 'spec.template.spec.bootstrap.configRef'],
      ['cluster.x-k8s.io/v1beta2', 'MachineDeployment', 'spec.template.spec.infrastructureRef'],
    ]);
    expect(holders.every((h: any) => h.namespace === 'team-a')).toBe(true);
    expect(holders[0].name).toBe('ext-1');
    for (const item of req.items) {
      expect(item.uid).toMatch(UID);
      expect(Object.keys(item)).toEqual(
        item.holderReference.fieldPath === 'spec.infrastructureRef'
          ? ['uid', 'holderReference', 'object']
          : ['uid', 'holderReference', 'object', 'variables'],
      );
    }
    expect(new Set(req.items.map((i: any) => i.uid)).size).toBe(5);
    // The request of the second external patch carries the templates as patched so far.
    const cp = req.items[1];
    expect(cp.object.spec.template.spec.kubeadmConfigSpec.preKubeadmCommands).toEqual(['echo inline-first']);
    expect(cp.variables.map((v: any) => v.name)).toEqual(['builtin']);
    expect(Object.keys(cp.variables[0].value.controlPlane)).toEqual([
      'version',
      'metadata',
      'name',
      'replicas',
      'machineTemplate',
    ]);
    expect(cp.variables[0].value.controlPlane).toMatchObject({
      version: 'v1.34.2',
      name: holders[2].name,
      replicas: 3,
    });
    const md = req.items[4];
    expect(md.variables.map((v: any) => v.name)).toEqual(['region', 'builtin']);
    expect(md.variables[0].value).toBe('us-east-2');
    expect(md.variables[1].value.machineDeployment).toMatchObject({
      version: 'v1.34.2',
      class: 'worker',
      topologyName: 'md-0',
      replicas: 2,
    });
    // uids are stable across runs (content-hash keys of recordings rely on it).
    const again = ext.requests.length;
    await render(inputs());
    expect(received(again, '/generatepatches/builtin-patches')[1]!.body.items.map((i: any) => i.uid)).toEqual(
      req.items.map((i: any) => i.uid),
    );
  });

  it("every request body is what encoding/json makes of CAPI's Go types: decoded strictly and marshalled again, byte for byte", async () => {
    const from = ext.requests.length;
    expect((await render(inputs({ validate: 'validate-topology' }))).code).toBe(0);
    const bodies = ext.requests.slice(from).map((r) => ({ kind: r.body.kind as string, body: r.raw }));
    expect(new Set(bodies.map((b) => b.kind))).toEqual(
      new Set(['DiscoveryRequest', 'DiscoverVariablesRequest', 'GeneratePatchesRequest', 'ValidateTopologyRequest']),
    );
    // The builtin values too, against runtimehooksv1.Builtins.
    for (const r of ext.requests.slice(from)) {
      for (const v of [...(r.body.variables ?? []), ...(r.body.items ?? []).flatMap((i: any) => i.variables ?? [])]) {
        if (v.name === 'builtin') bodies.push({ kind: 'Builtins', body: JSON.stringify(v.value) });
      }
    }
    const go = goRoundTrip(bodies);
    if (!go) return console.warn('SKIPPED: no Go toolchain; the Go-type round trip of request bodies did not run');
    go.forEach((g, i) => {
      expect(g.err).toBeUndefined();
      expect(g.out).toBe(bodies[i]!.body);
    });
  });

  it('calls Discovery and DiscoverVariables as CAPI does (DiscoveryRequest, the patch settings, the class)', async () => {
    const from = ext.requests.length;
    expect((await render(inputs())).code).toBe(0);
    const discovery = received(from, '/discovery');
    expect(discovery).toHaveLength(1);
    expect(discovery[0]!.body).toEqual({ kind: 'DiscoveryRequest', apiVersion: HOOKS });
    expect(discovery[0]!.query).toBe('?timeout=10s');
    const dv = received(from, '/discovervariables/discover-region');
    expect(dv).toHaveLength(1);
    expect(dv[0]!.body).toEqual({
      kind: 'DiscoverVariablesRequest',
      apiVersion: HOOKS,
      settings: { mode: 'strict', token: 's3cret-token' },
    });
  });

  it('validates Cluster variables against discovered definitions', async () => {
    const r = await render(inputs({ region: 'mars' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('spec.topology.variables[region].value');
    expect(r.stderr).toContain('supported values: "eu-west-1", "us-east-2"');
  });

  it("the extension's DiscoverVariables answer supersedes an exported status.variables", async () => {
    // The exported status says region is required and only "mars"; the extension says optional, default eu-west-1.
    const r = await render(inputs({ exportedStatus: true }));
    expect(r.code).toBe(0);
    expect(byKind(objectsOf(r.stdout), 'KubeadmControlPlane').metadata.labels.region).toBe('eu-west-1');
  });

  it('ValidateTopology runs after the last patch; its Failure is an error result', async () => {
    const from = ext.requests.length;
    const r = await render(inputs({ validate: 'reject-topology' }));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'validation of patch "merge" failed: failed to call extension handler "reject-topology.test-extension": got failure response with message: topology rejected: 5 templates, control plane echo inline-first | echo external ext-1 v1.34.2 eu-west-1 | echo from variable | echo inline-last',
    );
    const calls = received(from, '/validatetopology/reject-topology');
    expect(calls).toHaveLength(1);
    const req = calls[0]!.body;
    expect(Object.keys(req)).toEqual(['kind', 'apiVersion', 'settings', 'variables', 'items']);
    expect(req.kind).toBe('ValidateTopologyRequest');
    // The merge patch has no settings of its own: only the ExtensionConfig's reach the extension.
    expect(req.settings).toEqual({ token: 's3cret-token' });
    for (const item of req.items) expect(item.uid).toBeUndefined();
    // The variables CAPI's request held last: those of the class's last patch (inline-last: no inline variables).
    expect(req.variables.map((v: any) => v.name)).toEqual(['builtin']);
  });

  it('a slow handler times out at its discovered timeoutSeconds (no hang)', async () => {
    const r = await render(inputs({ generate: 'slow-patches' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /failed to generate patches for patch "from-extension": failed to call extension handler "slow-patches\.test-extension": http call failed: Post "https:\/\/127\.0\.0\.1:\d+\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/generatepatches\/slow-patches\?timeout=1s": context deadline exceeded/,
    );
  });

  it('an answer that is not JSON fails the Cluster, naming the URL', async () => {
    const r = await render(inputs({ generate: 'garbage-patches' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "failed to call extension handler \"garbage-patches.test-extension\": http call failed: failed to decode response: invalid character 'h' in literal true (expecting 'r') (POST https://127.0.0.1:",
    );
  });

  it('failurePolicy Ignore: the failed call is a warning and the patch is skipped, as CAPI does', async () => {
    const r = await render(inputs({ generate: 'ignored-garbage' }));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /: warning: .*GeneratePatches call to "ignored-garbage\.test-extension" failed and was ignored \(failurePolicy Ignore\)/,
    );
    const kcp = byKind(objectsOf(r.stdout), 'KubeadmControlPlane');
    expect(kcp.spec.kubeadmConfigSpec.preKubeadmCommands).toEqual(['echo inline-first', 'echo inline-last']);
  });

  it('a Failure status is an error result with the extension message', async () => {
    const r = await render(inputs({ generate: 'failing-patches' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'failed to call extension handler "failing-patches.test-extension": got failure response with message: no patches today',
    );
  });

  it('the CA bundle is the only trust root: another CA is refused', async () => {
    const r = await render(inputs({ config: extensionConfig(EXT, { url: ext.url }, pki.otherCaPem) }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /failed to discover extension "test-extension": http call failed: Post "https:\/\/127\.0\.0\.1:\d+\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/discovery\?timeout=10s": .*(certificate|issuer)/,
    );
  });

  it('an ExtensionConfig naming a Service is reached through --extension NAME=URL and verified as the Service host', async () => {
    const config = extensionConfig(
      EXT,
      { service: { name: 'test-extension', namespace: 'test-system', port: 443 } },
      pki.caPem,
    );
    const dir = inputs({ config });
    expect((await render(dir)).stderr).toContain('test-extension.test-system.svc');
    const r = await render(dir, '--extension', `${EXT}=${ext.url}`);
    expect(r.code).toBe(0);
    expect(SERVICE_HOST).toBe('test-extension.test-system.svc');
  });

  it('namespaceSelector: the Cluster namespace must match, read from the Namespace object in the inputs', async () => {
    const config = extensionConfig(EXT, { url: ext.url }, pki.caPem, {
      namespaceSelector: { matchLabels: { team: 'a' } },
    });
    expect((await render(inputs({ config, extra: namespaceYaml({ team: 'a' }) }))).code).toBe(0);
    const other = await render(inputs({ config, extra: namespaceYaml({ team: 'b' }) }));
    expect(other.stderr).toContain('namespaceSelector did not match object team-a/ext-class');
    const missing = await render(inputs({ config }));
    expect(missing.stderr).toContain(
      'failed to get namespace team-a: give the Namespace object (with its labels) as an input',
    );
  });

  it('DiscoverVariables failing, or defining a variable differently from spec.variables, makes the class unusable', async () => {
    const failing = await render(inputs({ discover: 'failing-discovery' }));
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain(
      'failed to discover variables for ClusterClass ext-class: VariableDiscovery failed: failed to call DiscoverVariables for patch from-extension: failed to call extension handler "failing-discovery.test-extension": got failure response with message: no variables today',
    );
    expect(failing.stderr).toContain(
      'ClusterClass "team-a/ext-class" is invalid (see its results); Cluster not rendered',
    );
    const conflict = await render(inputs({ discover: 'conflicting-variables', inlineRegion: true }));
    expect(conflict.stderr).toContain(
      'failed to discover variables for ClusterClass ext-class: the following variables have conflicting schemas: region',
    );
    // The same definition twice is no conflict: the inline and the discovered `region` agree.
    expect((await render(inputs({ inlineRegion: true }))).code).toBe(0);
  });

  it('a non-200 answer is an error naming the status, the body and the URL', async () => {
    const r = await render(inputs({ config: extensionConfig(EXT, { url: `${ext.url}/not-served` }, pki.caPem) }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /failed to discover extension "test-extension": http call failed: got response with status code 404 != 200: response : "no handler \/not-served\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/discovery" \(POST https:\/\/127\.0\.0\.1:\d+\/not-served\/hooks/,
    );
  });

  it('a local extension without TLS is reached through an http:// override', async () => {
    const plain = await startExtension(undefined);
    try {
      const r = await render(
        inputs({ config: extensionConfig(EXT, { url: 'https://extension.example' }, undefined) }),
        '--extension',
        `${EXT}=${plain.url}`,
      );
      expect(r.code).toBe(0);
      expect(plain.requests.length).toBeGreaterThan(0);
    } finally {
      await plain.stop();
    }
  });

  it('an ExtensionConfig the webhook would refuse is an error on it, and is never called', async () => {
    const from = ext.requests.length;
    const r = await render(
      inputs({
        config: extensionConfig(
          EXT,
          { url: ext.url.replace('https:', 'http:'), service: { name: 'x', namespace: 'y' } },
          undefined,
        ),
      }),
    );
    expect(r.code).toBe(1);
    // Results as compilers print them (issue #14): path:line:column: severity: object field: message.
    expect(r.stderr).toMatch(
      /extension\.yaml:\d+:\d+: error: ExtensionConfig test-extension spec\.clientConfig: Forbidden: only one of url or service can be defined\n/,
    );
    expect(r.stderr).toContain(
      `spec.clientConfig.url: Invalid value: "${ext.url.replace('https:', 'http:')}": 'https' is the only allowed URL scheme, e.g. https://example.com`,
    );
    expect(r.stderr).toContain('(ExtensionConfig "test-extension" is invalid, see its results)');
    expect(ext.requests.length).toBe(from);
  });

  it('an unknown handler or ExtensionConfig is a clear error', async () => {
    const r = await render(inputs({ generate: 'no-such-handler' }));
    expect(r.stderr).toContain(
      'handler with name "no-such-handler.test-extension" has not been registered (the discovery of ExtensionConfig "test-extension" lists no such handler)',
    );
    const none = await render(
      tempDir({
        'class.yaml': classYaml(),
        'cluster.yaml': clusterYaml(),
        'other.yaml': extensionConfig('other', { url: ext.url }, pki.caPem),
      }),
    );
    expect(none.stderr).toContain('(no ExtensionConfig "test-extension" among the inputs or --extensions)');
  });
});

describe.skipIf(noOpenssl)('record and replay', () => {
  it('record, stop the server, replay: byte-identical output; no secret in the recordings; a new request has no answer', async () => {
    const own = await startExtension(pki);
    const config = extensionConfig(EXT, { url: own.url }, pki.caPem, { settings: { token: 's3cret-token' } });
    const dir = tempDir({ 'class.yaml': classYaml(), 'cluster.yaml': clusterYaml() });
    const configs = tempDir({ 'extension.yaml': config });
    const rec = join(dir, '..', `${dir.split('/').pop()}-recordings`);
    const recorded = await render(dir, '--extensions', configs, '--record-extensions', rec);
    await own.stop();
    expect(recorded.code).toBe(0);
    const files = readdirSync(rec).sort();
    expect(files.map((f) => f.replace(/-[0-9a-f]{24}\.json$/, ''))).toEqual([
      'discovervariables',
      'generatepatches',
      'generatepatches',
      'generatepatches',
      'generatepatches',
    ]);
    for (const f of files) {
      const text = readFileSync(join(rec, f), 'utf8');
      expect(text).not.toContain('s3cret-token');
      const entry = JSON.parse(text);
      expect(entry.extensionConfigSettings).toEqual(['token']);
      expect(Object.keys(entry)).toEqual(['hook', 'handler', 'request', 'extensionConfigSettings', 'response']);
    }
    // The server is stopped: only the recordings answer.
    const replayed = await render(dir, '--replay-extensions', rec);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(replayed.stderr).toBe(recorded.stderr);
    // Recording again (another server, another URL) gives the same files: keys and contents are deterministic.
    const rec2 = `${rec}-again`;
    const again = extensionConfig(EXT, { url: ext.url }, pki.caPem, { settings: { token: 's3cret-token' } });
    expect(
      (await render(dir, '--extensions', tempDir({ 'extension.yaml': again }), '--record-extensions', rec2)).code,
    ).toBe(0);
    expect(snapshot(rec2)).toEqual(snapshot(rec));
    const changed = tempDir({ 'class.yaml': classYaml(), 'cluster.yaml': clusterYaml('echo changed') });
    const miss = await render(changed, '--replay-extensions', rec);
    expect(miss.code).toBe(1);
    expect(miss.stdout).toBe('');
    expect(miss.stderr).toMatch(
      /failed to call extension handler "builtin-patches\.test-extension": no recorded answer for this GeneratePatches request in .*\(key [0-9a-f]{24}\); record the extension's answers again \(--record-extensions\)/,
    );
  });

  it('plan re-runs base and head with the same recordings', async () => {
    const own = await startExtension(pki);
    const config = extensionConfig(EXT, { url: own.url }, pki.caPem);
    const base = tempDir({ 'class.yaml': classYaml(), 'cluster.yaml': clusterYaml('echo one') });
    const head = tempDir({
      'class.yaml': classYaml(),
      'cluster.yaml': clusterYaml('echo two'),
      'extension.yaml': config,
    });
    const rec = `${head}-recordings`;
    const live = await cli([
      'plan',
      '--base',
      base,
      head,
      '--extensions',
      join(head, 'extension.yaml'),
      '--record-extensions',
      rec,
      '--format',
      'json',
    ]);
    await own.stop();
    expect(live.code).toBe(1);
    const plan = JSON.parse(live.stdout);
    const kcp = plan.clusters[0].modified.find((m: any) => m.ref.kind === 'KubeadmControlPlane');
    expect(JSON.stringify(kcp.changes)).toContain('echo two');
    const replayed = await cli(['plan', '--base', base, head, '--replay-extensions', rec, '--format', 'json']);
    expect(replayed.stdout).toBe(live.stdout);
    expect(existsSync(rec)).toBe(true);
  });

  it('explain replays the recordings and attributes fields to the external patch and its handler', async () => {
    const own = await startExtension(pki);
    const dir = tempDir({
      'class.yaml': classYaml(),
      'cluster.yaml': clusterYaml(),
      'extension.yaml': extensionConfig(EXT, { url: own.url }, pki.caPem),
    });
    const rec = `${dir}-recordings`;
    const explain = (...flags: string[]) =>
      cli([
        'explain',
        'team-a/ext-1',
        'KubeadmControlPlane',
        '--field',
        'spec.kubeadmConfigSpec.preKubeadmCommands',
        '-f',
        dir,
        '--allow-package-extensions',
        ...flags,
      ]);
    const live = await explain('--record-extensions', rec);
    await own.stop();
    expect(live.code).toBe(0);
    const replayed = await explain('--replay-extensions', rec);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(live.stdout);
    // The class's order: inline-first, the JSONPatch answer of "from-extension" (its first and third operations), inline-last.
    const sources = replayed.stdout
      .split('\n')
      .filter((l) => l.includes('preKubeadmCommands['))
      .map((l) => l.replace(/^.*← /, ''));
    expect(sources).toEqual([
      'patch "inline-first" (spec.patches[0].definitions[0].jsonPatches[0]: add /spec/template/spec/kubeadmConfigSpec/preKubeadmCommands); literal value',
      `external patch "from-extension" (spec.patches[1], extension builtin-patches.${EXT}): operations[0] add /spec/template/spec/kubeadmConfigSpec/preKubeadmCommands/-`,
      `external patch "from-extension" (spec.patches[1], extension builtin-patches.${EXT}): operations[2] add /spec/template/spec/kubeadmConfigSpec/preKubeadmCommands/-`,
      'patch "inline-last" (spec.patches[3].definitions[0].jsonPatches[0]: add /spec/template/spec/kubeadmConfigSpec/preKubeadmCommands/-); literal value',
    ]);
    // A JSONMergePatch answer has no operations: the field is attributed to the patch and its handler.
    const merged = await cli([
      'explain',
      'team-a/ext-1',
      'DevCluster',
      '--field',
      'spec.backend',
      '-f',
      dir,
      '--replay-extensions',
      rec,
    ]);
    expect(merged.stdout).toContain(`spec.backend.docker.loadBalancer.imageRepository = "merged.example.com"`);
    expect(merged.stdout).toContain(`← external patch "merge" (spec.patches[2], extension merge-patches.${EXT})\n`);
  });

  it('the KRM function takes the same as function-config fields (ConfigMap data)', async () => {
    const own = await startExtension(pki);
    const items = [
      ...parseAll(classYaml()),
      ...parseAll(clusterYaml()),
      ...parseAll(extensionConfig(EXT, { url: own.url }, pki.caPem)),
    ];
    // A path inside the package (the working directory kpt runs the function in).
    const pkg = tempDir({});
    const rec = 'recordings';
    const run = (data: Record<string, string>) =>
      cli(
        [],
        pkg,
        JSON.stringify({
          apiVersion: 'config.kubernetes.io/v1',
          kind: 'ResourceList',
          items,
          functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fn' }, data },
        }),
        {
          ...process.env,
          RENDER_CLUSTERCLASS_ALLOW_PACKAGE_EXTENSIONS: '1',
        },
      );
    const live = await run({ recordExtensions: rec });
    await own.stop();
    expect(live.code).toBe(0);
    const replayed = await run({ replayExtensions: rec });
    expect(replayed.code).toBe(0);
    // Byte-identical but for the function config echoed back.
    expect(replayed.stdout).toBe(live.stdout.replace(`"recordExtensions": "${rec}"`, `"replayExtensions": "${rec}"`));
    expect(replayed.stdout).toContain('echo external ext-1 v1.34.2 eu-west-1');
  });
});
