// Writes the hostile corpus: test/hostile/cases/<category>-<name>.yaml and test/hostile/cases.json.
// Run `node test/hostile/make-cases.mjs` after editing; the output is committed. Huge cases are not
// files: they name a generator of test/hostile/huge.mjs and are built at test time.
//
// Case kinds:
//   krm     the file is the whole stdin of KRM mode (a ResourceList, or something that is not one)
//   stream  the file is a YAML stream: run as `render FILE --format resourcelist`, and (when
//           `krm` is not false) also in KRM mode, wrapped into a ResourceList by the test
// Expectations: exit (allowed exit codes), stderr (regex the message must match), rendered
// (Clusters that must render), failed (Clusters that must get an error result), internal (an
// "internal error" result is allowed; default false, so internal bugs show up).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const casesDir = join(here, 'cases');
const base = readFileSync(join(here, 'base.yaml'), 'utf8');
const SIBLINGS = ['hostile/sibling-a', 'hostile/sibling-b'];
const RL = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n';

const cases = [];
const files = new Map();
function add(category, name, content, expect) {
  const id = `${category}-${name}`;
  const ext = expect.ext ?? 'yaml';
  delete expect.ext;
  const file = `cases/${id}.${ext}`;
  if (files.has(file)) throw new Error(`duplicate case ${id}`);
  files.set(file, content);
  cases.push({ id, category, file, ...expect });
}
/** A stream case: base fixture plus extra documents; siblings must render. */
function withBase(category, name, extra, expect = {}) {
  add(category, name, `${base}---\n${extra}`, { kind: 'stream', exit: [1], rendered: SIBLINGS, ...expect });
}
function krm(category, name, text, expect) {
  add(category, name, text, { kind: 'krm', ...expect });
}

