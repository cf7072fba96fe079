/**
 * The RuntimeSDK feature gate, through the real CLI. It is off by default in v1.12.10, v1.13.6 and
 * v1.14.2 (feature/feature.go), and CAPI's ClusterClass webhook then refuses every external patch
 * (core/webhooks/admission/patch_validation.go `validatePatches`). A run told that the management
 * cluster runs Runtime Extensions (ExtensionConfigs, recordings, skipExternalPatches) has the gate
 * on unless it is set explicitly (krm/config.ts `withImpliedGates`). No extension answers here:
 * each case ends before or at the first call.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, extensionConfig, tempDir } from './helpers.js';
import { EXT, classYaml } from './inputs.js';

const FORBIDDEN = 'Forbidden: patch.external can be used only if the RuntimeSDK feature flag is enabled';
// The test class's patches 1 and 2 are external; this Cluster sets no variable they would define.
const CLUSTER = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: ext-1, namespace: team-a}
spec:
  topology:
    classRef: {name: ext-class}
    version: v1.34.2
    workers:
      machineDeployments: [{class: worker, name: md-0}]
`;
const inputs = (extra: Record<string, string> = {}) =>
  tempDir({ 'class.yaml': classYaml(), 'cluster.yaml': CLUSTER, ...extra });
const render = (dir: string, ...flags: string[]) => cli(['render', dir, '--format', 'manifests', ...flags]);

describe('the RuntimeSDK gate', () => {
  it.each(['1.12', '1.13', '1.14'])(
    'CAPI %s defaults: the class with external patches is refused, nothing rendered',
    async (v) => {
      const r = await render(inputs(), '--capi-version', v);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`spec.patches[1].external: ${FORBIDDEN}`);
      expect(r.stderr).toContain(`spec.patches[2].external: ${FORBIDDEN}`);
      expect(r.stderr).toContain('Cluster team-a/ext-1 spec.topology: ClusterClass "team-a/ext-class" is invalid');
      expect(r.stderr).toContain('--feature-gates RuntimeSDK=true');
    },
  );

  it('skipExternalPatches says the cluster runs extensions: the gate is on, the class renders without them', async () => {
    const r = await render(inputs(), '--set', 'skipExternalPatches=true');
    expect(r.stderr).not.toContain(FORBIDDEN);
    expect(r.code).toBe(0);
  });

  it('a gate set explicitly wins over what the flags imply', async () => {
    const off = await render(inputs(), '--set', 'skipExternalPatches=true', '--feature-gates', 'RuntimeSDK=false');
    expect(off.code).toBe(1);
    expect(off.stderr).toContain(FORBIDDEN);
    const on = await render(inputs(), '--feature-gates', 'RuntimeSDK=true');
    expect(on.code).toBe(1);
    expect(on.stderr).not.toContain(FORBIDDEN);
    expect(on.stderr).toContain('which needs its ExtensionConfig (--extensions) or recorded answers');
  });

  it('an ExtensionConfig in the package, or recordings, turn the gate on: the failure is the call, not the webhook', async () => {
    const packaged = await render(
      inputs({ 'extension.yaml': extensionConfig(EXT, { url: 'https://127.0.0.1:1' }, undefined) }),
    );
    expect(packaged.code).toBe(1);
    expect(packaged.stderr).not.toContain(FORBIDDEN);
    expect(packaged.stderr).toContain('the package alone may not make the renderer connect anywhere');
    const replayed = await render(inputs(), '--replay-extensions', mkdtempSync(join(tmpdir(), 'rcc-replay-')));
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).not.toContain(FORBIDDEN);
    expect(replayed.stderr).toContain('no recorded answer');
  });
});
