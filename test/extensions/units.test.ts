/**
 * The Runtime SDK pieces one by one. Expected values: Go's encoding/json (Go 1.19, run on the
 * struct shapes of api/runtime/hooks/v1alpha1 while writing these tests), RFC 7386 Appendix A,
 * and CAPI's client.go / engine.go / evanphx json-patch texts as cited.
 */
import { describe, expect, it } from 'vitest';
import { decodeResponse } from '../../src/extensions/hooks.js';
import { callUrl, endpointFor, registrationsFrom, type ExtensionConfig } from '../../src/extensions/registry.js';
import { matchesLabelSelector } from '../../src/extensions/labelselector.js';
import { recordingKey } from '../../src/extensions/recordings.js';
import { applyMergePatch } from '../../src/patches/mergepatch.js';
import { applyGeneratedPatches } from '../../src/patches/external.js';
import { decodeJsonPatch } from '../../src/patches/jsonpatch.js';

describe('answers decoded as json.Decoder fills the Go structs', () => {
  const gp = (body: string) => decodeResponse('GeneratePatches', body);
  it.each([
    [
      '{"status":5}',
      'json: cannot unmarshal number into Go struct field GeneratePatchesResponse.status of type v1alpha1.ResponseStatus',
    ],
    [
      '{"items":[{"uid":5}]}',
      'json: cannot unmarshal number into Go struct field GeneratePatchesResponseItem.items.uid of type types.UID',
    ],
    ['{"items":[{"patch":"%%%"}]}', 'illegal base64 data at input byte 0'],
    ['{"items":[{"patch":"W10"}]}', 'illegal base64 data at input byte 0'],
    ['{"items":[{"patch":"W10=="}]}', 'illegal base64 data at input byte 4'],
    [
      '{"items":{}}',
      'json: cannot unmarshal object into Go struct field GeneratePatchesResponse.items of type []v1alpha1.GeneratePatchesResponseItem',
    ],
    ['this is not JSON', "invalid character 'h' in literal true (expecting 'r')"],
    ['<html>', "invalid character '<' looking for beginning of value"],
    ['', 'EOF'],
    ['[]', 'json: cannot unmarshal array into Go value of type v1alpha1.GeneratePatchesResponse'],
  ])('%s', (body, error) => {
    expect(gp(body)).toEqual({ ok: false, error });
  });
  it('matches field names case-insensitively and decodes base64 patch bytes', () => {
    expect(gp('{"Status":"Success","items":[{"uid":"u","patchType":"JSONPatch","patch":"W10="}]}')).toEqual({
      ok: true,
      value: { status: 'Success', message: '', items: [{ uid: 'u', patchType: 'JSONPatch', patch: '[]' }] },
    });
  });
});

