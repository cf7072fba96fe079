// Generators of the huge hostile cases (too big to commit): each returns the text of the case.
// Named by `generator` in cases.json; the test builds them at run time.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const RL = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';

/** The base fixture as ResourceList items (text). */
export function baseItems() {
  return readFileSync(join(here, 'base.yaml'), 'utf8')
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

const INFRA = {
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DevClusterTemplate',
  matchResources: { infrastructureCluster: true },
};

/** A class "victim-class" on the base templates with these variables and patches, and its Cluster "victim" (items, JSON flow style). */
function victimItems(variables, patches, clusterVariables = []) {
  const cls = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'ClusterClass',
    metadata: { name: 'victim-class', namespace: 'hostile' },
    spec: {
      infrastructure: { templateRef: { apiVersion: INFRA.apiVersion, kind: INFRA.kind, name: 'base-cluster' } },
      controlPlane: {
        templateRef: {
          apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
          kind: 'KubeadmControlPlaneTemplate',
          name: 'base-cp',
        },
      },
      ...(variables.length > 0 ? { variables } : {}),
      ...(patches.length > 0 ? { patches } : {}),
    },
  };
  const cluster = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'victim', namespace: 'hostile' },
    spec: { topology: { classRef: { name: 'victim-class' }, version: 'v1.33.1', variables: clusterVariables } },
  };
  return `- ${JSON.stringify(cls)}\n- ${JSON.stringify(cluster)}`;
}

const cm = (name, data) =>
  `- {apiVersion: v1, kind: ConfigMap, metadata: {name: ${name}, namespace: hostile}${data ? `, data: ${data}` : ''}}`;