/** A second class "victim-class" (same templates as base) with the given variables/patches. */
function victimClass({ name = 'victim-class', variables = [], patches = [], extra = '' } = {}) {
  return `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: ${name}, namespace: hostile}
spec:
  infrastructure:
    templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevClusterTemplate, name: base-cluster}
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: base-cp}
  workers:
    machineDeployments:
    - class: default
      bootstrap:
        templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: base-bootstrap}
      infrastructure:
        templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevMachineTemplate, name: base-machine}
  variables: ${JSON.stringify(variables)}
  patches: ${JSON.stringify(patches)}
${extra}`;
}
function victimCluster({ name = 'victim', cls = 'victim-class', variables = [], topology = '' } = {}) {
  return `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: ${JSON.stringify(name)}, namespace: hostile}
spec:
  topology:
    classRef: {name: ${JSON.stringify(cls)}}
    version: v1.33.1
    variables: ${JSON.stringify(variables)}
${topology}`;
}
const templatePatch = (tpl, path = '/spec/template/spec/value') => [
  {
    name: 'tpl',
    definitions: [
      {
        selector: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
          kind: 'DevClusterTemplate',
          matchResources: { infrastructureCluster: true },
        },
        jsonPatches: [{ op: 'add', path, valueFrom: { template: tpl } }],
      },
    ],
  },
];
const jsonPatch = (ops) => [
  {
    name: 'p',
    definitions: [
      {
        selector: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
          kind: 'DevClusterTemplate',
          matchResources: { infrastructureCluster: true },
        },
        jsonPatches: ops,
      },
    ],
  },
];
const anyVar = (name) => ({
  name,
  required: false,
  schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
});
/** A victim class + Cluster whose template patch is `tpl`: the victim fails, siblings render. */
function templateCase(category, name, tpl, expect = {}) {
  withBase(
    category,
    name,
    `${victimClass({ patches: templatePatch(tpl), variables: [anyVar('data')] })}---\n${victimCluster({ variables: [{ name: 'data', value: { a: 'b' } }] })}`,
    {
      failed: ['hostile/victim'],
      ...expect,
    },
  );
}
/** Base items as ResourceList items (indented text), for raw KRM cases. */
function baseItems() {
  return base
    .split(/^---$/m)
    .map((d) => d.replace(/^(#.*\n|\s*\n)+/, '').trimEnd())
    .filter((d) => d)
    .map((d) =>
      d
        .split('\n')
        .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
        .join('\n'),
    )
    .join('\n');
}
const rl = (itemsText, extra = '') => `${RL}items:\n${itemsText}\n${extra}`;

// ---------------------------------------------------------------- malformed input
const M = 'malformed';
krm(M, 'not-yaml', 'not: [yaml\n', { exit: [1], stderr: 'not valid YAML.*line \\d+, column \\d+' });
krm(
  M,
  'truncated-resourcelist',
  rl(baseItems())
    .slice(0, 1500)
    .replace(/\n[^\n]*$/, '\n  metadata: {name: "cut'),
  { exit: [1], stderr: 'not valid YAML.*line \\d+' },
);
krm(
  M,
  'truncated-json',
  JSON.stringify({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }],
  }).slice(0, 70),
  { exit: [1], stderr: 'not valid YAML.*line' },
);
krm(M, 'binary-bytes', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x7f, 0x80, 0x1b, 0x5b, 0x41]).toString('latin1'), {
  exit: [1],
  stderr: 'not (valid YAML|a ResourceList)',
  ext: 'bin',
});
krm(
  M,
  'binary-in-value',
  rl(`${baseItems()}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: bin}, data: {x: "\u0001\u0002\u0007"}}`),
  { exit: [0, 1] },
);
krm(M, 'empty-input', '', { exit: [1], stderr: 'empty' });
krm(M, 'only-comments', '# nothing here\n# at all\n', { exit: [1], stderr: 'empty' });
krm(M, 'scalar-root', 'just a string\n', { exit: [1], stderr: 'scalar' });
krm(M, 'list-root', '- a\n- b\n', { exit: [1], stderr: 'list' });
krm(M, 'wrong-kind', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', {
  exit: [1],
  stderr: 'kind is "ConfigMap"',
});
krm(M, 'wrong-apiversion', 'apiVersion: config.kubernetes.io/v9\nkind: ResourceList\nitems: []\n', {
  exit: [1],
  stderr: 'unsupported apiVersion',
});
krm(M, 'missing-apiversion', 'kind: ResourceList\nitems: []\n', { exit: [1], stderr: 'apiVersion' });
krm(M, 'items-is-map', `${RL}items:\n  a: 1\n`, { exit: [1], stderr: 'items must be a list.*line 4' });
krm(M, 'items-is-string', `${RL}items: hello\n`, { exit: [1], stderr: 'items must be a list.*line 3' });
krm(M, 'items-null', `${RL}items: null\n`, { exit: [0] });
krm(M, 'items-missing', `${RL}`, { exit: [0] });
krm(M, 'items-empty', `${RL}items: []\n`, { exit: [0] });
krm(M, 'item-scalar', rl(`${baseItems()}\n- 42`), {
  exit: [1],
  stderr: 'items\\[7\\] \\(line \\d+, column \\d+\\) is not an object',
  rendered: SIBLINGS,
  json: true,
});
krm(M, 'item-null', rl(`${baseItems()}\n- null`), {
  exit: [1],
  stderr: 'items\\[7\\].*is not an object',
  rendered: SIBLINGS,
  json: true,
});
krm(M, 'item-list', rl(`${baseItems()}\n- [a, b]`), {
  exit: [1],
  stderr: 'is not an object',
  rendered: SIBLINGS,
  json: true,
});
krm(M, 'item-missing-apiversion', rl(`${baseItems()}\n- {kind: ConfigMap, metadata: {name: x}}`), {
  exit: [1],
  stderr: 'not a KRM object',
  rendered: SIBLINGS,
});
krm(M, 'item-missing-kind', rl(`${baseItems()}\n- {apiVersion: v1, metadata: {name: x}}`), {
  exit: [1],
  stderr: 'not a KRM object',
  rendered: SIBLINGS,
});
krm(M, 'item-missing-metadata', rl(`${baseItems()}\n- {apiVersion: v1, kind: ConfigMap}`), {
  exit: [1],
  stderr: 'not a KRM object',
  rendered: SIBLINGS,
});
krm(M, 'item-metadata-string', rl(`${baseItems()}\n- {apiVersion: v1, kind: ConfigMap, metadata: oops}`), {
  exit: [1],
  rendered: SIBLINGS,
});
krm(M, 'item-name-number', rl(`${baseItems()}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: 12}}`), {
  exit: [1],
  rendered: SIBLINGS,
});
// Neither kind nor metadata: not meant as an object, skipped with an info (krm/read.ts).
krm(M, 'item-empty-map', rl(`${baseItems()}\n- {}`), { exit: [0], rendered: SIBLINGS });
krm(M, 'bom', `\uFEFF${rl(baseItems())}`, { exit: [0], rendered: SIBLINGS });
krm(M, 'crlf', rl(baseItems()).replace(/\n/g, '\r\n'), { exit: [0], rendered: SIBLINGS });
krm(M, 'bom-crlf', `\uFEFF${rl(baseItems()).replace(/\n/g, '\r\n')}`, { exit: [0], rendered: SIBLINGS });
krm(M, 'duplicate-root-key', `${RL}kind: ResourceList\nitems: []\n`, { exit: [1], stderr: 'unique.*"kind".*line 3' });
krm(
  M,
  'duplicate-key-in-item',
  rl(`${baseItems()}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: dup}\n  data: {a: "1", a: "2"}`),
  { exit: [1], stderr: 'unique.*"a".*line \\d+', rendered: SIBLINGS },
);
krm(M, 'tab-indentation', `${RL}items:\n\t- {apiVersion: v1}\n`, { exit: [1], stderr: 'line 4' });
krm(M, 'unterminated-quote', `${RL}items:\n- {apiVersion: "v1, kind: ConfigMap}\n`, { exit: [1], stderr: 'line' });
krm(M, 'bad-escape', `${RL}items:\n- {apiVersion: "v1\\q", kind: ConfigMap, metadata: {name: x}}\n`, { exit: [1] });
krm(M, 'control-chars', `${RL}items:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: x\u0007y}}\n`, {
  exit: [0, 1],
});
krm(
  M,
  'unknown-tags',
  rl(`${baseItems()}\n- !custom {apiVersion: v1, kind: ConfigMap, metadata: {name: tagged}, data: {x: !weird 1}}`),
  { exit: [0, 1], rendered: SIBLINGS },
);
krm(
  M,
  'json-resourcelist',
  JSON.stringify({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'j' } }],
  }),
  { exit: [0] },
);
// JSON in (issue #13): compact, indented, indented with tabs; the answer is block YAML that parses, with every item.
{
  const list = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: base
      .split(/^---$/m)
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => YAML.parse(d)),
  };
  krm(M, 'json-base-compact', JSON.stringify(list), { exit: [0], rendered: SIBLINGS });
  krm(M, 'json-base-indented', JSON.stringify(list, null, 2), { exit: [0], rendered: SIBLINGS });
  krm(M, 'json-base-tabs', JSON.stringify(list, null, '\t'), { exit: [0], rendered: SIBLINGS });
  krm(
    M,
    'json-base-malformed-items',
    JSON.stringify({ ...list, items: [...list.items, null, 7, 'text', [1], { kind: 'NoApiVersion' }] }, null, 1),
    { exit: [1], stderr: 'items\\[7\\].*is not an object', rendered: SIBLINGS },
  );
  krm(
    M,
    'json-base-config-error',
    JSON.stringify({
      ...list,
      functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { mode: 'explode' } },
    }),
    { exit: [3], stderr: 'functionConfig.data.mode' },
  );
}
krm(
  M,
  'multi-document-stdin',
  `${rl(baseItems())}---\n${rl('- {apiVersion: v1, kind: ConfigMap, metadata: {name: second}}')}`,
  { exit: [1], stderr: 'line' },
);
krm(M, 'functionconfig-list', rl(baseItems(), 'functionConfig: [1, 2]\n'), {
  exit: [3],
  stderr: 'RenderClusterClass or a v1 ConfigMap, not a list',
  json: true,
});
krm(
  M,
  'functionconfig-unknown-field',
  rl(
    baseItems(),
    'functionConfig:\n  apiVersion: fn.render-clusterclass.dev/v1alpha1\n  kind: RenderClusterClass\n  spec: {frobnicate: true}\n',
  ),
  { exit: [3], stderr: 'functionConfig.spec.frobnicate: unknown function config field', json: true },
);
krm(
  M,
  'functionconfig-bad-mode',
  rl(
    baseItems(),
    'functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data: {mode: explode}\n',
  ),
  { exit: [3], stderr: 'functionConfig.data.mode: invalid function config: mode must be one of', json: true },
);
krm(
  M,
  'functionconfig-wrong-kind',
  rl(baseItems(), 'functionConfig: {apiVersion: v1, kind: Secret, metadata: {name: s}}\n'),
  { exit: [3], stderr: 'functionConfig.kind: unsupported function config "v1/Secret"', json: true },
);
krm(M, 'functionconfig-string', rl(baseItems(), 'functionConfig: mode=preview\n'), {
  exit: [3],
  stderr: 'not a string',
  json: true,
});
krm(
  M,
  'functionconfig-data-list',
  rl(baseItems(), 'functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, data: [mode=preview]}\n'),
  {
    exit: [3],
    stderr: 'functionConfig.data: invalid function config: data must be a map of strings, not a list',
    json: true,
  },
);
krm(
  M,
  'functionconfig-data-map-value',
  rl(baseItems(), 'functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, data: {mode: {a: b}}}\n'),
  { exit: [3], stderr: 'functionConfig.data.mode: .*must be a string, not a map', json: true },
);
krm(
  M,
  'functionconfig-data-null-value',
  rl(baseItems(), 'functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, data: {mode: null}}\n'),
  { exit: [3], stderr: 'functionConfig.data.mode: .*not null', json: true },
);
krm(
  M,
  'functionconfig-configmap-spec',
  rl(baseItems(), 'functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, spec: {mode: preview}}\n'),
  { exit: [3], stderr: 'functionConfig.spec: unknown field "spec" in the ConfigMap', json: true },
);
krm(
  M,
  'functionconfig-proto-keys',
  rl(
    baseItems(),
    'functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, data: {__proto__: x, constructor: y}}\n',
  ),
  { exit: [3], stderr: 'unknown function config field "__proto__"', json: true },
);
krm(
  M,
  'functionconfig-metadata-string',
  rl(baseItems(), 'functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: oops, data: {}}\n'),
  { exit: [3], stderr: 'functionConfig.metadata', json: true },
);
krm(
  M,
  'functionconfig-alias-bomb',
  (() => {
    let fc =
      'functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data:\n    a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++)
      fc += `    a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]\n`;
    return rl(baseItems(), fc);
  })(),
  { exit: [3], stderr: 'excessive aliasing' },
);
krm(
  M,
  'functionconfig-spec-string',
  rl(
    baseItems(),
    'functionConfig: {apiVersion: fn.render-clusterclass.dev/v1alpha1, kind: RenderClusterClass, spec: nope}\n',
  ),
  { exit: [3], stderr: 'spec must be an object, not a string', json: true },
);
krm(
  M,
  'invalid-utf8',
  Buffer.concat([
    Buffer.from(rl(baseItems())),
    Buffer.from('- {apiVersion: v1, kind: ConfigMap, metadata: {name: u}, data: {x: "'),
    Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xed, 0xa0, 0x80]),
    Buffer.from('"}}\n'),
  ]).toString('latin1'),
  { exit: [0, 1], rendered: SIBLINGS, ext: 'bin' },
);
krm(
  M,
  'huge-number',
  rl(
    `${baseItems()}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: n}, data: {x: 1e400, y: 123456789012345678901234567890, z: .nan, w: -.inf}}`,
  ),
  { exit: [0, 1], rendered: SIBLINGS },
);
withBase(M, 'stream-null-documents', '~\n---\nnull\n---\n---\n', { exit: [0], krm: false });
withBase(M, 'stream-scalar-document', 'hello\n', {
  exit: [1],
  stderr: 'document \\d+.*not an object.*scalar',
  krm: false,
});
withBase(M, 'stream-list-document', '- a\n- b\n', { exit: [1], stderr: 'not an object', krm: false });
// Render mode skips a document that is not a Kubernetes object (exit 0); KRM mode reports the item (exit 1).
withBase(M, 'stream-not-krm-object', 'foo: bar\n', { exit: [0, 1] });
withBase(M, 'topology-is-string', victimCluster({ cls: 'base' }).replace(/  topology:[\s\S]*/, '  topology: "yes"\n'), {
  exit: [0],
  failed: [],
});
withBase(M, 'topology-workers-list', victimCluster({ cls: 'base', topology: '    workers: [1, 2]\n' }), {
  failed: ['hostile/victim'],
});
withBase(
  M,
  'machinedeployments-map',
  victimCluster({ cls: 'base', topology: '    workers:\n      machineDeployments: {a: 1}\n' }),
  { failed: ['hostile/victim'] },
);
withBase(M, 'replicas-string', victimCluster({ cls: 'base', topology: '    controlPlane: {replicas: three}\n' }), {
  failed: ['hostile/victim'],
});
withBase(M, 'version-number', victimCluster({ cls: 'base' }).replace('version: v1.33.1', 'version: 1.33'), {
  failed: ['hostile/victim'],
});
withBase(M, 'variables-map', victimCluster({ cls: 'base' }).replace('variables: []', 'variables: {region: x}'), {
  failed: ['hostile/victim'],
});
withBase(M, 'classref-missing', victimCluster({ cls: 'base' }).replace(/classRef: .*/, 'classRef: {}'), {
  failed: ['hostile/victim'],
});
withBase(
  M,
  'class-spec-list',
  `apiVersion: cluster.x-k8s.io/v1beta2\nkind: ClusterClass\nmetadata: {name: victim-class, namespace: hostile}\nspec: [1, 2]\n---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  M,
  'class-workers-string',
  victimClass().replace(/  workers:\n(    .*\n|      .*\n)*/, '  workers: everything\n') + `---\n${victimCluster()}`,
  { failed: ['hostile/victim'], stderr: 'ClusterClass "hostile/victim-class" is invalid' },
);
withBase(M, 'templateref-no-name', victimClass().replace('name: base-cluster}', '}') + `---\n${victimCluster()}`, {
  failed: ['hostile/victim'],
  stderr: 'ClusterClass "hostile/victim-class" is invalid',
});
withBase(
  M,
  'metadata-labels-list',
  victimCluster({ cls: 'base' }).replace('namespace: hostile}', 'namespace: hostile, labels: [a, b]}'),
  { exit: [0, 1], failed: [] },
);
withBase(M, 'cluster-v1beta1-shape-in-v1beta2', victimCluster({ cls: 'base' }).replace(/classRef: .*/, 'class: base'), {
  failed: ['hostile/victim'],
});
withBase(
  M,
  'nested-null-everywhere',
  victimCluster({ cls: 'base', topology: '    controlPlane: null\n    workers: {machineDeployments: [null, ~]}\n' }),
  { failed: ['hostile/victim'] },
);

// ---------------------------------------------------------------- resource exhaustion
const R = 'resource';
{
  let s = `${RL}items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: lol}\n  data:\n    a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
  for (let i = 1; i < 10; i++)
    s += `    a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(',')}]\n`;
  krm(R, 'alias-billion-laughs', s, {
    exit: [1],
    stderr: 'items\\[0\\]: document contains excessive aliasing.*line \\d+',
  });
  const stream = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n${s.split('  data:\n')[1]}`;
  withBase(R, 'alias-billion-laughs-file', stream, { exit: [1], stderr: 'excessive aliasing.*line \\d+', krm: false });
}
krm(
  R,
  'alias-within-limits',
  rl(
    `${baseItems()}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: anchors}\n  data: &d {a: "1", b: "2"}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: aliases}\n  data: *d`,
  ),
  { exit: [0], rendered: SIBLINGS },
);
krm(
  R,
  'alias-merge-keys',
  rl(
    `${baseItems()}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: &m {name: merged, labels: {a: b}}\n  data: {<<: {x: "1"}, y: "2"}`,
  ),
  { exit: [0], rendered: SIBLINGS },
);
krm(
  R,
  'alias-self-reference',
  `${RL}items:\n- &x {apiVersion: v1, kind: ConfigMap, metadata: {name: self}, data: *x}\n`,
  { exit: [1], stderr: 'alias' },
);
krm(R, 'alias-undefined', `${RL}items:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: u}, data: *nope}\n`, {
  exit: [1],
  stderr: 'line',
});
krm(
  R,
  'deep-flow-nesting',
  rl(
    `- {apiVersion: v1, kind: ConfigMap, metadata: {name: deep}, data: {x: ${'['.repeat(100000)}${']'.repeat(100000)}}}`,
  ),
  { exit: [1], stderr: 'nested too deeply' },
);
krm(
  R,
  'deep-map-nesting',
  rl(`- {apiVersion: v1, kind: ConfigMap, metadata: {name: deep}, data: ${'{a: '.repeat(50000)}1${'}'.repeat(50000)}}`),
  { exit: [1], stderr: 'nested too deeply' },
);
krm(
  R,
  'nesting-past-the-limit',
  rl(
    `${baseItems()}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: deep}, data: {x: ${'['.repeat(600)}1${']'.repeat(600)}}}`,
  ),
  { exit: [1], stderr: 'nested too deeply: more than 500 levels at line \\d+' },
);
krm(
  R,
  'alias-deepens-past-the-limit',
  rl(
    `${baseItems()}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: deep}, data: {a: &d ${'['.repeat(300)}1${']'.repeat(300)}, b: ${'['.repeat(300)}*d${']'.repeat(300)}}}`,
  ),
  { exit: [1], stderr: 'nested too deeply' },
);
krm(
  R,
  'alias-merge-order',
  rl(
    `${baseItems()}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: merged}\n  data: {a: "1", <<: [{a: "2", b: "2"}, {b: "3", c: "3"}]}`,
  ),
  { exit: [0], rendered: SIBLINGS },
);
krm(
  R,
  'moderate-nesting-passthrough',
  rl(
    `${baseItems()}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: deep}, data: {x: ${'['.repeat(300)}1${']'.repeat(300)}}}`,
  ),
  { exit: [0], rendered: SIBLINGS },
);
withBase(
  R,
  'deep-variable-value',
  victimCluster({ cls: 'base' }).replace(
    'variables: []',
    `variables: [{name: region, value: x}, {name: extra, value: ${'{a: '.repeat(300)}1${'}'.repeat(300)}}]`,
  ),
  { exit: [0, 1], failed: [] },
);
templateCase(R, 'template-until-huge', '{{ range until 100000000 }}xxxxxxxxxxxxxxxx{{ end }}');
templateCase(R, 'template-repeat-huge', '{{ repeat 1000000000 "x" }}');
templateCase(R, 'template-recursion', '{{ define "x" }}{{ template "x" . }}{{ end }}{{ template "x" . }}', {
  stderr: 'depth',
});
templateCase(R, 'template-nested-range-steps', '{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}', {
  stderr: 'steps',
});
templateCase(R, 'template-printf-width', '{{ range until 1000 }}{{ printf "%1000000d" 1 }}{{ end }}');
templateCase(
  R,
  'template-string-doubling',
  '{{ $s := "xx" }}{{ range until 64 }}{{ $s = print $s $s }}{{ end }}{{ $s }}',
);
templateCase(
  R,
  'template-recursion-data',
  '{{ define "r" }}{{ template "r" (list . .) }}{{ end }}{{ template "r" . }}',
);
templateCase(R, 'template-nested-parens', `{{ ${'('.repeat(5000)}1${')'.repeat(5000)} }}`);
templateCase(R, 'template-deep-if-nesting', `${'{{ if true }}'.repeat(3000)}x${'{{ end }}'.repeat(3000)}`, {
  exit: [0, 1],
  failed: [],
});
templateCase(
  R,
  'template-fromyaml-alias-bomb',
  `{{ $y := "a: &a [x,x,x,x,x,x,x,x,x]\\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]" }}{{ fromYaml $y | toJson }}`,
);
templateCase(R, 'template-fromjson-deep', `{{ fromJson "${'['.repeat(20000)}${']'.repeat(20000)}" | toJson }}`, {
  exit: [0, 1],
  failed: [],
});
templateCase(
  R,
  'template-list-append-growth',
  '{{ $l := list 1 }}{{ range until 40 }}{{ $l = concat $l $l }}{{ end }}{{ len $l }}',
);
templateCase(
  R,
  'template-dict-growth',
  '{{ $d := dict }}{{ range $i := until 1000000 }}{{ $_ := set $d (toString $i) $i }}{{ end }}{{ len $d }}',
);
templateCase(R, 'template-regex-catastrophic', '{{ regexMatch "^(a+)+$" (print (repeat 100 "a") "!") }}', {
  exit: [0],
  failed: [],
});
templateCase(R, 'template-regex-replace-large', '{{ regexReplaceAll "(a|aa)*b" (repeat 30000 "a") "x" | len }}', {
  exit: [0, 1],
  failed: [],
});
templateCase(R, 'template-semver-constraint-redos', `{{ semverCompare "${'>=1.0.0 '.repeat(2000)}x" "1.2.3" }}`, {
  exit: [0, 1],
  failed: [],
});
templateCase(R, 'template-semver-long', `{{ semver "${'1'.repeat(100000)}.0.0" }}`, { exit: [0, 1], failed: [] });
templateCase(R, 'template-large-literal', `{{ "${'x'.repeat(1_000_000)}" | len }}`, { exit: [0, 1], failed: [] });
templateCase(
  R,
  'template-trunc-huge-arg',
  '{{ trunc 999999999999 "abc" }}{{ substr 0 999999999 "abc" }}{{ repeat -5 "x" }}',
  { exit: [0, 1], failed: [] },
);
templateCase(
  R,
  'template-value-doubling-tojson',
  '{{ $x := list "a" }}{{ range until 100 }}{{ $x = append $x $x }}{{ end }}{{ toJson $x }}',
  { stderr: 'error calling toJson: encoding a value of more than 4194304 bytes' },
);
templateCase(
  R,
  'template-value-doubling-print',
  '{{ $d := dict "a" "b" }}{{ range until 100 }}{{ $d = dict "l" $d "r" $d }}{{ end }}{{ $d }}',
  { stderr: 'printing a value of more than 4194304 bytes' },
);
templateCase(
  R,
  'template-value-doubling-deepcopy',
  '{{ $x := list "a" }}{{ range until 100 }}{{ $x = append $x $x }}{{ end }}{{ deepCopy $x | len }}',
  { stderr: 'copying a value of more than 1000000 elements' },
);
templateCase(
  R,
  'template-value-doubling-merge',
  '{{ $d := dict "a" "b" }}{{ range until 100 }}{{ $d = dict "l" $d "r" $d }}{{ end }}{{ merge $d $d | len }}',
  { stderr: 'merging a value of more than 1000000 elements' },
);
templateCase(
  R,
  'template-value-doubling-join',
  '{{ $e := list "a" }}{{ range until 19 }}{{ $e = append $e $e }}{{ end }}{{ $l := list }}{{ range until 1000 }}{{ $l = append $l $e }}{{ end }}{{ join "," $l }}',
  { stderr: 'exceeds the output limit' },
);
templateCase(
  R,
  'template-string-accumulate',
  '{{ $s := "" }}{{ range until 200000 }}{{ $s = print $s "xxxxxxxxxxxxxxxxxxxx" }}{{ end }}{{ len $s }}',
  { exit: [0, 1], failed: [] },
);
templateCase(
  R,
  'template-output-many-anchors',
  '{{ range $i := until 20000 }}k{{ $i }}: &a{{ $i }} v\nr{{ $i }}: *a{{ $i }}\n{{ end }}',
  { exit: [1], failed: ['hostile/victim'], stderr: 'excessive aliasing' },
);
templateCase(R, 'template-output-many-keys', '{{ range $i := until 60000 }}k{{ $i }}: v\n{{ end }}', {
  exit: [0, 1],
  failed: [],
});
templateCase(R, 'template-b64-loop', '{{ $s := "x" }}{{ range until 60 }}{{ $s = b64enc $s }}{{ end }}{{ len $s }}');
withBase(
  R,
  'schema-pattern-redos',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'string', pattern: '^(a+)+$' } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: `${'a'.repeat(50000)}!` }] })}`,
  { failed: ['hostile/victim'] },
);
withBase(
  R,
  'schema-pattern-backreference',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'string', pattern: '^(a)\\1$' } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: 'aa' }] })}`,
  { failed: ['hostile/victim'] },
);
withBase(
  R,
  'cel-expensive-rule',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'object', properties: { l: { type: 'array', items: { type: 'string' } } }, 'x-kubernetes-validations': [{ rule: 'self.l.all(x, self.l.all(y, self.l.all(z, x + y + z != "")))' }] } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: { l: Array.from({ length: 2000 }, (_, i) => `s${i}`) } }] })}`,
  { failed: ['hostile/victim'], stderr: 'cost limit' },
);
withBase(
  R,
  'cel-regex-redos',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.matches('^(a+)+$')" }] } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: `${'a'.repeat(50000)}!` }] })}`,
  { failed: ['hostile/victim'] },
);
withBase(
  R,
  'cel-string-growth',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'string', 'x-kubernetes-validations': [{ rule: '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, self.size() > 0))))))' }] } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: 'x' }] })}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  R,
  'giant-patch-value',
  `${victimClass({ variables: [anyVar('big')], patches: jsonPatch([{ op: 'add', path: '/spec/template/spec/big', valueFrom: { variable: 'big' } }]) })}---\n${victimCluster({ variables: [{ name: 'big', value: { blob: 'x'.repeat(2_000_000) } }] })}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  R,
  'many-patch-ops',
  `${victimClass({ variables: [], patches: jsonPatch(Array.from({ length: 5000 }, (_, i) => ({ op: 'add', path: `/spec/template/spec/k${i}`, value: i }))) })}---\n${victimCluster()}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  R,
  'many-machinedeployments',
  victimCluster({
    cls: 'base',
    variables: [{ name: 'region', value: 'x' }],
    topology: `    workers:\n      machineDeployments:\n${Array.from({ length: 1000 }, (_, i) => `      - {class: default, name: md-${i}}`).join('\n')}\n`,
  }),
  { exit: [0, 1], failed: [] },
);
withBase(
  R,
  'many-variables',
  `${victimClass({ variables: Array.from({ length: 2000 }, (_, i) => ({ name: `v${i}`, required: false, schema: { openAPIV3Schema: { type: 'string' } } })) })}---\n${victimCluster({ variables: Array.from({ length: 2000 }, (_, i) => ({ name: `v${i}`, value: `x${i}` })) })}`,
  { exit: [0, 1], failed: [] },
);
withBase(R, 'long-names', victimCluster({ cls: 'base', name: 'n'.repeat(10000) }), { exit: [0, 1], failed: [] });
withBase(
  R,
  'many-keys-one-map',
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wide}\ndata:\n${Array.from({ length: 60000 }, (_, i) => `  k${i}: v`).join('\n')}\n`,
  { exit: [0], failed: [] },
);
withBase(
  R,
  'many-clusters',
  Array.from({ length: 300 }, (_, i) => victimCluster({ cls: 'base', name: `fleet-${i}` })).join('---\n'),
  { exit: [0], failed: [] },
);

// ---------------------------------------------------------------- injection
const I = 'injection';
for (const fn of [
  'env "HOME"',
  'expandenv "$HOME"',
  'now',
  'getHostByName "example.com"',
  'readFile "/etc/passwd"',
  'exec "id"',
  'osBase "/x"',
  'getHostByAddr "1.1.1.1"',
  'shell "id"',
  'fetch "http://x"',
  'date "2006" now',
  'unixEpoch now',
]) {
  const name = fn.split(' ')[0];
  if (name === 'osBase') continue;
  templateCase(I, `template-func-${name}${fn.includes('now') && name !== 'now' ? '-now' : ''}`, `{{ ${fn} }}`, {
    stderr: 'not defined|function',
  });
}
templateCase(
  I,
  'template-proto-field',
  '{{ .__proto__ }}{{ .constructor }}{{ .builtin.__proto__ }}{{ .data.constructor.name }}',
  { exit: [0, 1], failed: [] },
);
templateCase(
  I,
  'template-index-proto',
  '{{ index . "__proto__" }}{{ index .data "constructor" }}{{ index .data "toString" }}',
  { exit: [0, 1], failed: [] },
);
templateCase(
  I,
  'template-set-proto',
  '{{ $d := dict }}{{ $_ := set $d "__proto__" (dict "polluted" "yes") }}{{ $_ := set .data "__proto__" "x" }}{{ $d.polluted }}{{ (dict).polluted }}',
  { exit: [0, 1], failed: [] },
);
templateCase(
  I,
  'template-merge-proto',
  '{{ $m := merge (dict) (fromJson "{\\"__proto__\\": {\\"polluted\\": \\"yes\\"}}") }}{{ (dict).polluted }}{{ toJson $m }}',
  { exit: [0, 1], failed: [] },
);
templateCase(
  I,
  'template-js-props',
  '{{ .data.length }}{{ .builtin.cluster.name.length }}{{ .data.hasOwnProperty }}{{ .data.valueOf }}',
  { exit: [0, 1], failed: [] },
);
templateCase(
  I,
  'template-dig-proto',
  '{{ dig "__proto__" "polluted" "none" .data }}{{ pluck "__proto__" .data | toJson }}',
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'variable-name-proto',
  `${victimClass({ variables: [{ name: '__proto__', required: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] })}---\n${victimCluster({ variables: [{ name: '__proto__', value: { polluted: 'yes' } }] })}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'variable-value-proto-keys',
  victimCluster({
    cls: 'base',
    variables: [
      { name: 'region', value: 'x' },
      {
        name: 'extra',
        value: JSON.parse(
          '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": 1}',
        ),
      },
    ],
  }),
  { exit: [0], failed: [] },
);
withBase(
  I,
  'variable-schema-proto-properties',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","default":"p"},"constructor":{"type":"string","default":"c"}}}') } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: {} }] })}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'labels-proto-keys',
  victimCluster({ cls: 'base' }).replace(
    'namespace: hostile}',
    'namespace: hostile, labels: {__proto__: x, constructor: y, prototype: z}, annotations: {__proto__: x}}',
  ),
  // Every invalid field at once, as the API server lists them: two keys Kubernetes refuses
  // (a label or annotation name starts with an alphanumeric character) and a value of the wrong type (`y` is YAML 1.1's true).
  {
    exit: [1],
    failed: ['hostile/victim'],
    stderr:
      'metadata.labels: Invalid value: "__proto__": name part must consist.*metadata.annotations: Invalid value: "__proto__".*metadata.labels.constructor: Invalid value: true: must be of type string',
  },
);
withBase(
  I,
  'topology-metadata-proto-keys',
  victimCluster({
    cls: 'base',
    topology:
      '    controlPlane:\n      metadata:\n        labels: {__proto__: polluted, constructor: c}\n        annotations: {prototype: p}\n',
  }),
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-path-proto',
  `${victimClass({
    patches: jsonPatch([
      { op: 'add', path: '/spec/template/__proto__/polluted', value: 'yes' },
      { op: 'add', path: '/__proto__/polluted', value: 'yes' },
    ]),
  })}---\n${victimCluster()}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-path-constructor-prototype',
  `${victimClass({ patches: jsonPatch([{ op: 'add', path: '/constructor/prototype/polluted', value: 'yes' }]) })}---\n${victimCluster()}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-replace-proto',
  `${victimClass({
    patches: jsonPatch([
      { op: 'replace', path: '/spec/__proto__', value: { polluted: 'yes' } },
      { op: 'remove', path: '/spec/constructor' },
    ]),
  })}---\n${victimCluster()}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-labels-proto',
  `${victimClass({
    patches: jsonPatch([
      { op: 'add', path: '/spec/template/metadata', value: {} },
      { op: 'add', path: '/spec/template/metadata/labels', value: {} },
      { op: 'add', path: '/spec/template/metadata/labels/__proto__', value: 'x' },
    ]),
  })}---\n${victimCluster()}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-valuefrom-variable-proto',
  `${victimClass({
    variables: [anyVar('data')],
    patches: jsonPatch([
      { op: 'add', path: '/spec/template/spec/v', valueFrom: { variable: 'data.__proto__' } },
      { op: 'add', path: '/spec/template/spec/w', valueFrom: { variable: 'builtin.constructor' } },
    ]),
  })}---\n${victimCluster({ variables: [{ name: 'data', value: { a: 1 } }] })}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-json-pointer-escapes',
  `${victimClass({
    patches: jsonPatch([
      { op: 'add', path: '/spec/template/spec/a~1b~0c', value: 1 },
      { op: 'add', path: '/spec/template/spec/~2', value: 1 },
    ]),
  })}---\n${victimCluster()}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-selector-proto',
  `${victimClass({ patches: [{ name: 'p', definitions: [{ selector: JSON.parse('{"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta2","kind":"DevClusterTemplate","matchResources":{"__proto__":{"infrastructureCluster":true}}}'), jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', value: 1 }] }] }] })}---\n${victimCluster()}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'patch-enabledif-proto',
  `${victimClass({ variables: [anyVar('data')], patches: [{ name: 'p', enabledIf: '{{ .data.__proto__ }}{{ .constructor }}', definitions: jsonPatch([{ op: 'add', path: '/spec/template/spec/x', value: 1 }])[0].definitions }] })}---\n${victimCluster({ variables: [{ name: 'data', value: { a: 1 } }] })}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'names-proto',
  `${victimClass({ name: '__proto__' })}---\n${victimCluster({ name: 'constructor', cls: '__proto__' })}---\n${victimCluster({ name: 'prototype', cls: 'hasOwnProperty' })}`,
  { exit: [0, 1], failed: [] },
);
withBase(I, 'namespace-proto', victimCluster({ cls: 'base' }).replace('namespace: hostile}', 'namespace: __proto__}'), {
  exit: [0, 1],
  failed: [],
});
withBase(I, 'cluster-name-path-traversal', victimCluster({ cls: 'base', name: '../../../../tmp/evil' }), {
  exit: [0, 1],
  failed: [],
});
withBase(
  I,
  'namespace-path-traversal',
  victimCluster({ cls: 'base' }).replace('namespace: hostile}', 'namespace: "../../.."}'),
  { exit: [0, 1], failed: [] },
);
add(I, 'namespace-path-traversal-with-class', base.replace(/namespace: hostile/g, 'namespace: "../../../tmp"'), {
  kind: 'stream',
  exit: [1],
  stderr: 'metadata.namespace.*RFC 1123',
  failed: ['../../../tmp/sibling-a', '../../../tmp/sibling-b'],
});
krm(
  I,
  'functionconfig-outputdir-traversal',
  rl(
    baseItems(),
    'functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, data: {outputDir: ../../../etc}}\n',
  ),
  { exit: [3], stderr: 'outputDir must stay inside' },
);
withBase(
  I,
  'template-in-variable-value',
  victimCluster({ cls: 'base', variables: [{ name: 'region', value: '{{ env "HOME" }}' }] }),
  { failed: ['hostile/victim'] },
);
withBase(I, 'template-injection-via-name', victimCluster({ cls: 'base', name: '{{ env "HOME" }}' }), {
  exit: [0, 1],
  failed: [],
});
withBase(
  I,
  'yaml-injection-in-value',
  victimCluster({ cls: 'base', variables: [{ name: 'region', value: 'x\n---\napiVersion: v1\nkind: Secret' }] }),
  { failed: ['hostile/victim'] },
);
withBase(
  I,
  'cel-proto-access',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: "has(self.__proto__) || self.constructor == 'x'" }] } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: { a: 1 } }] })}`,
  { exit: [0, 1], failed: [] },
);
withBase(
  I,
  'naming-template-env',
  victimClass({ extra: '' }).replace(
    '  controlPlane:\n',
    '  controlPlane:\n    naming: {template: "{{ env \\"HOME\\" }}"}\n',
  ) + `---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);