describe('JSON merge patches (RFC 7386 Appendix A, object targets)', () => {
  it.each([
    [{ a: 'b' }, '{"a":"c"}', { a: 'c' }],
    [{ a: 'b' }, '{"b":"c"}', { a: 'b', b: 'c' }],
    [{ a: 'b' }, '{"a":null}', {}],
    [{ a: 'b', b: 'c' }, '{"a":null}', { b: 'c' }],
    [{ a: ['b'] }, '{"a":"c"}', { a: 'c' }],
    [{ a: 'c' }, '{"a":["b"]}', { a: ['b'] }],
    [{ a: { b: 'c' } }, '{"a":{"b":"d","c":null}}', { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, '{"a":[1]}', { a: [1] }],
    [{ a: 'b' }, '["c"]', ['c']],
    [{ a: 'foo' }, 'null', null],
    [{ a: 'foo' }, '"bar"', 'bar'],
    [{ e: null }, '{"a":1}', { e: null, a: 1 }],
    [{}, '{"a":{"bb":{"ccc":null}}}', { a: { bb: {} } }],
  ])('%j + %s', (doc, patch, result) => {
    expect(applyMergePatch(doc as any, patch)).toEqual({ ok: true, doc: result });
  });
  it('a patch that is not JSON is evanphx ErrBadJSONPatch', () => {
    expect(applyMergePatch({}, '{')).toEqual({ ok: false, error: 'Invalid JSON Patch' });
  });
});

describe('applying a GeneratePatches answer (engine.go applyPatchToRequest)', () => {
  const t = { apiVersion: 'x/v1', kind: 'T', metadata: { name: 't' }, spec: { a: 1 } };
  const b64 = (v: unknown) => JSON.stringify(v);
  it('finds the template by uid and keeps spec, labels and annotations only', () => {
    const r = applyGeneratedPatches(
      {
        status: 'Success',
        message: '',
        items: [
          {
            uid: 'u2',
            patchType: 'JSONPatch',
            patch: b64([
              { op: 'replace', path: '/spec/a', value: 2 },
              { op: 'add', path: '/metadata/name', value: 'x' },
              { op: 'add', path: '/metadata/labels', value: { l: 'v' } },
            ]),
          },
        ],
      },
      [t, t],
      ['u1', 'u2'],
    );
    expect(r).toEqual({
      ok: true,
      templates: [t, { ...t, spec: { a: 2 }, metadata: { name: 't', labels: { l: 'v' } } }],
    });
  });
  it.each([
    [{ uid: 'nope', patchType: 'JSONPatch', patch: '[]' }, 'unable to find corresponding request item for patch'],
    [
      { uid: 'u1', patchType: 'JSONPatch', patch: '{' },
      'failed to apply patch: error decoding json patch (RFC6902): invalid state detected',
    ],
    [
      { uid: 'u1', patchType: 'JSONPatch', patch: '{}' },
      'failed to apply patch: error decoding json patch (RFC6902): json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ],
    [
      { uid: 'u1', patchType: 'JSONPatch', patch: '[{"op":"jump","path":"/spec"}]' },
      'failed to apply patch: error decoding json patch (RFC6902): invalid operation {"op":"jump","path":"/spec"}: unsupported operation',
    ],
    [
      { uid: 'u1', patchType: 'JSONPatch', patch: '[{"op":"add"}]' },
      'failed to apply patch: error decoding json patch (RFC6902): invalid operation {"op":"add"}: failed to decode \'value\': operation, missing value field: missing value',
    ],
    [
      { uid: 'u1', patchType: 'JSONPatch', patch: '[{"op":"remove","path":"/spec/b"}]' },
      "failed to apply patch: error applying json patch (RFC6902): error in remove for path: '/spec/b': unable to remove nonexistent key: b: missing value",
    ],
    [
      { uid: 'u1', patchType: 'JSONMergePatch', patch: '{"kind":null}' },
      `failed to apply patch to template: failed to convert patched object to Unstructured: Object 'Kind' is missing in '{"apiVersion":"x/v1","metadata":{"name":"t"},"spec":{"a":1}}'`,
    ],
  ])('%j', (item, error) => {
    const r = applyGeneratedPatches({ status: 'Success', message: '', items: [item] }, [t], ['u1']);
    expect(r).toMatchObject({ ok: false, error });
  });
  it('an empty JSONPatch or a {} merge patch changes nothing', () => {
    for (const p of [
      { patchType: 'JSONPatch', patch: '[]' },
      { patchType: 'JSONMergePatch', patch: '{}' },
      { patchType: 'JSONMergePatch', patch: '' },
    ]) {
      expect(
        applyGeneratedPatches({ status: 'Success', message: '', items: [{ uid: 'u1', ...p }] }, [t], ['u1']),
      ).toEqual({ ok: true, templates: [t] });
    }
  });
  it('decodes move/copy/test with their from', () => {
    expect(decodeJsonPatch('[{"op":"move","from":"/a","path":"/b"}]')).toEqual({
      ok: true,
      ops: [{ op: 'move', from: '/a', path: '/b' }],
    });
    expect(decodeJsonPatch('[{"op":"copy","from":3,"path":"/b"}]')).toEqual({
      ok: false,
      error: `invalid operation {"from":3,"op":"copy","path":"/b"}: failed to decode 'from': json: cannot unmarshal number into Go value of type string`,
    });
  });
});

describe('ExtensionConfigs, discovery and URLs (client.go)', () => {
  const config = (clientConfig: ExtensionConfig['clientConfig']): ExtensionConfig => ({
    name: 'ext',
    ref: { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', name: 'ext' },
    clientConfig,
    settings: {},
  });
  it('urlForExtension: https only, a Service becomes <name>.<namespace>.svc, both missing is an error', () => {
    expect(endpointFor(config({ url: 'http://x:1' }), undefined)).toEqual({
      ok: false,
      error: 'failed to compute URL: expected https scheme, got http',
    });
    expect(endpointFor(config({}), undefined)).toEqual({
      ok: false,
      error: 'failed to compute URL: at least one of service and url should be defined in config',
    });
    const svc = endpointFor(
      config({ service: { name: 'hooks', namespace: 'sys', port: 8443, path: '/prefix' } }),
      undefined,
    );
    expect(svc.ok && svc.endpoint.url.href).toBe('https://hooks.sys.svc:8443/prefix');
    const override = endpointFor(config({ service: { name: 'hooks', namespace: 'sys' } }), 'https://127.0.0.1:9443');
    expect(override.ok && [override.endpoint.url.href, override.endpoint.verifyHost]).toEqual([
      'https://127.0.0.1:9443/',
      'hooks.sys.svc',
    ]);
  });
  it('joins the handler path to the base path (path.Join) and adds ?timeout=', () => {
    expect(
      callUrl(new URL('https://h/prefix/'), '/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/gen', 10),
    ).toBe('https://h/prefix/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/gen?timeout=10s');
  });
  it('defaultAndValidateDiscoveryResponse: defaults, then every problem', () => {
    const hook = (h: string) => ({ apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: h });
    const ok = registrationsFrom(config({}), {
      status: 'Success',
      message: '',
      handlers: [{ name: 'gen', requestHook: hook('GeneratePatches') }],
    });
    expect(ok).toMatchObject({
      ok: true,
      registrations: [{ name: 'gen.ext', timeoutSeconds: 10, failurePolicy: 'Fail', hook: 'GeneratePatches' }],
    });
    const bad = registrationsFrom(config({}), {
      status: 'Success',
      message: '',
      handlers: [
        { name: 'gen', requestHook: hook('GeneratePatches'), timeoutSeconds: 31, failurePolicy: 'Maybe' },
        { name: 'gen', requestHook: hook('Nope') },
      ],
    });
    expect(bad).toEqual({
      ok: false,
      error:
        'failed to validate discovery response: [handler gen timeoutSeconds 31 must be between 0 and 30, handler gen failurePolicy Maybe must equal "Ignore" or "Fail", duplicate name for handler gen found, handler gen requestHook hooks.runtime.cluster.x-k8s.io/v1alpha1/Nope is not in the Runtime SDK catalog]',
    });
  });
  it('label selectors: matchLabels and matchExpressions', () => {
    const labels = { team: 'a', tier: 'prod' };
    expect(matchesLabelSelector({ matchLabels: { team: 'a' } }, labels)).toEqual({ ok: true, matches: true });
    expect(
      matchesLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['prod'] }] }, labels),
    ).toEqual({ ok: true, matches: false });
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, labels)).toEqual({
      ok: true,
      matches: true,
    });
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'x', operator: 'In', values: [] }] }, labels).ok).toBe(
      false,
    );
  });
  it('recording keys do not depend on key order', () => {
    const a = recordingKey('GeneratePatches', 'h.e', { kind: 'GeneratePatchesRequest', apiVersion: 'v', items: [] });
    const b = recordingKey('GeneratePatches', 'h.e', {
      apiVersion: 'v',
      kind: 'GeneratePatchesRequest',
      items: [],
    } as any);
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});
