/**
 * The KRM I/O contract (issue #13) through the real CLI (`bin/render-clusterclass`; `npm run build`
 * first), each point with a YAML and a JSON input: JSON in gives a ResourceList that parses; exit
 * codes mean one thing each; an invalid function config comes back as the items untouched plus an
 * error result naming the field; malformed items are results next to every other item; the
 * resource bounds of hostile shapes hold. Expected values come from the YAML twin, the ClusterClass
 * CRD in ../shared/fixtures, and kpt. Time and peak memory of the hostile shapes are measured by
 * `npm run fuzz` (scripts/fuzz/budget.mjs), never here.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, run, skipUnless } from '../helpers/tools.js';
// @ts-expect-error -- plain ESM generator module without types
import { generators } from '../hostile/huge.mjs';
import { listItems } from '../../scripts/fuzz/core.mjs';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Format = 'yaml' | 'json';

const FORMATS: Format[] = ['yaml', 'json'];
// The library's repeated-key check is quadratic (20,000 keys: 11 s); the CLI refuses repeated keys itself.
const PARSE = { version: '1.1', uniqueKeys: false } as const;
const baseItems: Obj[] = YAML.parseAllDocuments(
  readFileSync(join(repoRoot, 'test', 'hostile', 'base.yaml'), 'utf8'),
).map((d) => d.toJS());
const SIBLINGS = ['hostile/sibling-a', 'hostile/sibling-b'];

const resourceList = (items: unknown[], functionConfig?: unknown): Obj => ({
  apiVersion: 'config.kubernetes.io/v1',
  kind: 'ResourceList',
  items,
  ...(functionConfig === undefined ? {} : { functionConfig }),
});
const text = (list: Obj, format: Format): string =>
  format === 'json' ? JSON.stringify(list) : YAML.stringify(list, { version: '1.1', lineWidth: 0 });

function fn(stdin: string, args: string[] = []): { code: number; stdout: string; stderr: string } {
  return run(process.execPath, [binPath, ...args], { input: stdin });
}

/** The output ResourceList; it must parse as YAML (JSON input included). */
function parsed(stdout: string): Obj {
  const doc = YAML.parseDocument(stdout, PARSE);
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  const list = doc.toJS() as Obj;
  expect(list.kind).toBe('ResourceList');
  return list;
}

/** The Clusters rendered: owners of the generated objects (the inputs hold no earlier output). */
const rendered = (list: Obj): string[] =>
  [
    ...new Set<string>(
      list.items.flatMap((i: Obj) => i?.metadata?.annotations?.['render-clusterclass.dev/cluster'] ?? []),
    ),
  ].sort();
const errors = (list: Obj): Obj[] => (list.results ?? []).filter((r: Obj) => r.severity === 'error');
const isGenerated = (item: Obj): boolean =>
  item?.metadata?.annotations?.['render-clusterclass.dev/cluster'] !== undefined;

describe('JSON in gives a ResourceList that parses (block YAML), with every item', () => {
  const yamlOut = parsed(fn(text(resourceList(baseItems), 'yaml')).stdout);

  it.each([
    ['compact', JSON.stringify(resourceList(baseItems))],
    ['indented', JSON.stringify(resourceList(baseItems), null, 2)],
    ['indented with tabs', JSON.stringify(resourceList(baseItems), null, '\t')],
  ])('%s JSON: the same items and results as the YAML input', (_, input) => {
    const out = fn(input);
    expect(out.code, out.stderr).toBe(0);
    const list = parsed(out.stdout);
    expect(list.items).toEqual(yamlOut.items);
    expect(list.results).toEqual(yamlOut.results);
    expect(rendered(list)).toEqual(SIBLINGS);
    // Every input item comes back, as it was except the annotation that marks a rendered source Cluster.
    const passedThrough = list.items.filter((i: Obj) => !isGenerated(i));
    expect(passedThrough.length).toBe(baseItems.length);
  });

  it.skipIf(skipUnless('kpt'))('kpt reads the answer to a JSON input (kpt fn sink writes the rendered files)', () => {
    const out = fn(JSON.stringify(resourceList(baseItems), null, '\t'));
    const dir = join(mkdtempSync(join(tmpdir(), 'rcc-json-')), 'pkg');
    const sink = run('kpt', ['fn', 'sink', dir], { input: out.stdout });
    expect(sink.code, sink.stderr).toBe(0);
    const written = YAML.parseAllDocuments(
      readFileSync(join(dir, 'rendered', 'hostile', 'sibling-a.yaml'), 'utf8'),
    ).map((d) => d.get('kind'));
    expect(written).toContain('MachineDeployment');
  });
});