// ---------------------------------------------------------------- fault isolation
const F = 'isolation';
withBase(
  F,
  'bad-variable-value',
  victimCluster({ cls: 'base', variables: [{ name: 'region', value: 'NOT VALID!' }] }),
  { failed: ['hostile/victim'] },
);
withBase(F, 'undefined-variable', victimCluster({ cls: 'base', variables: [{ name: 'nope', value: 1 }] }), {
  failed: ['hostile/victim'],
});
withBase(F, 'variable-wrong-type', victimCluster({ cls: 'base', variables: [{ name: 'region', value: { a: 1 } }] }), {
  failed: ['hostile/victim'],
});
withBase(
  F,
  'failing-patch-replace-missing',
  `${victimClass({ patches: jsonPatch([{ op: 'replace', path: '/spec/template/spec/does/not/exist', value: 1 }]) })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'failing-patch-bad-op',
  `${victimClass({ patches: jsonPatch([{ op: 'explode', path: '/spec', value: 1 }]) })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'failing-patch-test-op',
  `${victimClass({ patches: jsonPatch([{ op: 'test', path: '/spec/template/spec/backend', value: 'nope' }]) })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'failing-patch-bad-path',
  `${victimClass({ patches: jsonPatch([{ op: 'add', path: 'no-leading-slash', value: 1 }]) })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'patch-array-index-huge',
  `${victimClass({
    patches: jsonPatch([
      { op: 'add', path: '/spec/template/spec/list', value: [] },
      { op: 'add', path: '/spec/template/spec/list/99999999', value: 1 },
    ]),
  })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'patch-missing-variable',
  `${victimClass({ patches: jsonPatch([{ op: 'add', path: '/spec/template/spec/x', valueFrom: { variable: 'nothing' } }]) })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(F, 'template-parse-error', `${victimClass({ patches: templatePatch('{{ if }}') })}---\n${victimCluster()}`, {
  failed: ['hostile/victim'],
});
withBase(
  F,
  'template-exec-error',
  `${victimClass({ patches: templatePatch('{{ index 1 2 }}') })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'template-fail-func',
  `${victimClass({ patches: templatePatch('{{ fail "boom" }}') })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(F, 'template-output-not-yaml', `${victimClass({ patches: templatePatch('{ [ : ') })}---\n${victimCluster()}`, {
  exit: [0, 1],
  failed: [],
});
withBase(
  F,
  'missing-template',
  `${victimClass().replace('name: base-cluster}', 'name: nowhere}')}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(F, 'missing-class', victimCluster({ cls: 'no-such-class' }), { failed: ['hostile/victim'] });
withBase(
  F,
  'external-patch',
  `${victimClass({ patches: [{ name: 'ext', external: { generatePatchesExtension: 'gen.example.com' } }] })}---\n${victimCluster()}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'duplicate-md-names',
  victimCluster({
    cls: 'base',
    topology:
      '    workers:\n      machineDeployments:\n      - {class: default, name: a}\n      - {class: default, name: a}\n',
  }),
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'unknown-md-class',
  victimCluster({ cls: 'base', topology: '    workers:\n      machineDeployments:\n      - {class: nope, name: a}\n' }),
  { failed: ['hostile/victim'] },
);
withBase(F, 'duplicate-cluster', `${victimCluster({ cls: 'base' })}---\n${victimCluster({ cls: 'base' })}`, {
  exit: [0, 1],
  failed: [],
});
withBase(
  F,
  'cel-rule-invalid',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.(' }] } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: 'x' }] })}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'schema-invalid',
  `${victimClass({ variables: [{ name: 'v', required: true, schema: { openAPIV3Schema: { type: 'frobnicate', minimum: 'x', pattern: '(' } } }] })}---\n${victimCluster({ variables: [{ name: 'v', value: 'x' }] })}`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'previous-output-kept-on-failure',
  `${victimCluster({ cls: 'no-such-class' })}---\napiVersion: infrastructure.cluster.x-k8s.io/v1beta2\nkind: DevCluster\nmetadata:\n  name: victim-old\n  namespace: hostile\n  annotations: {render-clusterclass.dev/cluster: hostile/victim}\n`,
  { failed: ['hostile/victim'] },
);
withBase(
  F,
  'v1beta1-cluster-on-v1beta2-class',
  victimCluster({ cls: 'base' })
    .replace('cluster.x-k8s.io/v1beta2', 'cluster.x-k8s.io/v1beta1')
    .replace(/classRef: .*/, 'class: base'),
  { exit: [0, 1], failed: [] },
);
withBase(
  F,
  'weird-durations',
  victimCluster({
    cls: 'base',
    topology:
      '    controlPlane:\n      deletion: {nodeDrainTimeoutSeconds: -1, nodeDeletionTimeoutSeconds: 1e308}\n      healthCheck: {checks: {nodeStartupTimeoutSeconds: "x"}}\n',
  }),
  {
    exit: [0, 1],
    failed: [],
    bug: 'negative/huge/non-numeric durations in the topology are accepted without an error (exit 0)',
  },
);
withBase(
  F,
  'many-failing-clusters',
  Array.from({ length: 50 }, (_, i) =>
    victimCluster({ cls: 'base', name: `bad-${i}`, variables: [{ name: 'region', value: 'BAD!' }] }),
  ).join('---\n'),
  { failed: Array.from({ length: 50 }, (_, i) => `hostile/bad-${i}`) },
);

// ---------------------------------------------------------------- huge (generated at test time)
const huge = [
  ['resource', 'huge-scalar-50mib', 'scalar50m', { exit: [1], stderr: 'too large' }],
  [
    'resource',
    'huge-200k-items',
    'items200k',
    { exit: [1], stderr: 'too large', env: { RENDER_CLUSTERCLASS_MAX_INPUT_BYTES: '4194304' } },
  ],
  ['resource', 'huge-200k-items-default-limit', 'items200k', { exit: [1], stderr: 'limit is 50000' }],
  ['resource', 'huge-60k-small-items', 'items60kCompact', { exit: [1], stderr: 'limit is 50000' }],
  ['resource', 'huge-10k-items-rendered', 'items10k', { exit: [0], rendered: SIBLINGS }],
  ['resource', 'huge-alias-per-item', 'aliasPerItem', { exit: [0], rendered: SIBLINGS }], // go-yaml accepts it (decode.go allowedAliasRatio)
  ['resource', 'huge-anchors-and-aliases', 'anchors50k', { exit: [0], rendered: SIBLINGS }], // go-yaml accepts it too
  ['resource', 'huge-50k-keys-map', 'keys50k', { exit: [0], rendered: SIBLINGS }],
  ['resource', 'huge-scalar-3mib-in-variable', 'variable4m', { exit: [0, 1], rendered: SIBLINGS }],
  ['resource', 'huge-deep-block-nesting', 'deepBlock', { exit: [1], stderr: 'nested too deeply' }],
  [
    'resource',
    'huge-deep-block-nesting-next-to-base',
    'deepBlockNextToBase',
    { exit: [1], stderr: 'nested too deeply.*line \\d+, column \\d+' },
  ],
  ['resource', 'huge-100k-aliases-of-a-scalar', 'aliases100k', { exit: [0], rendered: SIBLINGS }],
  // An object of more than 786,432 values can never be stored (etcd's 1.5 MiB at two bytes a value): refused before parsing (src/krm/oversized.ts).
  [
    'resource',
    'huge-million-element-patch-value',
    'patchValueMillionArray',
    {
      exit: [1],
      stderr: 'items\\[7\\] \\(line \\d+\\) holds more than 786432 values.*etcdserver: request is too large',
    },
  ],
  [
    'resource',
    'huge-million-element-variable',
    'variableMillionArray',
    { exit: [1], stderr: 'items\\[8\\] \\(line \\d+\\) holds more than 786432 values' },
  ],
  [
    'resource',
    'huge-stream-million-element-variable',
    'variableMillionArrayStream',
    { exit: [1], stderr: 'the document starting at line 4 holds more than 786432 values', kind: 'stream-huge' },
  ],
  // RE2 patterns over large values, 10,000 patches, a 20 MiB or 20,000-key function config: test/krm/io-contract.test.ts and the budget of `npm run fuzz`.
  [
    'resource',
    'huge-stream-file-scalar',
    'streamScalar20m',
    { exit: [1], stderr: 'too large', kind: 'stream-huge', env: { RENDER_CLUSTERCLASS_MAX_INPUT_BYTES: '4194304' } },
  ],
  [
    'resource',
    'huge-stream-file-scalar-40mib',
    'streamScalar40m',
    { exit: [1], stderr: 'too large', kind: 'stream-huge' },
  ],
];
for (const [category, name, generator, expect] of huge)
  cases.push({ id: `${category}-${name}`, category, generator, kind: 'krm', ...expect });

rmSync(casesDir, { recursive: true, force: true });
mkdirSync(casesDir, { recursive: true });
for (const [file, content] of files)
  writeFileSync(join(here, file), content, file.endsWith('.bin') ? 'latin1' : 'utf8');
writeFileSync(join(here, 'cases.json'), `${JSON.stringify(cases, null, 1)}\n`);
const counts = {};
for (const c of cases) counts[c.category] = (counts[c.category] ?? 0) + 1;
console.log(`${cases.length} cases`, counts);
