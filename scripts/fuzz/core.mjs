// Property-based fuzzing of the whole KRM function (issue #8): generated ClusterClasses, Clusters,
// patches, templates and junk, serialised as a ResourceList (sometimes corrupted), then checked
// against the invariants below. Shared by test/fuzz/fuzz.test.ts (CI sample, src/) and
// scripts/fuzz/run.mjs (long runs, dist/). Plain ESM so both can import it.
import YAML from 'yaml';

const CAPI = 'cluster.x-k8s.io/v1beta2';
const NS = 'fz';
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const TEMPLATES = [
  {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevClusterTemplate',
    name: 'infra',
    role: 'infrastructureCluster',
  },
  {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlaneTemplate',
    name: 'cp',
    role: 'controlPlane',
  },
  {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevMachineTemplate',
    name: 'machine',
    role: 'machineDeploymentClass',
  },
  {
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmConfigTemplate',
    name: 'boot',
    role: 'machineDeploymentClass',
  },
];
const TEMPLATE_SNIPPETS = [
  '{{ .builtin.cluster.name }}',
  '{{ .builtin.cluster.namespace | upper }}',
  '{{ .v0 }}',
  '{{ .v1 | toJson }}',
  '{{ if .v2 }}yes{{ else }}no{{ end }}',
  '{{ range $i, $e := until 3 }}{{ $i }}{{ end }}',
  '{{ printf "%05d" 42 }}',
  '{{ .__proto__ }}',
  '{{ .constructor }}',
  '{{ index . "__proto__" }}',
  '{{ env "HOME" }}',
  '{{ now }}',
  '{{ expandenv "$PATH" }}',
  '{{ getHostByName "x" }}',
  '{{ repeat 1000000000 "x" }}',
  '{{ range until 100000000 }}x{{ end }}',
  '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}',
  '{{ regexMatch "^(a+)+$" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" }}',
  '{{ fail "boom" }}',
  '{{ toYaml .builtin }}',
  '{{ .builtin.controlPlane.version }}',
  '{{ default "d" .missing }}',
  '{{ dict "__proto__" "x" | toJson }}',
  '{{ semverCompare ">=1.0.0" "1.2.3" }}',
  '{{',
  '}}',
  '{{ .v0 | b64enc | b64dec }}',
  'plain text',
  '- a\n- b',
  '{a: 1}',
  '',
  '{{ index .v1 0 }}',
  '{{ len .v1 }}',
  '{{ .builtin.machineDeployment.topologyName }}',
];
/** Values that double at every step (`append $x $x`): every walk over them must stop at its budget. */
const DOUBLING_SNIPPETS = [
  '{{ $x := list "a" }}{{ range until 100 }}{{ $x = append $x $x }}{{ end }}{{ toJson $x }}',
  '{{ $d := dict "a" "b" }}{{ range until 100 }}{{ $d = dict "l" $d "r" $d }}{{ end }}{{ $d }}',
  '{{ $x := list "a" }}{{ range until 100 }}{{ $x = append $x $x }}{{ end }}{{ deepCopy $x | len }}',
  '{{ $x := list "a" }}{{ range until 30 }}{{ $x = append $x $x }}{{ end }}{{ join "," $x }}',
];
/** Function configs an invalid input may carry (issue #13): each must give exit 3 with the items untouched. */
const BAD_FUNCTION_CONFIGS = [
  'not a map',
  ['mode', 'preview'],
  42,
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'fc' } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: ['mode=preview'] },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { mode: { nested: 'map' } } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { mode: null } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, spec: { mode: 'preview' } },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'fc' },
    data: JSON.parse('{"__proto__": "x", "constructor": "y"}'),
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'fc' },
    data: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v'])),
  },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { mode: 'x'.repeat(200_000) } },
  {
    apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
    kind: 'RenderClusterClass',
    metadata: { name: 'fc' },
    spec: { bogus: 1 },
  },
  {
    apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
    kind: 'RenderClusterClass',
    metadata: { name: 'fc' },
    spec: ['mode'],
  },
  { apiVersion: 'fn.render-clusterclass.dev/v1alpha1', kind: 'RenderClusterClass', metadata: 'oops', spec: {} },
];
const PATHS = [
  '/spec/template/spec/x',
  '/spec/template/spec/backend',
  '/spec/template/spec/a/b',
  '/spec/template/metadata/labels/l',
  '/spec/template/__proto__/polluted',
  '/__proto__/polluted',
  '/constructor/prototype/polluted',
  '/spec/template/spec/list/0',
  '/spec/template/spec/list/-',
  '/spec',
  '',
  'no-slash',
  '/spec/template/spec/a~1b',
  '/spec/template/spec/~2',
];