describe.each(FORMATS)('exit codes mean one thing each (%s in)', (format) => {
  it('0: success', () => {
    const out = fn(text(resourceList(baseItems), format));
    expect(out.code).toBe(0);
    expect(errors(parsed(out.stdout))).toEqual([]);
  });

  it('1: error results, with the ResourceList and every item', () => {
    const broken = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: 'broken', namespace: 'hostile' },
      spec: { topology: { classRef: { name: 'nope' }, version: 'v1.33.1' } },
    };
    const out = fn(text(resourceList([...baseItems, broken]), format));
    expect(out.code).toBe(1);
    const list = parsed(out.stdout);
    expect(list.items.filter((i: Obj) => !isGenerated(i))).toHaveLength(baseItems.length + 1);
    expect(errors(list)).toEqual([
      expect.objectContaining({
        resourceRef: expect.objectContaining({ name: 'broken' }),
        field: { path: 'spec.topology.classRef.name' },
      }),
    ]);
    expect(rendered(list)).toEqual(SIBLINGS);
  });

  it('1: input that cannot be read: one line on stderr with line and column, nothing on stdout', () => {
    const broken =
      format === 'json'
        ? JSON.stringify(resourceList(baseItems)).slice(0, 300)
        : 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: [\n';
    const out = fn(broken);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^render-clusterclass: input is not valid YAML: .* at line \d+, column \d+\n$/);
  });

  it('3: an invalid function config, with the ResourceList and every item', () => {
    const out = fn(
      text(
        resourceList(baseItems, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'function-input' },
          data: { mode: 'explode' },
        }),
        format,
      ),
    );
    expect(out.code).toBe(3);
    expect(parsed(out.stdout).items).toEqual(baseItems);
  });

  it('render PATH: 1 for an unreadable file, 3 for a bad option', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-exit-'));
    writeFileSync(join(dir, `bad.${format}`), format === 'json' ? '{"apiVersion": "v1", "kind": ' : 'kind: [\n');
    const unreadable = fn('', ['render', dir]);
    expect(unreadable.code).toBe(1);
    // An error result for the file, as the user would type it (below the directory argument as
    // given, issue #14), at the line and column where it breaks; the other files are read.
    expect(unreadable.stderr).toMatch(
      new RegExp(
        `^${join(dir, `bad.${format}`).replace(/[.]/g, '\\.')}:\\d+:\\d+: error: not valid YAML: .*; this file is skipped, and nothing is pruned in a run that cannot read every input\nrender-clusterclass render: nothing printed \\(.*\\): rendered 0 of 0 Clusters .*; 1 input skipped \\(could not be read\\)\n$`,
      ),
    );
    expect(fn('', ['render', dir, '--mode', 'explode']).code).toBe(3);
  });

  it('render -o: an output path that is a file is 1 with one line, never an internal error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-out-'));
    writeFileSync(join(dir, 'taken'), '');
    const out = fn('', ['render', join(repoRoot, 'examples', 'basic'), '-o', join(dir, 'taken')]);
    expect(out.code).toBe(1);
    expect(out.stderr.split('\n').filter((l) => !l.startsWith('[warning]'))).toEqual([
      `render-clusterclass render: cannot write -o ${join(dir, 'taken')}: ${join(dir, 'taken')} is not a directory`,
      '',
    ]);
  });
});

