import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseFunctionConfig } from '../../src/krm/config.js';

describe('function config', () => {
  it('defaults when absent or an empty ConfigMap (kpt synthesises function-input)', () => {
    expect(parseFunctionConfig(undefined)).toEqual({ ok: true, config: DEFAULT_CONFIG });
    expect(
      parseFunctionConfig({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data: {} }),
    ).toEqual({ ok: true, config: DEFAULT_CONFIG });
  });
  it('reads the ConfigMap form from strings and the typed form from values', () => {
    const cm = parseFunctionConfig({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { mode: 'preview', keepClassInputs: 'false', contractVersions: 'a.io/v1/X=v1beta2', shard: '1/4' },
    });
    expect(cm.ok && cm.config).toMatchObject({
      mode: 'preview',
      keepClassInputs: false,
      contractVersions: { 'a.io/v1/X': 'v1beta2' },
      shard: { index: 1, count: 4 },
    });
    const typed = parseFunctionConfig({
      apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
      kind: 'RenderClusterClass',
      spec: { mode: 'validate', skipExternalPatches: true },
    });
    expect(typed.ok && typed.config).toMatchObject({ mode: 'validate', skipExternalPatches: true });
  });
  it.each([
    [{ mode: 'render' }, /mode must be one of/],
    [{ unknownKey: 'x' }, /unknown function config field "unknownKey"/],
    [{ keepClassInputs: 'yes' }, /keepClassInputs must be true or false/],
    [{ outputDir: '../x' }, /outputDir must stay inside the package/],
    [{ shard: '4/4' }, /shard must be I\/N/],
    [{ contractVersions: 'a.io/v1/X=v1beta2=v1beta1' }, /contractVersions\["a.io\/v1\/X"\] must be v1beta1 or v1beta2/],
    [{ extensionURLs: 'runtime-sdk' }, /extensionURLs entry "runtime-sdk" must be NAME=https/],
    [{ featureGates: 'RuntimeSDK' }, /feature gate RuntimeSDK must be true or false/],
  ])('rejects %j', (data, message) => {
    const out = parseFunctionConfig({ apiVersion: 'v1', kind: 'ConfigMap', data });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).toMatch(message);
  });
  it('rejects an unsupported config kind', () => {
    expect(parseFunctionConfig({ apiVersion: 'x/v1', kind: 'Other' }).ok).toBe(false);
  });
});
