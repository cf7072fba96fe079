/**
 * Patch engine end-to-end tests. The first blocks use only `value` / `valueFrom.variable` and
 * run today; the last block needs the real Go template engine and is skipped until it exists.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterClassPatch, JsonObject, PatchDefinition } from '../../src/core/model.js';
import * as gotemplate from '../../src/gotemplate/index.js';
import { mergeVariables } from '../../src/patches/index.js';
import {
  BOOT_API,
  INFRA_API,
  classRef,
  cpDef,
  cpItem,
  cpMachineItem,
  infraDef,
  infraItem,
  innerSpec,
  mdInfraDef,
  mdItems,
  request,
  runPatches as run,
} from './fixtures.js';

const engineAvailable = typeof gotemplate.parseTemplate === 'function';

describe('order and accumulation', () => {
  it('later patches see earlier results (append to an array an earlier patch created)', () => {
    const out = run([
      { name: 'create', definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/list', value: ['a'] }])] },
      { name: 'append', definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/list/-', value: 'b' }])] },
      { name: 'prepend', definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/list/0', value: 'z' }])] },
    ]);
    expect(out.results).toEqual([]);
    expect(out.failed).toBe(false);
    expect(innerSpec(out.templates[0]!)).toEqual({ list: ['z', 'a', 'b'] });
  });

  it('later definitions of one patch see earlier definitions', () => {
    const out = run([
      {
        name: 'p',
        definitions: [
          infraDef([{ op: 'add', path: '/spec/template/spec/obj', value: {} }]),
          infraDef([{ op: 'add', path: '/spec/template/spec/obj/k', value: 'v' }]),
        ],
      },
    ]);
    expect(innerSpec(out.templates[0]!)).toEqual({ obj: { k: 'v' } });
  });

  it('does not mutate the request and returns templates in item order', () => {
    const req = request([infraItem(), cpItem(), ...mdItems('md-0', 'default-worker')]);
    const before = structuredClone(req);
    const out = run(
      [{ name: 'p', definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/x', value: { deep: [1] } }])] }],
      req,
    );
    expect(req).toEqual(before);
    expect(out.templates).toHaveLength(4);
    expect(out.templates[1]).toBe(req.items[1]!.template); // untouched items are returned as is
    expect(innerSpec(out.templates[0]!)).toEqual({ x: { deep: [1] } });
  });

  it('copies back only spec, metadata.labels and metadata.annotations after each patch', () => {
    const out = run([
      { name: 'outside', definitions: [infraDef([{ op: 'add', path: '/specfoo', value: 1 }])] },
      { name: 'drop-spec', definitions: [infraDef([{ op: 'remove', path: '/spec' }])] },
    ]);
    expect(out.failed).toBe(false);
    expect(out.templates[0]!['specfoo']).toBeUndefined();
    // Removing /spec is not copied back ("a field the patch deleted at that level is not deleted").
    expect(out.templates[0]!['spec']).toEqual(infraItem().template['spec']);
  });

  it('keeps the value of a literal independent from the ClusterClass', () => {
    const cls: ClusterClassPatch[] = [
      { name: 'p', definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/o', value: { a: 1 } }])] },
    ];
    const out = run(cls);
    ((innerSpec(out.templates[0]!) as JsonObject)['o'] as JsonObject)['a'] = 2;
    expect((cls[0]!.definitions![0]!.jsonPatches[0]!.value as JsonObject)['a']).toBe(1);
  });
});

describe('variables', () => {
  it('merges global and item variables; item values win; builtin merged by part', () => {
    const merged = mergeVariables(
      { builtin: { cluster: { name: 'c1' } }, a: 'global', b: 'global', hidden: 1 },
      { builtin: { machineDeployment: { class: 'w' } }, a: 'item', alsoHidden: 2 },
      new Set(['a', 'b']),
    );
    expect(merged).toEqual({
      builtin: { cluster: { name: 'c1' }, machineDeployment: { class: 'w' } },
      a: 'item',
      b: 'global',
    });
  });

  it('never lets a variable name reach a prototype', () => {
    const globals = JSON.parse('{"__proto__": {"polluted": true}, "builtin": {}}');
    const merged = mergeVariables(globals, {}, new Set(['__proto__']));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('reads variables, overrides and builtins per item; hides non-inline variables', () => {
    const req = request(
      [...mdItems('md-0', 'default-worker', { region: 'override' }), ...mdItems('md-1', 'default-worker')],
      {
        region: 'global',
        secret: 'external-only',
      },
    );
    const out = run(
      [
        {
          name: 'p',
          definitions: [
            mdInfraDef([
              { op: 'add', path: '/spec/template/spec/region', valueFrom: { variable: 'region' } },
              { op: 'add', path: '/spec/template/spec/cluster', valueFrom: { variable: 'builtin.cluster.name' } },
              {
                op: 'add',
                path: '/spec/template/spec/md',
                valueFrom: { variable: 'builtin.machineDeployment.topologyName' },
              },
            ]),
          ],
        },
      ],
      req,
      ['region'],
    );
    expect(out.results).toEqual([]);
    expect(innerSpec(out.templates[1]!)).toEqual({ region: 'override', cluster: 'c1', md: 'md-0' });
    expect(innerSpec(out.templates[3]!)).toEqual({ region: 'global', cluster: 'c1', md: 'md-1' });

    const hidden = run(
      [
        {
          name: 'p',
          definitions: [mdInfraDef([{ op: 'add', path: '/spec/template/spec/s', valueFrom: { variable: 'secret' } }])],
        },
      ],
      req,
      ['region'],
    );
    expect(hidden.failed).toBe(true);
    expect(hidden.results[0]!.message).toContain('failed to calculate value: variable "secret" does not exist');
  });

  it('fails for a builtin that is absent for the item', () => {
    const out = run(
      [
        {
          name: 'p',
          definitions: [
            cpDef([
              {
                op: 'add',
                path: '/spec/template/spec/v',
                valueFrom: { variable: 'builtin.machineDeployment.version' },
              },
            ]),
          ],
        },
      ],
      request([cpItem()]),
    );
    expect(out.results.map((r) => r.message)).toEqual([
      'Cluster default/c1: patch "p" (definitions[0].jsonPatches[0]) failed on KubeadmControlPlaneTemplate "quick-start-cp" at /spec/template/spec/v: failed to calculate value: variable "builtin.machineDeployment.version" does not exist: failed to lookup segment "machineDeployment"',
    ]);
  });
});

describe('value errors', () => {
  const cases: [PatchDefinition['jsonPatches'][number], string][] = [
    [
      { op: 'add', path: '/spec/x' },
      'failed to calculate value: neither .value nor .valueFrom are set; set value or valueFrom',
    ],
    [
      { op: 'add', path: '/spec/x', value: null },
      'failed to calculate value: neither .value nor .valueFrom are set; set value or valueFrom',
    ],
    [
      { op: 'replace', path: '/spec/x', value: 1, valueFrom: { variable: 'v' } },
      'failed to calculate value: both .value and .valueFrom are set; set only one of value and valueFrom',
    ],
    [
      { op: 'add', path: '/spec/x', valueFrom: {} },
      'failed to calculate value: .valueFrom is set, but neither .valueFrom.variable nor .valueFrom.template are set; set valueFrom.variable or valueFrom.template',
    ],
    [
      { op: 'add', path: '/spec/x', valueFrom: { variable: 'v', template: 't' } },
      'failed to calculate value: .valueFrom is set, but both .valueFrom.variable and .valueFrom.template are set; set only one of valueFrom.variable and valueFrom.template',
    ],
  ];
  for (const [op, text] of cases) {
    it(`${JSON.stringify(op)} → ${text}`, () => {
      const out = run([
        { name: 'p', definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/ok', value: 1 }, op])] },
      ]);
      expect(out.failed).toBe(true);
      expect(out.results).toEqual([
        {
          severity: 'error',
          message: `Cluster default/c1: patch "p" (definitions[0].jsonPatches[1]) failed on DevClusterTemplate "quick-start-cluster" at /spec/x: ${text}`,
          resourceRef: classRef,
          field: { path: 'spec.patches[0].definitions[0].jsonPatches[1]' },
          tags: { cluster: 'default/c1', patch: 'p' },
        },
      ]);
      // Nothing of the failing patch is applied.
      expect(innerSpec(out.templates[0]!)).toEqual({});
    });
  }

  it('remove ignores value fields', () => {
    const out = run([
      {
        name: 'p',
        definitions: [
          infraDef([
            { op: 'add', path: '/spec/template/spec/x', value: 1 },
            { op: 'remove', path: '/spec/template/spec/x', value: 1, valueFrom: {} },
          ]),
        ],
      },
    ]);
    expect(out.results).toEqual([]);
    expect(innerSpec(out.templates[0]!)).toEqual({});
  });
});

describe('failure aggregation', () => {
  it('reports the exact message for a JSON patch application failure', () => {
    const out = run([
      {
        name: 'lbImageRepository',
        definitions: [infraDef([{ op: 'replace', path: '/spec/template/spec/x', value: 1 }])],
      },
    ]);
    expect(out.results).toEqual([
      {
        severity: 'error',
        message:
          'Cluster default/c1: patch "lbImageRepository" (definitions[0].jsonPatches[0]) failed on DevClusterTemplate "quick-start-cluster" at /spec/template/spec/x: replace operation does not apply: doc is missing key: /spec/template/spec/x: missing value',
        resourceRef: classRef,
        field: { path: 'spec.patches[0].definitions[0].jsonPatches[0]' },
        tags: { cluster: 'default/c1', patch: 'lbImageRepository' },
      },
    ]);
  });

  it('collects generation errors across items and definitions of one patch, then stops', () => {
    const req = request([...mdItems('md-0', 'a'), ...mdItems('md-1', 'b')]);
    const out = run(
      [
        {
          name: 'first',
          definitions: [
            mdInfraDef([{ op: 'add', path: '/spec/template/spec/x', valueFrom: { variable: 'nope' } }]),
            mdInfraDef([
              { op: 'add', path: '/spec/template/spec/y', valueFrom: { variable: 'nope2' } },
              { op: 'add', path: '/spec/z' },
            ]),
          ],
        },
        {
          name: 'second',
          definitions: [mdInfraDef([{ op: 'add', path: '/spec/template/spec/x', valueFrom: { variable: 'nope' } }])],
        },
      ],
      req,
    );
    expect(out.failed).toBe(true);
    // 2 items × 2 definitions, each definition stopping at its first failing op; "second" never runs.
    expect(out.results.map((r) => r.field?.path)).toEqual([
      'spec.patches[0].definitions[0].jsonPatches[0]',
      'spec.patches[0].definitions[1].jsonPatches[0]',
      'spec.patches[0].definitions[0].jsonPatches[0]',
      'spec.patches[0].definitions[1].jsonPatches[0]',
    ]);
    expect(out.results[2]!.message).toContain(
      'failed on DevMachineTemplate "b-infra" (MachineDeployment topology "md-1")',
    );
  });

  it('stops at the first application failure and keeps earlier patches applied', () => {
    const req = request([...mdItems('md-0', 'a'), ...mdItems('md-1', 'b')]);
    const out = run(
      [
        { name: 'ok', definitions: [mdInfraDef([{ op: 'add', path: '/spec/template/spec/ok', value: true }])] },
        { name: 'bad', definitions: [mdInfraDef([{ op: 'remove', path: '/spec/template/spec/missing' }])] },
        { name: 'never', definitions: [mdInfraDef([{ op: 'remove', path: '/spec/template/spec/missing' }])] },
      ],
      req,
    );
    expect(out.results).toHaveLength(1);
    expect(out.results[0]!.message).toBe(
      `Cluster default/c1: patch "bad" (definitions[0].jsonPatches[0]) failed on DevMachineTemplate "a-infra" (MachineDeployment topology "md-0") at /spec/template/spec/missing: error in remove for path: '/spec/template/spec/missing': unable to remove nonexistent key: missing: missing value`,
    );
    expect(innerSpec(out.templates[1]!)).toEqual({ ok: true });
  });

  it('reports prototype-pollution attempts as patch errors', () => {
    const out = run([
      {
        name: 'evil',
        definitions: [infraDef([{ op: 'add', path: '/spec/template/__proto__/polluted', value: true }])],
      },
    ]);
    expect(out.failed).toBe(true);
    expect(out.results[0]!.message).toContain('path segment "__proto__" is not allowed');
    expect(({} as any).polluted).toBeUndefined();
  });
});

describe('selection', () => {
  it('patches only matching items, including the CP machine template', () => {
    const req = request([
      infraItem(),
      cpItem(),
      cpMachineItem(),
      ...mdItems('md-0', 'default-worker'),
      ...mdItems('md-1', 'gpu-worker'),
    ]);
    const out = run(
      [
        {
          name: 'p',
          definitions: [
            {
              selector: {
                apiVersion: INFRA_API,
                kind: 'DevMachineTemplate',
                matchResources: { controlPlane: true, machineDeploymentClass: { names: ['default-*'] } },
              },
              jsonPatches: [{ op: 'add', path: '/spec/template/spec/hit', value: true }],
            },
            {
              selector: {
                apiVersion: BOOT_API,
                kind: 'KubeadmConfigTemplate',
                matchResources: { machineDeploymentClass: { names: ['*-worker'] } },
              },
              jsonPatches: [{ op: 'add', path: '/spec/template/spec/boot', value: true }],
            },
          ],
        },
      ],
      req,
    );
    expect(out.results).toEqual([]);
    expect(out.templates.map((t) => innerSpec(t))).toEqual([
      {},
      {},
      { hit: true },
      { boot: true },
      { hit: true },
      { boot: true },
      {},
    ]);
  });
});

describe('external patches', () => {
  const external: ClusterClassPatch = { name: 'ext', external: { generatePatchesExtension: 'gen.my-ext' } };
  const inline: ClusterClassPatch = {
    name: 'in',
    definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/x', value: 1 }])],
  };

  it('fails the Cluster unless skipExternalPatches is set', () => {
    const out = run([inline, external]);
    expect(out.failed).toBe(true);
    expect(out.compileResults).toEqual([]);
    expect(out.results).toEqual([
      {
        severity: 'error',
        message:
          'Cluster default/c1: patch "ext" uses the external patch extension "gen.my-ext", which needs its ExtensionConfig (--extensions) or recorded answers (--replay-extensions); set skipExternalPatches to render without it',
        resourceRef: classRef,
        field: { path: 'spec.patches[1].external.generatePatchesExtension' },
        tags: { cluster: 'default/c1', patch: 'ext' },
      },
    ]);
  });

  it('skips with a class-level warning when skipExternalPatches is set (enabledIf not evaluated)', () => {
    const out = run([{ ...external, enabledIf: '{{ broken' }, inline], undefined, [], true);
    expect(out.failed).toBe(false);
    expect(out.results).toEqual([]);
    expect(out.compileResults).toHaveLength(1);
    expect(out.compileResults[0]).toMatchObject({
      severity: 'warning',
      field: { path: 'spec.patches[0].external.generatePatchesExtension' },
    });
    expect(innerSpec(out.templates[0]!)).toEqual({ x: 1 });
  });

  it('warns about validateTopologyExtension and otherwise ignores it', () => {
    const out = run([{ name: 'v', external: { validateTopologyExtension: 'validate.my-ext' } }, inline]);
    expect(out.failed).toBe(false);
    expect(out.compileResults).toHaveLength(1);
    expect(out.compileResults[0]).toMatchObject({
      severity: 'warning',
      field: { path: 'spec.patches[0].external.validateTopologyExtension' },
      tags: { patch: 'v' },
    });
  });

  it('errors for a patch with neither definitions nor a generate extension', () => {
    const out = run([{ name: 'empty', definitions: [] }]);
    expect(out.results[0]!.message).toBe(
      'Cluster default/c1: patch "empty" cannot be applied: failed to create patch generator for patch "empty"',
    );
  });
});

describe.skipIf(!engineAvailable)('with the real Go template engine', () => {
  it('evaluates enabledIf per item with item overrides and builtins', () => {
    const req = request([...mdItems('md-0', 'a', { flag: true }), ...mdItems('md-1', 'b')], { flag: false });
    const out = run(
      [
        {
          name: 'p',
          enabledIf: '{{ .flag }}',
          definitions: [mdInfraDef([{ op: 'add', path: '/spec/template/spec/on', value: true }])],
        },
      ],
      req,
      ['flag'],
    );
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(innerSpec(out.templates[1]!)).toEqual({ on: true });
    expect(innerSpec(out.templates[3]!)).toEqual({});

    const byName = run(
      [
        {
          name: 'p',
          enabledIf: '{{ eq .builtin.machineDeployment.topologyName "md-1" }}',
          definitions: [mdInfraDef([{ op: 'add', path: '/spec/template/spec/on', value: true }])],
        },
      ],
      req,
    );
    expect(innerSpec(byName.templates[1]!)).toEqual({});
    expect(innerSpec(byName.templates[3]!)).toEqual({ on: true });
  });

  it('enables only on exactly true after YAML parsing', () => {
    const enabled = (enabledIf: string, globals = {}) =>
      Object.keys(
        innerSpec(
          run(
            [
              {
                name: 'p',
                enabledIf,
                definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/on', value: 1 }])],
              },
            ],
            request([infraItem()], globals),
            ['v'],
          ).templates[0]!,
        ) as object,
      ).length === 1;
    expect(enabled('true')).toBe(true);
    expect(enabled('  True\n')).toBe(true);
    expect(enabled('{{ .v }}', { v: 'yes' })).toBe(true);
    expect(enabled('"true"')).toBe(false);
    expect(enabled('false')).toBe(false);
    expect(enabled('{{ .missing }}')).toBe(false);
    expect(enabled('1')).toBe(false);
  });

  it('renders valueFrom.template with YAML output parsing and float64 numbers', () => {
    const out = run(
      [
        {
          name: 'p',
          definitions: [
            cpDef([
              {
                op: 'add',
                path: '/spec/template/spec/name',
                valueFrom: { template: '{{ .builtin.cluster.name }}-{{ .builtin.controlPlane.version }}' },
              },
              { op: 'add', path: '/spec/template/spec/obj', valueFrom: { template: 'a: 1\nb: [x, y]' } },
              { op: 'add', path: '/spec/template/spec/empty', valueFrom: { template: '{{ if false }}x{{ end }}' } },
              { op: 'add', path: '/spec/template/spec/big', valueFrom: { template: '"{{ .n }}"' } },
              { op: 'add', path: '/spec/template/spec/missing', valueFrom: { template: '{{ .nope }}' } },
            ]),
          ],
        },
      ],
      request([cpItem()], { n: 1000000 }),
      ['n'],
    );
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(innerSpec(out.templates[0]!)).toEqual({
      name: 'c1-v1.31.0',
      obj: { a: 1, b: ['x', true] /* YAML 1.1: bare y is a boolean */ },
      empty: null,
      big: '1e+06',
      missing: '<no value>',
    });
  });

  it('reads non-identifier variable names with index, and numbers as float64', () => {
    const out = run(
      [
        {
          name: 'p',
          definitions: [
            infraDef([
              { op: 'add', path: '/spec/template/spec/proxy', valueFrom: { template: '{{ index . "http-proxy" }}' } },
              { op: 'add', path: '/spec/template/spec/n', valueFrom: { template: '{{ .n }}' } },
              { op: 'add', path: '/spec/template/spec/half', valueFrom: { template: '{{ divf .n 2 }}' } },
            ]),
          ],
        },
      ],
      request([infraItem()], { 'http-proxy': 'http://proxy:3128', n: 3 }),
      ['http-proxy', 'n'],
    );
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(innerSpec(out.templates[0]!)).toEqual({ proxy: 'http://proxy:3128', n: 3, half: 1.5 });
  });

  it('does not fail on broken templates that are never evaluated (like CAPI)', () => {
    const out = run([
      {
        name: 'p',
        enabledIf: '{{ if }}',
        definitions: [mdInfraDef([{ op: 'add', path: '/spec/template/spec/x', value: 1 }])],
      },
      {
        name: 'q',
        definitions: [mdInfraDef([{ op: 'add', path: '/spec/template/spec/x', valueFrom: { template: '{{ end }}' } }])],
      },
    ]);
    expect(out.results).toEqual([]);
  });

  it('reports template errors with CAPI wrapping', () => {
    const out = run([
      {
        name: 'p',
        definitions: [
          infraDef([{ op: 'add', path: '/spec/template/spec/x', valueFrom: { template: '{{ fail "boom" }}' } }]),
        ],
      },
    ]);
    expect(out.results[0]!.message).toContain(
      'failed to calculate value for template: failed to render template: "{{ fail \\"boom\\" }}": ',
    );
    expect(out.results[0]!.message).toContain('boom');
    const bad = run([
      {
        name: 'p',
        enabledIf: '{{ if }}',
        definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/x', value: 1 }])],
      },
    ]);
    expect(bad.results[0]!.field?.path).toBe('spec.patches[0].enabledIf');
    expect(bad.results[0]!.message).toContain(
      'failed to calculate value for enabledIf: failed to parse template: "{{ if }}": ',
    );
  });
});