describe.each(FORMATS)(
  'an invalid function config comes back as a result, the items untouched, exit 3 (%s in)',
  (format) => {
    const cm = (data: unknown, extra: Obj = {}) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'function-input' },
      data,
      ...extra,
    });
    const typed = (spec: unknown) => ({
      apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
      kind: 'RenderClusterClass',
      metadata: { name: 'render' },
      spec,
    });
    // [case, function config, field the result names, message]
    const cases: [string, unknown, string | undefined, RegExp][] = [
      [
        'an unknown kind',
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'function-input' } },
        'kind',
        /unsupported function config "v1\/Secret"/,
      ],
      [
        'an unknown field',
        typed({ frobnicate: true }),
        'spec.frobnicate',
        /unknown function config field "frobnicate"/,
      ],
      ['data that is a list', cm(['mode=preview']), 'data', /data must be a map of strings, not a list/],
      ['data holding a map', cm({ mode: { a: 'b' } }), 'data.mode', /must be a string, not a map/],
      ['data holding null', cm({ mode: null }), 'data.mode', /must be a string, not null/],
      ['a string instead of an object', 'mode=preview', undefined, /not a string/],
      ['a list instead of an object', ['mode', 'preview'], undefined, /not a list/],
      [
        'spec in a ConfigMap',
        cm({}, { spec: { mode: 'preview' } }),
        'spec',
        /unknown field "spec" in the ConfigMap function config/,
      ],
      [
        'a __proto__ key',
        cm(JSON.parse('{"__proto__": "x"}')),
        'data.__proto__',
        /unknown function config field "__proto__"/,
      ],
      ['a bad value', cm({ mode: 'explode' }), 'data.mode', /mode must be one of expand, preview, validate/],
      ['a 20 MiB value', cm({ mode: 'x'.repeat(20 * 1024 * 1024) }), 'data.mode', /mode must be one of/],
      [
        '20,000 unknown keys',
        cm(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 'v']))),
        'data.k0',
        /unknown function config field "k0" \(and 19999 more unknown fields\)/,
      ],
    ];

    it.each(cases)('%s', (_, functionConfig, field, message) => {
      const input = resourceList(baseItems, functionConfig);
      const out = fn(text(input, format));
      expect(out.code, out.stderr).toBe(3);
      const list = parsed(out.stdout);
      expect(list.items).toEqual(baseItems);
      const [result, ...more] = list.results as Obj[];
      expect(more).toEqual([]);
      expect(result).toMatchObject({ severity: 'error', tags: { rule: 'function-config' } });
      expect(result!.message).toMatch(message);
      expect(result!.message.length).toBeLessThan(1024);
      if (field !== undefined) {
        // About the config object (kpt's `function-input`), at the field.
        expect(result).toMatchObject({
          resourceRef: { kind: (functionConfig as Obj).kind, name: (functionConfig as Obj).metadata.name },
          field: { path: field },
        });
        expect(out.stderr).toMatch(
          new RegExp(`^render-clusterclass: functionConfig\\.${field.replace(/[.]/g, '\\.')}: `),
        );
      }
      expect(out.stderr.split('\n')).toHaveLength(2);
    });
  },
);

describe.each(FORMATS)('malformed items next to good ones (%s in)', (format) => {
  it('an error result per bad item with its index; every item passes through; every valid Cluster renders', () => {
    const bad = [
      null,
      42,
      'text',
      ['a', 'b'],
      { kind: 'ConfigMap', metadata: { name: 'no-api-version' } },
      { apiVersion: 'v1', kind: 'ConfigMap' },
    ];
    const out = fn(text(resourceList([...baseItems, ...bad]), format));
    expect(out.code).toBe(1);
    const list = parsed(out.stdout);
    expect(list.items.filter((i: Obj) => !isGenerated(i)).slice(baseItems.length)).toEqual(bad);
    const first = baseItems.length;
    expect(errors(list).map((r: Obj) => r.message)).toEqual([
      expect.stringMatching(
        new RegExp(`^items\\[${first}\\] \\(line \\d+, column \\d+\\) is not an object: it is a scalar \\(null\\)$`),
      ),
      expect.stringMatching(new RegExp(`^items\\[${first + 1}\\] .* is not an object: it is a scalar \\(42\\)`)),
      expect.stringMatching(new RegExp(`^items\\[${first + 2}\\] .* is not an object: it is a scalar \\(text\\)`)),
      expect.stringMatching(new RegExp(`^items\\[${first + 3}\\] .* is not an object: it is a list`)),
      expect.stringMatching(
        new RegExp(`^items\\[${first + 4}\\] .* is not a KRM object: apiVersion, kind and metadata.name are required`),
      ),
      expect.stringMatching(new RegExp(`^items\\[${first + 5}\\] .* is not a KRM object`)),
    ]);
    expect(rendered(list)).toEqual(SIBLINGS);
  });

  it('the same in mode convert: an error result per bad item, every item back', () => {
    const out = fn(
      text(
        resourceList([...baseItems, null, 42], {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'function-input' },
          data: { mode: 'convert' },
        }),
        format,
      ),
    );
    expect(out.code).toBe(1);
    const list = parsed(out.stdout);
    expect(list.items.slice(baseItems.length)).toEqual([null, 42]);
    expect(errors(list).map((r: Obj) => r.message)).toEqual([
      expect.stringMatching(/^items\[7\] .* is not an object/),
      expect.stringMatching(/^items\[8\] .* is not an object/),
    ]);
  });
});