/** An object with own data properties only (so `__proto__` is a key, not the prototype). */
function obj(entries) {
  const o = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

export function arbitraries(fc) {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'name', 'value', 'x-y', 'k8s.io/z') },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
  const scalar = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom('us-east-1', 'eu-west-1', 'v1.33.1', '{{ .x }}', '', 'a'.repeat(40), 'yes', 'null', '~', '0x1F'),
  );
  const { json } = fc.letrec((tie) => ({
    json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('arr'), tie('map')),
    arr: fc.array(tie('json'), { maxLength: 3 }),
    map: fc.array(fc.tuple(key, tie('json')), { maxLength: 3 }).map(obj),
  }));
  const varName = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom('v0', 'v1', 'v2', 'region') },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_KEYS, 'builtin', '', 'a.b') },
  );
  const schema = fc.oneof(
    fc.record(
      {
        type: fc.constant('string'),
        pattern: fc.constantFrom(undefined, '^[a-z0-9-]+$', '^(a+)+$', '(', '^(a)\\1$'),
        maxLength: fc.constantFrom(undefined, 5, 64),
        enum: fc.constantFrom(undefined, ['a', 'b']),
        default: fc.constantFrom(undefined, 'a', 5),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('integer'),
        minimum: fc.constantFrom(undefined, 0, 10),
        maximum: fc.constantFrom(undefined, 100),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('boolean') }),
    fc.record({ type: fc.constant('object'), 'x-kubernetes-preserve-unknown-fields': fc.constant(true) }),
    fc.record(
      { type: fc.constant('array'), items: fc.constant({ type: 'string' }), maxItems: fc.constantFrom(undefined, 3) },
      { requiredKeys: ['type', 'items'] },
    ),
    fc.record({
      type: fc.constant('string'),
      'x-kubernetes-validations': fc.constantFrom(
        [{ rule: 'self.size() < 10' }],
        [{ rule: "self.matches('^(a+)+$')" }],
        [{ rule: 'self.(' }],
        [{ rule: 'has(self.__proto__)' }],
      ),
    }),
    json.map((j) => ({ type: 'frobnicate', junk: j })),
  );
  const variable = fc.record({
    name: varName,
    required: fc.boolean(),
    schema: schema.map((s) => ({ openAPIV3Schema: JSON.parse(JSON.stringify(s)) })),
  });
  const valueSource = fc.oneof(
    json.map((value) => ({ value })),
    fc
      .oneof(
        varName,
        fc.constantFrom(
          'builtin.cluster.name',
          'builtin.controlPlane.replicas',
          'v1.a',
          'v1.__proto__',
          'builtin.constructor',
        ),
      )
      .map((variable) => ({ valueFrom: { variable } })),
    fc
      .array(
        fc.oneof(
          { weight: 60, arbitrary: fc.constantFrom(...TEMPLATE_SNIPPETS) },
          { weight: 1, arbitrary: fc.constantFrom(...DOUBLING_SNIPPETS) },
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((t) => ({ valueFrom: { template: t.join('') } })),
  );
  const op = fc
    .tuple(fc.constantFrom('add', 'replace', 'remove', 'test', 'move', 'bogus'), fc.constantFrom(...PATHS), valueSource)
    .map(([o, path, v]) => ({ op: o, path, ...v }));
  const selector = fc.constantFrom(...TEMPLATES).chain((t) =>
    fc.constantFrom(
      { apiVersion: t.apiVersion, kind: t.kind, matchResources: { infrastructureCluster: true } },
      { apiVersion: t.apiVersion, kind: t.kind, matchResources: { controlPlane: true } },
      { apiVersion: t.apiVersion, kind: t.kind, matchResources: { machineDeploymentClass: { names: ['default'] } } },
      obj([
        ['apiVersion', t.apiVersion],
        ['kind', t.kind],
        ['matchResources', obj([['__proto__', { controlPlane: true }]])],
      ]),
    ),
  );
  const patch = fc.record(
    {
      name: fc.constantFrom('p0', 'p1', 'p2', '__proto__'),
      enabledIf: fc.constantFrom(undefined, '{{ .v2 }}', 'true', '{{ env "X" }}'),
      definitions: fc.array(fc.record({ selector, jsonPatches: fc.array(op, { minLength: 1, maxLength: 3 }) }), {
        minLength: 1,
        maxLength: 2,
      }),
      external: fc.constantFrom(undefined, undefined, undefined, { generatePatchesExtension: 'gen' }),
    },
    { requiredKeys: ['name'] },
  );
  const ref = (t) => ({ apiVersion: t.apiVersion, kind: t.kind, name: t.name });
  const clusterClass = fc
    .record({
      name: fc.constantFrom('c0', 'c1', '__proto__'),
      variables: fc.array(variable, { maxLength: 3 }),
      patches: fc.array(patch, { maxLength: 3 }),
      withMachineInfra: fc.boolean(),
      withWorkers: fc.boolean(),
      namingTemplate: fc.constantFrom(undefined, '{{ .cluster.name }}-cp-{{ .random }}', '{{ env "HOME" }}', '{{'),
    })
    .map((c) =>
      obj([
        ['apiVersion', CAPI],
        ['kind', 'ClusterClass'],
        ['metadata', { name: c.name, namespace: NS }],
        [
          'spec',
          obj([
            ['infrastructure', { templateRef: ref(TEMPLATES[0]) }],
            [
              'controlPlane',
              obj([
                ['templateRef', ref(TEMPLATES[1])],
                ...(c.withMachineInfra ? [['machineInfrastructure', { templateRef: ref(TEMPLATES[2]) }]] : []),
                ...(c.namingTemplate ? [['naming', { template: c.namingTemplate }]] : []),
              ]),
            ],
            ...(c.withWorkers
              ? [
                  [
                    'workers',
                    {
                      machineDeployments: [
                        {
                          class: 'default',
                          bootstrap: { templateRef: ref(TEMPLATES[3]) },
                          infrastructure: { templateRef: ref(TEMPLATES[2]) },
                        },
                      ],
                    },
                  ],
                ]
              : []),
            ['variables', c.variables],
            ['patches', JSON.parse(JSON.stringify(c.patches))],
          ]),
        ],
      ]),
    );
  const template = fc.constantFrom(...TEMPLATES).chain((t) =>
    fc
      .oneof({ weight: 4, arbitrary: fc.constant({ backend: { docker: {} } }) }, { weight: 1, arbitrary: json })
      .map((spec) => ({
        apiVersion: t.apiVersion,
        kind: t.kind,
        metadata: { name: t.name, namespace: NS },
        spec: { template: { spec } },
      })),
  );
  const cluster = fc
    .record({
      name: fc.constantFrom('a', 'b', 'c', 'd', '__proto__', 'x'.repeat(70)),
      cls: fc.constantFrom('c0', 'c1', '__proto__', 'missing'),
      version: fc.constantFrom('v1.33.1', '1.33.1', 'v1.34.0-rc.1', 'banana', 1.33),
      replicas: fc.constantFrom(undefined, 1, 3, -1, 'three'),
      mds: fc.array(
        fc.record(
          {
            class: fc.constantFrom('default', 'nope'),
            name: fc.constantFrom('md-0', 'md-1', 'md-0', '__proto__'),
            replicas: fc.constantFrom(undefined, 0, 2),
          },
          { requiredKeys: ['class', 'name'] },
        ),
        { maxLength: 3 },
      ),
      variables: fc.array(fc.record({ name: varName, value: json }), { maxLength: 4 }),
      labels: fc.array(fc.tuple(key, fc.string({ maxLength: 8 })), { maxLength: 3 }).map(obj),
      v1beta1: fc.boolean(),
    })
    .map((c) => {
      const topology = obj([
        ...(c.v1beta1 ? [['class', c.cls]] : [['classRef', { name: c.cls }]]),
        ['version', c.version],
        ['controlPlane', c.replicas === undefined ? {} : { replicas: c.replicas }],
        ['workers', { machineDeployments: c.mds }],
        ['variables', c.variables],
      ]);
      return obj([
        ['apiVersion', c.v1beta1 ? 'cluster.x-k8s.io/v1beta1' : CAPI],
        ['kind', 'Cluster'],
        [
          'metadata',
          obj([
            ['name', c.name],
            ['namespace', NS],
            ['labels', c.labels],
          ]),
        ],
        ['spec', { topology }],
      ]);
    });
  // Items that are not objects (null, scalars, lists) are malformed items next to good ones.
  const junk = fc.oneof(
    {
      weight: 3,
      arbitrary: json.map((data) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'junk' }, data })),
    },
    { weight: 1, arbitrary: json.filter((j) => j !== null && typeof j === 'object' && !Array.isArray(j)) },
    { weight: 1, arbitrary: fc.constantFrom(null, 42, 'text', true, ['a', 'b'], []) },
  );
  const functionConfig = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(
        undefined,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { mode: 'preview' } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { mode: 'validate' } },
        {
          apiVersion: 'fn.render-clusterclass.dev/v1alpha1',
          kind: 'RenderClusterClass',
          metadata: { name: 'fc' },
          spec: { mode: 'expand', keepClassInputs: true },
        },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_FUNCTION_CONFIGS) },
  );
  // JSON (compact, indented, indented with tabs) is YAML too: the function must answer it with a valid ResourceList.
  const format = fc.constantFrom('yaml', 'yaml', 'yaml', 'yaml', 'yaml', 'json', 'json-indented', 'json-tabs');
  const corruption = fc.oneof(
    { weight: 12, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate'), at: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('insert'),
        at: fc.nat(),
        text: fc.constantFrom(
          '\u0000',
          '\uFEFF',
          '\r\n',
          '*x',
          '&a ',
          ': :',
          '- ',
          '{',
          '"',
          '\t',
          '\uD800',
          '<<: *a\n',
        ),
      }),
    },
  );
  const input = fc.record({
    classes: fc.array(clusterClass, { maxLength: 2 }),
    templates: fc.array(template, { maxLength: 5 }),
    clusters: fc.array(cluster, { maxLength: 3 }),
    junk: fc.array(junk, { maxLength: 2 }),
    functionConfig,
    corruption,
    format,
    crlf: fc.boolean(),
    // 0: as generated (mostly invalid); 1 and 2: repaired so Clusters render (1 keeps the patches).
    sane: fc.constantFrom(0, 1, 1, 2, 2),
  });
  return { input };
}