export const generators = {
  /** One 50 MiB scalar. */
  scalar50m: () => `${RL}${baseItems()}\n${cm('giant', `{x: "${'x'.repeat(50 * 1024 * 1024)}"}`)}\n`,
  /** 200,000 items. */
  items200k: () => {
    const parts = [RL, baseItems(), '\n'];
    for (let i = 0; i < 200_000; i++) parts.push(cm(`cm-${i}`), '\n');
    return parts.join('');
  },
  /** 60,000 minimal items, small enough for the byte limit: the item limit must stop them. */
  items60kCompact: () => {
    const parts = [RL];
    for (let i = 0; i < 60_000; i++) parts.push(`- {apiVersion: v1, kind: C, metadata: {name: c${i}}}\n`);
    return parts.join('');
  },
  /** 10,000 pass-through items next to the base fixture: renders, every item kept. */
  items10k: () => {
    const parts = [RL, baseItems(), '\n'];
    for (let i = 0; i < 10_000; i++) parts.push(cm(`cm-${i}`, `{k: v${i}}`), '\n');
    return parts.join('');
  },
  /** 2,000 items, each aliasing one anchor (quadratic in the YAML library's own alias resolution). */
  aliasPerItem: () => {
    const parts = [RL, baseItems(), '\n', cm('anchor', '{x: &v hello}'), '\n'];
    for (let i = 0; i < 2_000; i++) parts.push(cm(`a-${i}`, '{x: *v}'), '\n');
    return parts.join('');
  },
  /** 50,000 distinct anchors, each aliased once, in one map. */
  anchors50k: () => {
    const parts = [
      RL,
      baseItems(),
      '\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: anchors, namespace: hostile}\n  data:\n',
    ];
    for (let i = 0; i < 50_000; i++) parts.push(`    k${i}: &a${i} v\n`);
    for (let i = 0; i < 50_000; i++) parts.push(`    r${i}: *a${i}\n`);
    return parts.join('');
  },
  /** One map with 50,000 keys (quadratic duplicate-key check in the YAML library: minutes). */
  keys50k: () => {
    const parts = [
      RL,
      baseItems(),
      '\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: wide, namespace: hostile}\n  data:\n',
    ];
    for (let i = 0; i < 50_000; i++) parts.push(`    k${i}: v\n`);
    return parts.join('');
  },
  /** A 3 MiB variable value copied into a template by a patch (within the input limit). */
  variable4m: () =>
    `${RL}${baseItems()}\n- apiVersion: cluster.x-k8s.io/v1beta2\n  kind: Cluster\n  metadata: {name: big-var, namespace: hostile}\n  spec:\n    topology:\n      classRef: {name: base}\n      version: v1.33.1\n      variables:\n      - {name: region, value: x}\n      - name: extra\n        value: {blob: "${'y'.repeat(3 * 1024 * 1024)}"}\n`,
  /** Block-style nesting 2,000 levels deep. */
  deepBlock: () => {
    const parts = [RL, '- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: deep}\n  data:\n'];
    for (let i = 0; i < 2_000; i++) parts.push(`${' '.repeat(4 + i)}k:\n`);
    parts.push(`${' '.repeat(4 + 2_000)}v\n`);
    return parts.join('');
  },
  /** Block-style nesting 2,000 levels deep in an unrelated item next to the base fixture. */
  deepBlockNextToBase: () => {
    const parts = [
      RL,
      baseItems(),
      '\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: deep, namespace: hostile}\n  data:\n',
    ];
    for (let i = 0; i < 2_000; i++) parts.push(`${' '.repeat(4 + i)}k:\n`);
    parts.push(`${' '.repeat(4 + 2_000)}v\n`);
    return parts.join('');
  },
  /** 100,000 aliases of one short scalar: harmless, go-yaml accepts it (alias share under 99%). */
  aliases100k: () => {
    const parts = [
      RL,
      baseItems(),
      '\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: aliases, namespace: hostile}\n  data: {k: &v short}\n  list:\n',
    ];
    for (let i = 0; i < 100_000; i++) parts.push('  - *v\n');
    return parts.join('');
  },
  /** RE2 patterns (a variable's `pattern`, `items.pattern`, `additionalProperties.pattern`) over 200 values of 5,000 characters that fail them. */
  re2Patterns: () => {
    const pattern = '^[a-z0-9]{1,1000}$';
    const values = Array.from(
      { length: 200 },
      (_, i) => `${'a'.repeat(100)}-${'b'.repeat(4889)}${String(i).padStart(10, '0')}`,
    );
    const variables = [
      { name: 's', required: false, schema: { openAPIV3Schema: { type: 'string', pattern } } },
      {
        name: 'arr',
        required: false,
        schema: { openAPIV3Schema: { type: 'array', items: { type: 'string', pattern } } },
      },
      {
        name: 'm',
        required: false,
        schema: { openAPIV3Schema: { type: 'object', additionalProperties: { type: 'string', pattern } } },
      },
    ];
    const set = [
      { name: 's', value: values[0] },
      { name: 'arr', value: values },
      { name: 'm', value: Object.fromEntries(values.map((v, i) => [`k${i}`, v])) },
    ];
    return `${RL}${baseItems()}\n${victimItems(variables, [], set)}`;
  },
  /** One definition with 10,000 jsonPatches (the CRD allows 100). */
  jsonPatches10k: () =>
    `${RL}${baseItems()}\n${victimItems([], [{ name: 'p', definitions: [{ selector: INFRA, jsonPatches: Array.from({ length: 10_000 }, (_, i) => ({ op: 'add', path: `/spec/template/spec/x${i}`, value: i })) }] }])}`,
  /** 10,000 inline patches (the CRD allows 1,000). */
  inlinePatches10k: () =>
    `${RL}${baseItems()}\n${victimItems(
      [],
      Array.from({ length: 10_000 }, (_, i) => ({
        name: `p${i}`,
        definitions: [{ selector: INFRA, jsonPatches: [{ op: 'add', path: `/spec/template/spec/x${i}`, value: i }] }],
      })),
    )}`,
  /** A Go template whose value doubles a hundred times (`append $x $x`), then `toJson`: stopped by the value budget. */
  templateDoubling: () => {
    const template = '{{ $x := list "a" }}{{ range until 100 }}{{ $x = append $x $x }}{{ end }}{{ toJson $x }}';
    return `${RL}${baseItems()}\n${victimItems([], [{ name: 'double', definitions: [{ selector: INFRA, jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', valueFrom: { template } }] }] }])}`;
  },
  /** A patch whose value is a 1,000,000-element array (a few MiB of JSON). */
  patchValueMillionArray: () =>
    `${RL}${baseItems()}\n${victimItems([], [{ name: 'huge', definitions: [{ selector: INFRA, jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', value: Array.from({ length: 1_000_000 }, (_, i) => i) }] }] }])}`,
  /** A Cluster variable holding a 1,000,000-element array, which a patch copies into a template. */
  variableMillionArray: () =>
    `${RL}${baseItems()}\n${victimItems(
      [{ name: 'arr', required: false, schema: { openAPIV3Schema: { type: 'array', items: { type: 'integer' } } } }],
      [
        {
          name: 'copy',
          definitions: [
            {
              selector: INFRA,
              jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', valueFrom: { variable: 'arr' } }],
            },
          ],
        },
      ],
      [{ name: 'arr', value: Array.from({ length: 1_000_000 }, (_, i) => i) }],
    )}`,
  /** For `render FILE`: a Cluster, after a ConfigMap, whose variable is a 1,000,000-element array in block style. */
  variableMillionArrayStream: () =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: small, namespace: hostile}\n---\napiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata: {name: victim, namespace: hostile}\nspec:\n  topology:\n    classRef: {name: base}\n    version: v1.33.1\n    variables:\n    - name: arr\n      value:\n${Array.from({ length: 1_000_000 }, (_, i) => `      - ${i}\n`).join('')}`,
  /** Billion laughs (9 levels of 9 aliases) in one item. */
  aliasBomb: () => {
    let item =
      '- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: lol, namespace: hostile}\n  data:\n    a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++)
      item += `    a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]\n`;
    return `${RL}${baseItems()}\n${item}`;
  },
  /** The base fixture and 10,000 pass-through ConfigMaps as one indented JSON ResourceList. */
  items10kJson: () => {
    const items = readFileSync(join(here, 'base.yaml'), 'utf8')
      .split(/^---$/m)
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => YAML.parse(d));
    for (let i = 0; i < 10_000; i++)
      items.push({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: 'hostile' },
        data: { k: `v${i}` },
      });
    return JSON.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items }, null, 2);
  },
  /** A function config with a 20 MiB value. */
  functionConfig20m: () =>
    `${RL}${baseItems()}\nfunctionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fc}, data: {mode: "${'x'.repeat(20 * 1024 * 1024)}"}}\n`,
  /** A function config with 20,000 unknown keys. */
  functionConfig20kKeys: () =>
    `${RL}${baseItems()}\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data:\n${Array.from({ length: 20_000 }, (_, i) => `    k${i}: v\n`).join('')}`,
  /** A 40 MiB file for `render FILE` (over the 32 MiB default input limit). */
  streamScalar40m: () =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: giant}\ndata: {x: "${'x'.repeat(40 * 1024 * 1024)}"}\n`,
  /** A large file for `render FILE` (run with a lower RENDER_CLUSTERCLASS_MAX_INPUT_BYTES). */
  streamScalar20m: () =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: giant}\ndata: {x: "${'x'.repeat(40 * 1024 * 1024)}"}\n`,
};