describe('resource bounds of hostile shapes: a clean result, never a crash', () => {
  const crd = YAML.parse(
    readFileSync(
      join(repoRoot, '..', 'shared', 'fixtures', 'crds', 'capi', 'cluster.x-k8s.io_clusterclasses.yaml'),
      'utf8',
    ),
  ) as Obj;
  const spec = crd.spec.versions.find((v: Obj) => v.name === 'v1beta2').schema.openAPIV3Schema.properties.spec
    .properties;
  const maxPatches: number = spec.patches.maxItems;
  const maxJsonPatches: number = spec.patches.items.properties.definitions.items.properties.jsonPatches.maxItems;
  const generated = (name: string): string => (generators as Record<string, () => string>)[name]!();

  it(`inline patches past the CRD's ${maxPatches} are refused with the CRD's message, the class's Clusters not rendered`, () => {
    const out = fn(generated('inlinePatches10k'));
    expect(out.code).toBe(1);
    const list = parsed(out.stdout);
    expect(errors(list)).toEqual([
      expect.objectContaining({
        resourceRef: expect.objectContaining({ kind: 'ClusterClass', name: 'victim-class' }),
        field: { path: 'spec.patches' },
        message: expect.stringMatching(new RegExp(`^Too many: 10000: must have at most ${maxPatches} items; `)),
      }),
      expect.objectContaining({
        resourceRef: expect.objectContaining({ kind: 'Cluster', name: 'victim' }),
        message: expect.stringContaining('is invalid'),
      }),
    ]);
    expect(rendered(list)).toEqual(SIBLINGS);
  });

  it(`jsonPatches past the CRD's ${maxJsonPatches} per definition are refused; exactly ${maxJsonPatches} are applied`, () => {
    const over = parsed(fn(generated('jsonPatches10k')).stdout);
    expect(errors(over)[0]).toMatchObject({
      field: { path: 'spec.patches[0].definitions[0].jsonPatches' },
      message: expect.stringMatching(new RegExp(`^Too many: 10000: must have at most ${maxJsonPatches} items`)),
    });
    const atCap = generated('jsonPatches10k')
      .replace(/\{"op":"add","path":"\/spec\/template\/spec\/x(\d+)","value":\d+\},?/g, (m, i) =>
        Number(i) < maxJsonPatches ? m : '',
      )
      .replace(/,\]/, ']');
    const out = fn(atCap);
    expect(out.code, out.stderr).toBe(0);
    expect(rendered(parsed(out.stdout))).toEqual([...SIBLINGS, 'hostile/victim'].sort());
  });

  it('RE2 patterns over 200 values of 5,000 characters: one error per failing value, bad values cut in messages', () => {
    const out = fn(generated('re2Patterns'));
    expect(out.code).toBe(1);
    const list = parsed(out.stdout);
    const patternErrors = errors(list).filter((r: Obj) => r.message.includes("should match '^[a-z0-9]{1,1000}$'"));
    expect(patternErrors).toHaveLength(401);
    expect(Math.max(...patternErrors.map((r: Obj) => r.message.length))).toBeLessThan(4096 * 2);
    expect(rendered(list)).toEqual(SIBLINGS);
  });

  it('a Go template whose value doubles fails its Cluster at the value budget; the others render', () => {
    const template = '{{ $x := list "a" }}{{ range until 100 }}{{ $x = append $x $x }}{{ end }}{{ toJson $x }}';
    const patch = {
      name: 'double',
      definitions: [
        {
          selector: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
            kind: 'DevClusterTemplate',
            matchResources: { infrastructureCluster: true },
          },
          jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', valueFrom: { template } }],
        },
      ],
    };
    const base = baseItems.find((i) => i.kind === 'ClusterClass')!;
    const victimClass = {
      ...base,
      metadata: { ...base.metadata, name: 'victim-class' },
      spec: { ...base.spec, patches: [patch] },
    };
    const sibling = baseItems.find((i) => i.kind === 'Cluster')!;
    const victim = {
      ...sibling,
      metadata: { name: 'victim', namespace: 'hostile' },
      spec: { topology: { ...sibling.spec.topology, classRef: { name: 'victim-class' } } },
    };
    for (const format of FORMATS) {
      const out = fn(text(resourceList([...baseItems, victimClass, victim]), format));
      expect(out.code).toBe(1);
      const list = parsed(out.stdout);
      expect(errors(list)).toEqual([
        expect.objectContaining({
          resourceRef: expect.objectContaining({ kind: 'ClusterClass', name: 'victim-class' }),
          message: expect.stringContaining('error calling toJson: encoding a value of more than 4194304 bytes as JSON'),
        }),
      ]);
      expect(rendered(list)).toEqual(SIBLINGS);
    }
  });

  it('a 2,000-level nested block mapping in an unrelated item: one clean line with its position', () => {
    const out = fn(generated('deepBlockNextToBase'));
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(
      /^render-clusterclass: input is not valid YAML: input is nested too deeply \(at line \d+, column \d+\)\n$/,
    );
    expect(out.stderr).not.toMatch(/Maximum call stack/);
  });

  it('nesting past 500 levels that the parser accepts is refused before anything recurses into it', () => {
    const deep = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'deep' },
      data: { x: JSON.parse(`${'['.repeat(700)}1${']'.repeat(700)}`) },
    };
    for (const format of FORMATS) {
      const out = fn(text(resourceList([...baseItems, deep]), format));
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(
        /^render-clusterclass: input is nested too deeply: more than 500 levels at line \d+, column \d+\n$/,
      );
    }
  });

  it('100,000 aliases of a short scalar pass (merge keys: read.test.ts); an alias bomb is an error result for its item', () => {
    const aliases = fn(generated('aliases100k'));
    expect(aliases.code, aliases.stderr).toBe(0);
    // Echoed as written: 100,000 alias nodes (the library's toJS would resolve them in quadratic time).
    const doc = YAML.parseDocument(aliases.stdout, PARSE);
    const item = (doc.get('items') as YAML.YAMLSeq<YAML.YAMLMap>).items.find(
      (i) => i.getIn(['metadata', 'name']) === 'aliases',
    )!;
    expect((item.get('list') as YAML.YAMLSeq).items.filter(YAML.isAlias)).toHaveLength(100_000);
    expect([...new Set(listItems(aliases.stdout)!.items.flatMap((i) => i.owner ?? []))].sort()).toEqual([
      'hostile/sibling-a',
      'hostile/sibling-b',
    ]);
    const out = fn(generated('aliasBomb'));
    expect(out.code).toBe(1);
    // Read from YAML nodes: expanding the echoed bomb would be the attack itself.
    const echoed = listItems(out.stdout)!;
    expect(echoed.items.map((i) => i.identity)).toContain('v1|ConfigMap|hostile|lol');
    expect(echoed.results.filter((r) => r.severity === 'error').map((r) => r.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^items\\[${baseItems.length}\\]: document contains excessive aliasing \\(an alias bomb\\) at line \\d+, column \\d+$`,
        ),
      ),
    ]);
  });
});