/** Generated template snippets the ClusterClass webhook cannot parse: non-hermetic functions, `toYaml`, a bare `{{`. */
const UNPARSABLE_TEMPLATE = /\{\{ (env|now|expandenv|getHostByName|toYaml)\b|\{\{(?! )|\{\{$/;

/**
 * The generated patches the ClusterClass webhook accepts (topology-semantics §7.5, §8.1 rule 9),
 * so that a repaired class keeps patches (which may still fail at render time) and stays valid:
 * unique names, definitions without external, parsable templates, known variables, valid ops and
 * paths, selectors that match the class's templates.
 */
function webhookValidPatches(spec) {
  const variables = new Set((spec.variables ?? []).map((v) => v.name));
  const workers = Boolean(spec.workers);
  const machineInfra = Boolean(spec.controlPlane?.machineInfrastructure);
  const parses = (t) => !t || !UNPARSABLE_TEMPLATE.test(t);
  const selectorOk = (s) => {
    const own = (k) => Object.prototype.hasOwnProperty.call(s.matchResources, k);
    if (own('infrastructureCluster')) return s.kind === 'DevClusterTemplate';
    if (own('controlPlane'))
      return s.kind === 'KubeadmControlPlaneTemplate' || (machineInfra && s.kind === 'DevMachineTemplate');
    if (own('machineDeploymentClass'))
      return workers && (s.kind === 'DevMachineTemplate' || s.kind === 'KubeadmConfigTemplate');
    return false;
  };
  const opOk = (o) => {
    if (
      !['add', 'replace', 'remove'].includes(o.op) ||
      !o.path.startsWith('/spec') ||
      (o.op !== 'add' && /\/\d/.test(o.path))
    )
      return false;
    const v = o.valueFrom?.variable;
    return (
      parses(o.valueFrom?.template) &&
      (v === undefined ||
        ['builtin.cluster.name', 'builtin.controlPlane.replicas'].includes(v) ||
        variables.has(v.split(/[.[]/)[0]))
    );
  };
  return (spec.patches ?? []).flatMap((p, i) => {
    const definitions = (p.definitions ?? [])
      .filter((d) => selectorOk(d.selector))
      .map((d) => ({ ...d, jsonPatches: d.jsonPatches.filter(opOk) }))
      .filter((d) => d.jsonPatches.length > 0);
    if (definitions.length === 0) return [];
    return [{ name: `${p.name}-${i}`, ...(parses(p.enabledIf) ? { enabledIf: p.enabledIf } : {}), definitions }];
  });
}

/** Repairs a generated input so that its Clusters can render (their patches may still fail). */
function repair(input) {
  const classes = input.classes.length > 0 ? input.classes : [];
  const names = new Set(classes.map((c) => c.metadata.name));
  if (names.size === 0) return input;
  const classNames = [...names];
  const fixedClasses = classes.map((c) => {
    const spec = obj(Object.entries(c.spec));
    spec.variables = (spec.variables ?? [])
      .filter(
        (v) =>
          ['string', 'integer', 'boolean', 'object', 'array'].includes(v.schema?.openAPIV3Schema?.type) &&
          !v.schema.openAPIV3Schema.pattern?.startsWith('('),
      )
      .map((v) => ({ ...v, required: false }));
    spec.patches = input.sane === 2 ? [] : webhookValidPatches(spec);
    if (spec.controlPlane?.naming)
      spec.controlPlane = obj(Object.entries(spec.controlPlane).filter(([k]) => k !== 'naming'));
    return obj([...Object.entries(c).filter(([k]) => k !== 'spec'), ['spec', spec]]);
  });
  const templates = TEMPLATES.map(
    (t) =>
      input.templates.find((x) => x.kind === t.kind && x.metadata.name === t.name && input.sane === 1) ?? {
        apiVersion: t.apiVersion,
        kind: t.kind,
        metadata: { name: t.name, namespace: NS },
        spec: { template: { spec: { backend: { docker: {} } } } },
      },
  );
  const clusters = input.clusters.map((c, i) => {
    const t = c.spec.topology;
    const cls = classNames[i % classNames.length];
    const topology = obj([
      ...(c.apiVersion === CAPI ? [['classRef', { name: cls }]] : [['class', cls]]),
      ['version', 'v1.33.1'],
      ['controlPlane', { replicas: 1 }],
      [
        'workers',
        {
          machineDeployments: fixedClasses.find((x) => x.metadata.name === cls)?.spec.workers
            ? (t.workers?.machineDeployments ?? []).map((md, j) => ({ class: 'default', name: `md-${j}` }))
            : [],
        },
      ],
      ['variables', []],
    ]);
    const metadata = obj([
      ...Object.entries(c.metadata).filter(([k]) => k !== 'name'),
      ['name', `s${i}-${String(c.metadata.name).length % 7}`],
    ]);
    return obj([
      ...Object.entries(c).filter(([k]) => k !== 'spec' && k !== 'metadata'),
      ['metadata', metadata],
      ['spec', { topology }],
    ]);
  });
  const functionConfig = BAD_FUNCTION_CONFIGS.includes(input.functionConfig) ? undefined : input.functionConfig;
  const junk = input.junk.filter(
    (j) => j?.kind === 'ConfigMap' || j === null || typeof j !== 'object' || Array.isArray(j),
  );
  return { ...input, functionConfig, classes: fixedClasses, templates, clusters, junk, corruption: undefined };
}

/** The ResourceList text of a generated input. */
export function render(generated) {
  const input = generated.sane ? repair(generated) : generated;
  const items = [...input.classes, ...input.templates, ...input.clusters, ...input.junk];
  const rl = { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items };
  if (input.functionConfig !== undefined) rl.functionConfig = input.functionConfig;
  const indent = { json: undefined, 'json-indented': 2, 'json-tabs': '\t' }[input.format];
  let text =
    input.format === 'yaml'
      ? YAML.stringify(rl, { version: '1.1', aliasDuplicateObjects: false, lineWidth: 0 })
      : JSON.stringify(rl, null, indent);
  const c = input.corruption;
  if (c?.kind === 'truncate') text = text.slice(0, c.at % (text.length + 1));
  if (c?.kind === 'insert') {
    const at = c.at % (text.length + 1);
    text = text.slice(0, at) + c.text + text.slice(at);
  }
  if (input.crlf) text = text.replace(/\n/g, '\r\n');
  return text;
}

const PARSE = {
  version: '1.1',
  uniqueKeys: false,
  customTags: (t) => t.filter((x) => x.tag !== 'tag:yaml.org,2002:timestamp'),
};
const OWNER = 'render-clusterclass.dev/cluster';

const isNullNode = (n) => n === undefined || n === null || (YAML.isScalar(n) && n.value === null);

/**
 * One item of a ResourceList, read from its YAML node so that an echoed alias bomb is never
 * expanded: a KRM object is its apiVersion/kind/namespace/name, anything else its content.
 */
function itemInfo(node, doc) {
  const str = (v) => (typeof v === 'string' && v !== '' ? v : undefined);
  const field = (map, key) => (YAML.isMap(map) ? map.get(key, true) : undefined);
  const text = (n) => str(YAML.isScalar(n) ? n.value : undefined);
  const meta = field(node, 'metadata');
  const owner = text(field(field(meta, 'annotations'), OWNER));
  const [apiVersion, kind, name] = [
    text(field(node, 'apiVersion')),
    text(field(node, 'kind')),
    text(field(meta, 'name')),
  ];
  if (apiVersion && kind && name)
    return { identity: `${apiVersion}|${kind}|${text(field(meta, 'namespace')) ?? ''}|${name}`, owner };
  try {
    return {
      identity: `content:${JSON.stringify(YAML.isNode(node) ? node.toJS(doc, { maxAliasCount: 100 }) : node)}`,
      owner,
    };
  } catch {
    return { identity: 'unreadable', owner };
  }
}

/**
 * The items (identities, and the earlier-output owner annotation) and results of a ResourceList
 * text, or undefined when the text is not a readable ResourceList.
 */
export function listItems(text) {
  let doc;
  try {
    doc = YAML.parseDocument(text.replace(/^\uFEFF/, ''), PARSE);
  } catch {
    return undefined;
  }
  if (doc.errors.length > 0 || !YAML.isMap(doc.contents) || doc.contents.get('kind') !== 'ResourceList')
    return undefined;
  const items = doc.contents.get('items', true);
  if (!isNullNode(items) && !YAML.isSeq(items)) return undefined;
  const results = doc.contents.get('results', true);
  return {
    items: YAML.isSeq(items) ? items.items.map((n) => itemInfo(n, doc)) : [],
    results: YAML.isSeq(results) ? results.toJS(doc) : [],
  };
}

/**
 * The documents of a YAML stream that `render` reads as ResourceList items (undefined when the
 * stream does not parse). Documents that are not Kubernetes objects — no kind and no metadata (Helm
 * values, docs), or a kustomize config — are skipped by `render`, as directories need.
 */
export function streamItems(text) {
  const scalar = (map, key) => (YAML.isMap(map) ? map.get(key) : undefined);
  const kubernetesObject = (node) => {
    const [apiVersion, kind] = [scalar(node, 'apiVersion'), scalar(node, 'kind')];
    return (
      !YAML.isMap(node) ||
      (!(typeof apiVersion === 'string' && apiVersion.startsWith('kustomize.config.k8s.io/')) &&
        (kind !== undefined || node.has('metadata')))
    );
  };
  try {
    const docs = YAML.parseAllDocuments(text.replace(/^\uFEFF/, ''), PARSE);
    if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return undefined;
    return {
      items: docs
        .filter((d) => !isNullNode(d.contents) && kubernetesObject(d.contents))
        .map((d) => itemInfo(d.contents, d)),
      results: [],
    };
  } catch {
    return undefined;
  }
}

/** Input items missing from an output (earlier outputs of this function excepted: they may be replaced). */
export function lostItems(input, output) {
  const have = new Map();
  for (const { identity } of output.items) have.set(identity, (have.get(identity) ?? 0) + 1);
  const lost = [];
  for (const { identity, owner } of input.items) {
    if (owner !== undefined) continue;
    if (!have.get(identity)) lost.push(identity);
    else have.set(identity, have.get(identity) - 1);
  }
  return lost;
}

/** Problems of results: severity, message, resourceRef, internal errors. */
export function resultProblems(results) {
  const problems = [];
  for (const r of results) {
    if (!['error', 'warning', 'info'].includes(r?.severity))
      problems.push(`bad severity ${JSON.stringify(r?.severity)}`);
    if (typeof r?.message !== 'string' || r.message.length === 0)
      problems.push(`empty message in ${JSON.stringify(r).slice(0, 200)}`);
    if (r?.resourceRef !== undefined) {
      for (const k of ['apiVersion', 'kind', 'name'])
        if (typeof r.resourceRef?.[k] !== 'string' || !r.resourceRef[k])
          problems.push(`resourceRef.${k} missing in ${JSON.stringify(r).slice(0, 300)}`);
    }
    if (r?.tags?.rule === 'internal') problems.push(`internal error result: ${r.message}`);
  }
  return problems;
}

/** The items of a ResourceList as plain values (for comparing two outputs). */
function itemValues(text) {
  try {
    const doc = YAML.parseDocument(text.replace(/^\uFEFF/, ''), PARSE);
    if (doc.errors.length > 0) return undefined;
    const v = doc.toJS({ maxAliasCount: 1000 });
    return Array.isArray(v?.items) ? v.items : v?.items == null ? [] : undefined;
  } catch {
    return undefined;
  }
}

async function run(runFunction, stdin) {
  const io = {
    out: '',
    err: '',
    readStdin: async () => stdin,
    stdout(t) {
      io.out += t;
    },
    stderr(t) {
      io.err += t;
    },
  };
  let code;
  try {
    code = await runFunction(io);
  } catch (e) {
    return { threw: e, out: io.out, err: io.err };
  }
  return { code, out: io.out, err: io.err };
}

const protoSnapshot = () =>
  [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');

/**
 * The exit-code contract (README "Exit codes"): 0 ok, 1 error results or unreadable input, 3
 * invalid function config; 2 (an internal failure) is always a violation. Any ResourceList
 * written holds every input item; nothing written means input unreadable as a whole, told in
 * one line on stderr.
 */
export function contractProblems(code, out, err, input) {
  if (![0, 1, 3].includes(code)) return [`exit code ${code}: ${err.slice(0, 300)}`];
  if (out === '')
    return code === 1 && /^render-clusterclass: [^\n]+\n$/.test(err)
      ? []
      : [`exit ${code} without a ResourceList, stderr: ${err.slice(0, 300)}`];
  const output = listItems(out);
  if (!output) return [`output is not a ResourceList: ${out.slice(0, 300)}`];
  const problems = input ? lostItems(input, output).map((id) => `input item lost: ${id.slice(0, 200)}`) : [];
  problems.push(...resultProblems(output.results));
  const errors = output.results.filter((r) => r?.severity === 'error');
  if (code === 3 && !errors.some((r) => r.tags?.rule === 'function-config'))
    problems.push('exit 3 without a function-config error result');
  if (code === 0 && errors.length > 0) problems.push(`exit 0 with error results: ${errors[0].message}`);
  return problems;
}

/**
 * Runs one input through the KRM function and returns the invariant violations (empty = fine):
 * no exception, the exit-code contract, byte-identical second run, every input item in the
 * output, well-formed results, re-render of the output yields the same items, no prototype change.
 */
export async function checkInput(runFunction, text) {
  const violations = [];
  const before = protoSnapshot();
  const a = await run(runFunction, text);
  if (a.threw) return [`exception escaped: ${a.threw?.stack ?? a.threw}`];
  if (/^\s{4}at /m.test(a.err)) violations.push(`stack trace on stderr: ${a.err.slice(0, 500)}`);
  const b = await run(runFunction, text);
  if (b.threw || b.code !== a.code || b.out !== a.out || b.err !== a.err)
    violations.push('not deterministic: a second run differs');
  if (protoSnapshot() !== before || {}.polluted !== undefined) violations.push('prototype pollution');
  violations.push(...contractProblems(a.code, a.out, a.err, listItems(text)));
  if (violations.length > 0 || (a.code !== 0 && a.code !== 1) || a.out === '') return violations;
  const c = await run(runFunction, a.out);
  if (c.threw) violations.push(`re-render threw: ${c.threw}`);
  else if (c.code !== 0 && c.code !== 1) violations.push(`re-render exit code ${c.code}: ${c.err.slice(0, 300)}`);
  else if (JSON.stringify(itemValues(c.out)) !== JSON.stringify(itemValues(a.out)))
    violations.push('re-render of the output changed the items');
  return violations;
}
