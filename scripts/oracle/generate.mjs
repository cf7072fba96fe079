// Seeded generator of ClusterClass/Cluster cases for the CAPI differential campaign. A case is a
// namespace (`c<index>`) holding one ClusterClass (v1beta1 or v1beta2 shape), its templates and
// one or two Clusters, sometimes with a previous state they update, sometimes broken on purpose
// against one webhook rule. Every case of a seed is the same on every machine (scripts/prng.mjs).
//
// Covered: templates of each control-plane contract (v1beta1 and v1beta2 kinds), with and without
// control-plane machines; variables with every schema construct (types, enum, pattern, format,
// bounds, lengths, items, properties, required, additionalProperties, preserve-unknown-fields,
// int-or-string, defaults, CEL rules with messages); inline patches with each selector kind,
// enabledIf, literal values, valueFrom variables with nested and array paths, Go templates with
// builtins; MachineDeployment and MachinePool topologies; health checks; metadata; naming
// templates; versions with build metadata or without `v`; per-topology variable overrides.
import { prng } from '../prng.mjs';

const INFRA = 'infrastructure.cluster.x-k8s.io';
const CP = 'controlplane.cluster.x-k8s.io';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io';

/** The template kinds cases use, each with the kind it creates and its CAPI contract. */
export const KINDS = {
  infraCluster: { group: INFRA, version: 'v1beta2', kind: 'GenClusterTemplate', creates: 'GenCluster', contract: 'v1beta2' },
  controlPlane: { group: CP, version: 'v1beta2', kind: 'GenControlPlaneTemplate', creates: 'GenControlPlane', contract: 'v1beta2' },
  legacyControlPlane: { group: CP, version: 'v1beta1', kind: 'GenLegacyControlPlaneTemplate', creates: 'GenLegacyControlPlane', contract: 'v1beta1' },
  machine: { group: INFRA, version: 'v1beta2', kind: 'GenMachineTemplate', creates: 'GenMachine', contract: 'v1beta2' },
  machinePool: { group: INFRA, version: 'v1beta2', kind: 'GenMachinePoolTemplate', creates: 'GenMachinePool', contract: 'v1beta2' },
  bootstrap: { group: BOOTSTRAP, version: 'v1beta2', kind: 'GenConfigTemplate', creates: 'GenConfig', contract: 'v1beta2' },
};

const plural = (kind) => `${kind.toLowerCase()}s`;

/** The CRDs of the generated kinds: typed fields with defaults and bounds, the rest preserved. */
export function generatedCrds() {
  const typed = {
    region: { type: 'string', default: 'region-a' },
    size: { type: 'integer', minimum: 1, maximum: 64 },
    mode: { type: 'string', enum: ['fast', 'safe'] },
    tags: { type: 'object', additionalProperties: { type: 'string' } },
    numbers: { type: 'object', properties: NUMBER_FIELDS },
  };
  const spec = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: typed };
  const meta = { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } }, annotations: { type: 'object', additionalProperties: { type: 'string' } } } };
  const crd = (group, version, kind, contract, specSchema) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural(kind)}.${group}`, labels: { [`cluster.x-k8s.io/${contract}`]: version } },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural: plural(kind), singular: kind.toLowerCase() },
      versions: [{ name: version, served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
    },
  });
  const out = [];
  for (const k of Object.values(KINDS)) {
    out.push(crd(k.group, k.version, k.kind, k.contract, { type: 'object', properties: { template: { type: 'object', properties: { metadata: meta, spec } } }, required: ['template'] }));
    out.push(crd(k.group, k.version, k.creates, k.contract, spec));
  }
  return out;
}

/** Integers beyond ±2^53 within int64 (the extremes, neighbours of 2^53), and uint64s beyond int64. */
const BIG_INT64S = [9223372036854775807n, -9223372036854775808n, 9223372036854775806n, 9007199254740993n, -9007199254740993n, 1152921504606846977n];
const BIG_UINT64S = [9223372036854775808n, 18446744073709551615n];

/**
 * Numeric fields whose bounds kube-openapi compares in ways JSON Schema does not: fractional
 * bounds and factors (truncated to int64 for an int64 value), a float32 format, bounds beyond
 * ±2^53 and at 2^63 (out of int64).
 */
const NUMBER_FIELDS = {
  ratio: { type: 'number', minimum: 0.5, maximum: 2.5, exclusiveMaximum: true, multipleOf: 0.5 },
  step: { type: 'integer', minimum: -0.5, multipleOf: 2.5 },
  weight: { type: 'number', format: 'float', multipleOf: 0.1, maximum: 3.4e38 },
  count: { type: 'integer', format: 'int32', minimum: -9007199254740993n, maximum: 9007199254740993n },
  wide: { type: 'integer', maximum: 9223372036854775807n, exclusiveMinimum: true, minimum: 0 },
};
const NUMBER_VALUES = [0, 1, 2, 3, 5, -1, 0.5, 1.5, 2.5, 0.3, 0.7, 1e39, 9007199254740993n, 9223372036854775807n, -9223372036854775808n, 18446744073709551615n];

/** A small random toolbox over one case's PRNG. */
function toolbox(seed, index) {
  const next = prng((Math.imul(seed >>> 0, 2654435761) ^ Math.imul(index + 1, 40503)) >>> 0);
  const t = {
    next,
    chance: (p) => next() < p,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    some: (xs, max = xs.length) => xs.filter(() => next() < 0.5).slice(0, max),
    word: () => t.pick(['alpha', 'beta', 'gamma', 'delta', 'eu-west', 'us-east', 'yes', 'on', '0x1F', '1e3', 'null', 'true']),
    /** An integer beyond ±2^53: an int64, or a uint64 the API server reads as a float64. */
    big: () => t.pick([...BIG_INT64S, ...BIG_UINT64S]),
  };
  return t;
}

// --- variables ----------------------------------------------------------------------------------

/** A variable schema with generators of valid and invalid values. */
function schemaOf(t, depth = 0) {
  const kind = t.pick(depth > 1 ? ['string', 'integer', 'number', 'boolean', 'intOrString'] : ['string', 'string', 'integer', 'number', 'boolean', 'intOrString', 'array', 'object', 'map', 'any']);
  switch (kind) {
    case 'string': {
      const s = { type: 'string' };
      const variant = t.pick(['plain', 'enum', 'pattern', 'length', 'format', 'cel']);
      let valid = () => t.pick(['abc', 'region-b', 'x', 'hello-world']);
      let invalid;
      if (variant === 'enum') {
        s.enum = ['small', 'medium', 'large'];
        valid = () => t.pick(s.enum);
        invalid = () => 'huge';
      } else if (variant === 'pattern') {
        s.pattern = '^[a-z]+(-[a-z0-9]+)*$';
        valid = () => t.pick(['abc', 'eu-west1']);
        invalid = () => 'Not Valid';
      } else if (variant === 'length') {
        s.minLength = 2;
        s.maxLength = 8;
        valid = () => t.pick(['ab', 'abcdefgh']);
        invalid = () => t.pick(['a', 'abcdefghijk']);
      } else if (variant === 'format') {
        s.format = t.pick(['ipv4', 'uri', 'date-time']);
        valid = () => ({ ipv4: '10.0.0.1', uri: 'https://example.com/x', 'date-time': '2026-01-02T03:04:05Z' })[s.format];
        invalid = () => 'not a value:';
      } else if (variant === 'cel') {
        s['x-kubernetes-validations'] = [t.chance(0.5) ? { rule: 'self.size() <= 6', message: 'at most 6 characters' } : { rule: "self.startsWith('v')", messageExpression: "'must start with v, not ' + self" }];
        // A messageExpression over an unbounded string exceeds CEL's cost budget: bound it.
        if (s['x-kubernetes-validations'][0].messageExpression) s.maxLength = 16;
        valid = () => (s['x-kubernetes-validations'][0].rule.includes('size') ? 'abc' : 'vx');
        invalid = () => 'toolong-value';
      }
      if (t.chance(0.4)) s.default = valid();
      return { schema: s, valid, invalid };
    }
    case 'integer': {
      const s = { type: 'integer' };
      let valid = () => t.int(0, 100);
      let invalid = () => 'not-a-number';
      if (t.chance(0.5)) {
        s.minimum = 1;
        s.maximum = 10;
        valid = () => t.int(1, 10);
        invalid = () => t.pick([0, 11, 2.5]);
      }
      if (t.chance(0.3)) {
        s['x-kubernetes-validations'] = [{ rule: 'self % 2 == 0', message: 'must be even' }];
        valid = () => 2 * t.int(1, 5);
        invalid = () => 3;
      } else if (s.minimum === undefined && t.chance(0.3)) {
        // int64s beyond ±2^53 that CAPI's float64 round trip of variable values keeps within int64;
        // those it takes beyond (2^63 - 1 becomes 2^63, -2^63 is written as -9223372036854776000)
        // and uint64s are floats, which a typed integer refuses.
        if (t.chance(0.3)) s.format = 'int64';
        valid = () => t.pick(BIG_INT64S.filter((n) => n < 2n ** 63n - 512n && n > -(2n ** 63n)));
        invalid = () => t.pick([9223372036854775807n, -9223372036854775808n, ...BIG_UINT64S]);
      }
      if (t.chance(0.4)) s.default = valid();
      return { schema: s, valid, invalid };
    }
    case 'number': {
      // CAPI's JSONSchemaProps bounds are int64 (a fractional bound is refused).
      const s = { type: 'number', minimum: 1 };
      if (t.chance(0.3)) s.exclusiveMinimum = true;
      const valid = () => (t.chance(0.2) ? t.pick([...BIG_INT64S, ...BIG_UINT64S].filter((n) => n > 0n)) : t.pick([1.5, 2, 3.25]));
      if (t.chance(0.4)) s.default = valid();
      return { schema: s, valid, invalid: () => t.pick([0.5, 'x']) };
    }
    case 'boolean': {
      const s = { type: 'boolean' };
      if (t.chance(0.4)) s.default = t.chance(0.5);
      return { schema: s, valid: () => t.chance(0.5), invalid: () => 'yes' };
    }
    case 'intOrString': {
      const s = { 'x-kubernetes-int-or-string': true };
      if (t.chance(0.5)) s.anyOf = [{ type: 'integer' }, { type: 'string' }];
      const valid = () => t.pick([3, '25%', 'abc']);
      if (t.chance(0.4)) s.default = valid();
      return { schema: s, valid, invalid: () => t.pick([true, 1.5, { a: 1 }]) };
    }
    case 'array': {
      const item = t.chance(0.7) ? schemaOf(t, 2) : objectSchema(t, depth + 1);
      const s = { type: 'array', items: item.schema };
      if (t.chance(0.4)) s.maxItems = 3;
      if (t.chance(0.3)) s.minItems = 1;
      if (t.chance(0.3) && ['string', 'integer'].includes(item.schema.type) && !item.schema['x-kubernetes-validations']) s.uniqueItems = true;
      const valid = () => {
        const n = Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, t.int(0, 3)));
        const out = [];
        for (let i = 0; i < n; i++) out.push(item.valid());
        return s.uniqueItems ? [...new Set(out)] : out;
      };
      if (t.chance(0.3)) s.default = s.minItems ? [item.valid()] : [];
      return { schema: s, valid, invalid: () => (s.maxItems ? [item.valid(), item.valid(), item.valid(), item.valid()] : item.invalid ? [item.invalid()] : 'not-a-list') };
    }
    case 'any': {
      const s = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      const valid = () => ({ n: t.big(), list: [t.big(), 1] });
      if (t.chance(0.4)) s.default = valid();
      return { schema: s, valid, invalid: () => 'not-an-object' };
    }
    case 'map': {
      const s = { type: 'object', additionalProperties: { type: 'string' } };
      return { schema: s, valid: () => ({ [t.word()]: t.word() }), invalid: () => ({ k: 5 }) };
    }
    default:
      return objectSchema(t, depth + 1);
  }
}

function objectSchema(t, depth) {
  const names = t.some(['name', 'count', 'enabled', 'nested', 'tags'], 3);
  if (names.length === 0) names.push('name');
  const props = {};
  for (const n of names) props[n] = n === 'nested' && depth < 2 ? objectSchema(t, depth + 1) : schemaOf(t, 2);
  const s = { type: 'object', properties: Object.fromEntries(names.map((n) => [n, props[n].schema])) };
  const required = names.filter(() => t.chance(0.3));
  if (required.length) s.required = required;
  if (t.chance(0.15)) s['x-kubernetes-preserve-unknown-fields'] = true;
  if (t.chance(0.2) && names.length > 1) s['x-kubernetes-validations'] = [{ rule: `has(self.${names[0]}) || !has(self.${names[1]})`, message: `${names[1]} needs ${names[0]}` }];
  const valid = () => {
    const v = {};
    for (const n of names) if (required.includes(n) || t.chance(0.6)) v[n] = props[n].valid();
    if (s['x-kubernetes-validations'] && v[names[1]] !== undefined && v[names[0]] === undefined) v[names[0]] = props[names[0]].valid();
    return v;
  };
  if (t.chance(0.25)) s.default = valid();
  return { schema: s, valid, invalid: () => (required.length ? {} : { [names[0]]: props[names[0]].invalid?.() ?? { x: 1 } }) };
}

// --- the case ----------------------------------------------------------------------------------

const ref = (k, name, api) => (api === 'v1beta1' ? { ref: { apiVersion: `${k.group}/${k.version}`, kind: k.kind, name } } : { templateRef: { apiVersion: `${k.group}/${k.version}`, kind: k.kind, name } });

function template(t, k, name, ns) {
  const spec = {};
  if (t.chance(0.6)) spec.size = t.int(1, 64);
  if (t.chance(0.4)) spec.mode = t.pick(['fast', 'safe']);
  if (t.chance(0.4)) spec.tags = { team: t.word() };
  if (t.chance(0.5)) spec.items = [{ name: 'first', value: t.int(0, 9) }];
  if (t.chance(0.3)) spec.nested = { deep: { value: t.word() } };
  if (t.chance(0.3)) spec.big = [t.big(), t.big()];
  if (t.chance(0.08)) spec.numbers = Object.fromEntries(t.some(Object.keys(NUMBER_FIELDS), 2).map((f) => [f, t.pick(NUMBER_VALUES)]));
  const obj = { apiVersion: `${k.group}/${k.version}`, kind: k.kind, metadata: { name, namespace: ns }, spec: { template: { spec } } };
  if (t.chance(0.3)) obj.spec.template.metadata = { labels: { 'template-label': t.word() }, annotations: { 'template.example.com/note': 'from-template' } };
  if (t.chance(0.15)) delete obj.spec.template.spec;
  return obj;
}

function healthCheck(t, api) {
  if (api === 'v1beta1') {
    const mhc = { unhealthyConditions: [{ type: 'Ready', status: t.pick(['Unknown', 'False']), timeout: t.pick(['300s', '5m', '1m30s']) }] };
    if (t.chance(0.5)) mhc.maxUnhealthy = t.pick(['40%', 3]);
    if (t.chance(0.3)) mhc.nodeStartupTimeout = '10m';
    return mhc;
  }
  const hc = { checks: { unhealthyNodeConditions: [{ type: 'Ready', status: t.pick(['Unknown', 'False']), timeoutSeconds: t.pick([300, 90]) }] } };
  if (t.chance(0.3)) hc.checks.nodeStartupTimeoutSeconds = 600;
  if (t.chance(0.4)) hc.remediation = { triggerIf: { unhealthyLessThanOrEqualTo: t.pick(['40%', 3]) } };
  return hc;
}

const metadata = (t, prefix) => ({ labels: { [`${prefix}-label`]: t.word() }, annotations: { [`${prefix}.example.com/a`]: t.word() } });

const BUILTIN_TEXTS = [
  '{{ .builtin.cluster.name }}',
  '{{ .builtin.cluster.namespace }}',
  '{{ .builtin.cluster.topology.version }}',
  '{{ .builtin.cluster.topology.class }}',
  '{{ .builtin.controlPlane.replicas }}',
  '{{ .builtin.controlPlane.version }}',
];
const WORKER_BUILTINS = {
  machineDeployment: ['{{ .builtin.machineDeployment.topologyName }}', '{{ .builtin.machineDeployment.class }}', '{{ .builtin.machineDeployment.replicas }}', '{{ .builtin.machineDeployment.version }}'],
  machinePool: ['{{ .builtin.machinePool.topologyName }}', '{{ .builtin.machinePool.class }}', '{{ .builtin.machinePool.replicas }}'],
};

/** A value path into a variable: the whole variable, a nested property, or an array element. */
function variablePath(t, v) {
  const s = v.schema;
  if (s.type === 'object' && s.properties && t.chance(0.6)) return `${v.name}.${t.pick(Object.keys(s.properties))}`;
  if (s.type === 'array' && t.chance(0.5)) return `${v.name}[0]`;
  return v.name;
}

function patches(t, variables, targets) {
  const out = [];
  const n = t.int(0, 4);
  for (let i = 0; i < n; i++) {
    const target = t.pick(targets);
    const ops = [];
    for (let j = t.int(1, 3); j > 0; j--) {
      const field = t.pick(['region', 'size', 'mode', 'tags/team', 'extra', 'items/-', 'nested/deep/value', 'labelled', 'huge', 'numbers/ratio']);
      const path = `/spec/template/spec/${field}`;
      const op = field.includes('-') || t.chance(0.7) ? 'add' : t.pick(['replace', 'remove']);
      const jp = { op, path };
      if (op !== 'remove') {
        const how = t.pick(['value', 'variable', 'template', 'builtin']);
        if (how === 'value' || (how === 'variable' && variables.length === 0)) jp.value = field === 'size' ? t.int(1, 70) : field === 'items/-' ? { name: 'added', value: t.int(0, 9) } : field === 'huge' ? t.big() : field === 'numbers/ratio' ? t.pick(NUMBER_VALUES) : t.word();
        else if (how === 'variable') jp.valueFrom = { variable: variablePath(t, t.pick(variables)) };
        else if (how === 'builtin') jp.valueFrom = { variable: t.pick(['builtin.cluster.name', 'builtin.cluster.namespace', 'builtin.cluster.topology.version', 'builtin.controlPlane.replicas', ...(target.worker ? [`builtin.${target.worker}.topologyName`, `builtin.${target.worker}.class`] : [])]) };
        else {
          const texts = [...BUILTIN_TEXTS, ...(target.worker ? WORKER_BUILTINS[target.worker] : [])];
          const v = variables.length ? t.pick(variables) : undefined;
          jp.valueFrom = {
            template: t.pick([
              `${t.pick(texts)}-suffix`,
              `${t.pick(texts)}`,
              `key: ${t.pick(texts)}\nother: fixed`,
              v ? `{{ .${v.name} | toJson }}` : '{{ upper .builtin.cluster.name }}',
              v ? `{{ if .${v.name} }}set{{ else }}unset{{ end }}` : '{{ printf "%s-%s" .builtin.cluster.name "x" }}',
              '- a\n- b',
              `big: ${t.big()}\nlist: [${t.big()}]`,
            ]),
          };
        }
      }
      ops.push(jp);
    }
    const patch = { name: `patch-${i}`, definitions: [{ selector: target.selector, jsonPatches: ops }] };
    if (t.chance(0.3)) {
      const flag = variables.find((v) => v.schema.type === 'boolean');
      patch.enabledIf = t.pick([flag ? `{{ .${flag.name} }}` : '{{ eq .builtin.cluster.name "none" }}', '{{ ne .builtin.cluster.topology.version "v0.0.0" }}', 'true', '{{ if .builtin.controlPlane }}true{{ end }}']);
    }
    if (t.chance(0.2)) patch.description = 'generated patch';
    out.push(patch);
  }
  return out;
}

const VERSIONS = ['v1.33.1', 'v1.34.2', 'v1.34.2', '1.34.2', 'v1.34.2+rke2r1', 'v1.35.0-rc.1'];

/** The webhook and API-server rules a broken case violates, one per case. */
export const BREAKS = [
  'unknownMachineDeploymentClass',
  'duplicateMachineDeploymentClass',
  'duplicateTopologyName',
  'invalidVariableName',
  'missingRequiredVariable',
  'invalidVariableValue',
  'patchPathOutsideSpec',
  'patchUndefinedVariable',
  'patchValueAndValueFrom',
  'unparsableEnabledIf',
  'invalidVersion',
  'invalidRemediationTrigger',
  'invalidTopologyName',
  'invalidTopologyLabel',
  'unknownClusterField',
  'healthCheckWithoutChecks',
  'variableWithoutRequired',
  'invalidCEL',
  'invalidDefault',
  'invalidNamingTemplate',
  'versionDowngrade',
  'removedClassInUse',
  'fractionalBound',
  'celCostExceeded',
];

/**
 * Case `index` of campaign `seed`: { index, namespace, objects, previous, features, broken }.
 * Objects are plain JSON-able Kubernetes objects in their namespace.
 */
export function generateCase(seed, index) {
  const t = toolbox(seed, index);
  const ns = `c${index}`;
  const api = t.chance(0.6) ? 'v1beta2' : 'v1beta1';
  const clusterApi = t.chance(0.85) ? api : api === 'v1beta1' ? 'v1beta2' : 'v1beta1';
  const features = [`class:${api}`, `cluster:${clusterApi}`];
  const broken = t.chance(0.3) ? t.pick(BREAKS) : undefined;
  const objects = [];

  // Templates.
  const cpKind = t.chance(0.6) ? KINDS.controlPlane : KINDS.legacyControlPlane;
  features.push(`controlPlaneContract:${cpKind.contract}`);
  const withMachines = t.chance(0.8);
  objects.push(template(t, KINDS.infraCluster, 'infra', ns), template(t, cpKind, 'cp', ns));
  if (withMachines) objects.push(template(t, KINDS.machine, 'cp-machines', ns));
  const mdClasses = ['md-a', 'md-b', 'md-c'].slice(0, t.int(0, 3));
  const mpClasses = t.chance(0.3) ? ['mp-a', 'mp-b'].slice(0, t.int(1, 2)) : [];
  for (const c of mdClasses) objects.push(template(t, KINDS.machine, `${c}-machines`, ns), template(t, KINDS.bootstrap, `${c}-bootstrap`, ns));
  for (const c of mpClasses) objects.push(template(t, KINDS.machinePool, `${c}-pool`, ns), template(t, KINDS.bootstrap, `${c}-bootstrap`, ns));
  if (mdClasses.length) features.push('machineDeployments');
  if (mpClasses.length) features.push('machinePools');

  // Variables.
  const variables = [];
  for (let i = t.int(0, 5); i > 0; i--) {
    const gen = t.chance(0.3) ? objectSchema(t, 0) : schemaOf(t);
    const name = `var${variables.length}`;
    variables.push({ name, required: t.chance(0.3), ...gen });
  }
  if (variables.length) features.push('variables');

  // The ClusterClass.
  const spec = {};
  const cpClass = {};
  if (api === 'v1beta1') {
    spec.infrastructure = ref(KINDS.infraCluster, 'infra', api);
    Object.assign(cpClass, ref(cpKind, 'cp', api));
    if (withMachines) cpClass.machineInfrastructure = ref(KINDS.machine, 'cp-machines', api);
    if (withMachines && t.chance(0.4)) cpClass.machineHealthCheck = healthCheck(t, api);
    if (t.chance(0.3)) cpClass.metadata = metadata(t, 'class-cp');
    if (t.chance(0.2)) cpClass.namingStrategy = { template: '{{ .cluster.name }}-cp-{{ .random }}' };
    if (t.chance(0.2)) spec.infrastructureNamingStrategy = { template: '{{ .cluster.name }}-infra-{{ .random }}' };
  } else {
    spec.infrastructure = ref(KINDS.infraCluster, 'infra', api);
    if (t.chance(0.2)) spec.infrastructure.naming = { template: '{{ .cluster.name }}-infra-{{ .random }}' };
    Object.assign(cpClass, ref(cpKind, 'cp', api));
    if (withMachines) cpClass.machineInfrastructure = ref(KINDS.machine, 'cp-machines', api);
    if (withMachines && t.chance(0.4)) cpClass.healthCheck = healthCheck(t, api);
    if (t.chance(0.3)) cpClass.metadata = metadata(t, 'class-cp');
    if (t.chance(0.2)) cpClass.naming = { template: '{{ .cluster.name }}-cp-{{ .random }}' };
  }
  spec.controlPlane = cpClass;
  const mdClassObjs = mdClasses.map((c) => {
    const md = { class: c };
    const naming = t.chance(0.2) ? { template: '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}' } : undefined;
    if (api === 'v1beta1') {
      md.template = { bootstrap: ref(KINDS.bootstrap, `${c}-bootstrap`, api), infrastructure: ref(KINDS.machine, `${c}-machines`, api) };
      if (t.chance(0.3)) md.template.metadata = metadata(t, 'class-md');
      if (t.chance(0.4)) md.machineHealthCheck = healthCheck(t, api);
      if (naming) md.namingStrategy = naming;
      if (t.chance(0.2)) md.minReadySeconds = 5;
    } else {
      Object.assign(md, { bootstrap: ref(KINDS.bootstrap, `${c}-bootstrap`, api), infrastructure: ref(KINDS.machine, `${c}-machines`, api) });
      if (t.chance(0.3)) md.metadata = metadata(t, 'class-md');
      if (t.chance(0.4)) md.healthCheck = healthCheck(t, api);
      if (naming) md.naming = naming;
      if (t.chance(0.2)) md.minReadySeconds = 5;
    }
    return md;
  });
  const mpClassObjs = mpClasses.map((c) => {
    const mp = { class: c };
    if (api === 'v1beta1') {
      mp.template = { bootstrap: ref(KINDS.bootstrap, `${c}-bootstrap`, api), infrastructure: ref(KINDS.machinePool, `${c}-pool`, api) };
      if (t.chance(0.3)) mp.template.metadata = metadata(t, 'class-mp');
    } else {
      Object.assign(mp, { bootstrap: ref(KINDS.bootstrap, `${c}-bootstrap`, api), infrastructure: ref(KINDS.machinePool, `${c}-pool`, api) });
      if (t.chance(0.3)) mp.metadata = metadata(t, 'class-mp');
    }
    return mp;
  });
  if (mdClassObjs.length || mpClassObjs.length) spec.workers = { ...(mdClassObjs.length ? { machineDeployments: mdClassObjs } : {}), ...(mpClassObjs.length ? { machinePools: mpClassObjs } : {}) };
  if (variables.length) {
    spec.variables = variables.map((v) => {
      const out = { name: v.name, required: v.required, schema: { openAPIV3Schema: v.schema } };
      if (t.chance(0.1)) {
        if (api === 'v1beta1') out.metadata = { labels: { 'var-label': 'x' } };
        else out.deprecatedV1Beta1Metadata = { labels: { 'var-label': 'x' } };
      }
      return out;
    });
  }
  const selectorTargets = [
    { selector: { apiVersion: `${INFRA}/${KINDS.infraCluster.version}`, kind: KINDS.infraCluster.kind, matchResources: { infrastructureCluster: true } } },
    { selector: { apiVersion: `${cpKind.group}/${cpKind.version}`, kind: cpKind.kind, matchResources: { controlPlane: true } } },
  ];
  if (withMachines) selectorTargets.push({ selector: { apiVersion: `${INFRA}/${KINDS.machine.version}`, kind: KINDS.machine.kind, matchResources: { controlPlane: true } } });
  if (mdClasses.length) {
    const names = t.pick([[t.pick(mdClasses)], mdClasses, ['*'], ['md-*']]);
    selectorTargets.push({ worker: 'machineDeployment', selector: { apiVersion: `${BOOTSTRAP}/${KINDS.bootstrap.version}`, kind: KINDS.bootstrap.kind, matchResources: { machineDeploymentClass: { names } } } });
    selectorTargets.push({ worker: 'machineDeployment', selector: { apiVersion: `${INFRA}/${KINDS.machine.version}`, kind: KINDS.machine.kind, matchResources: { machineDeploymentClass: { names } } } });
  }
  if (mpClasses.length) selectorTargets.push({ worker: 'machinePool', selector: { apiVersion: `${INFRA}/${KINDS.machinePool.version}`, kind: KINDS.machinePool.kind, matchResources: { machinePoolClass: { names: [t.pick(mpClasses)] } } } });
  const classPatches = patches(t, variables, selectorTargets);
  if (classPatches.length) {
    spec.patches = classPatches;
    features.push('patches');
  }
  const clusterClass = { apiVersion: `cluster.x-k8s.io/${api}`, kind: 'ClusterClass', metadata: { name: 'class', namespace: ns }, spec };
  objects.push(clusterClass);

  // Clusters.
  const clusters = [];
  for (let i = t.int(1, 2); i > 0; i--) clusters.push(cluster(t, { ns, name: `cl${clusters.length}`, api: clusterApi, variables, mdClasses, mpClasses, withMachines }));
  objects.push(...clusters);

  const previous = [];
  if (broken) breakCase(t, broken, { objects, clusterClass, clusters, variables, api, clusterApi, previous, ns, mdClasses, withMachines });
  else if (t.chance(0.1)) {
    // A harmless update: the same Cluster, one patch version earlier.
    const prev = structuredClone(clusters[0]);
    prev.spec.topology.version = 'v1.34.1';
    clusters[0].spec.topology.version = 'v1.34.2';
    previous.push(...objects.filter((o) => o.kind !== 'Cluster'), prev);
    features.push('update');
  }
  return { index, namespace: ns, objects, previous, features, broken };
}

function cluster(t, { ns, name, api, variables, mdClasses, mpClasses, withMachines }) {
  const topology = { version: t.pick(VERSIONS) };
  if (api === 'v1beta1') topology.class = 'class';
  else topology.classRef = { name: 'class' };
  const cp = {};
  if (t.chance(0.6)) cp.replicas = t.pick([1, 3]);
  if (t.chance(0.3)) cp.metadata = metadata(t, 'topo-cp');
  if (withMachines && t.chance(0.2)) {
    if (api === 'v1beta1') cp.machineHealthCheck = { enable: false };
    else cp.healthCheck = { enabled: false };
  }
  if (Object.keys(cp).length) topology.controlPlane = cp;
  const values = [];
  for (const v of variables) if (v.required || t.chance(0.5)) values.push({ name: v.name, value: v.valid() });
  if (values.length) topology.variables = values;
  const mds = [];
  for (let i = mdClasses.length ? t.int(0, 3) : 0; i > 0; i--) {
    const md = { class: t.pick(mdClasses), name: `md-${mds.length}` };
    if (t.chance(0.7)) md.replicas = t.int(0, 3);
    if (t.chance(0.3)) md.metadata = metadata(t, 'topo-md');
    if (t.chance(0.2)) md.failureDomain = 'fd-1';
    if (t.chance(0.15)) {
      if (api === 'v1beta1') md.machineHealthCheck = { enable: false };
      else md.healthCheck = { enabled: false };
    }
    if (variables.length && t.chance(0.2)) {
      const v = t.pick(variables);
      md.variables = { overrides: [{ name: v.name, value: v.valid() }] };
    }
    mds.push(md);
  }
  const mps = [];
  for (let i = mpClasses.length ? t.int(0, 2) : 0; i > 0; i--) {
    const mp = { class: t.pick(mpClasses), name: `mp-${mps.length}` };
    if (t.chance(0.7)) mp.replicas = t.int(0, 3);
    if (t.chance(0.3)) mp.metadata = metadata(t, 'topo-mp');
    mps.push(mp);
  }
  if (mds.length || mps.length) topology.workers = { ...(mds.length ? { machineDeployments: mds } : {}), ...(mps.length ? { machinePools: mps } : {}) };
  const obj = { apiVersion: `cluster.x-k8s.io/${api}`, kind: 'Cluster', metadata: { name, namespace: ns }, spec: { topology } };
  if (t.chance(0.2)) obj.spec.clusterNetwork = { pods: { cidrBlocks: ['192.168.0.0/16'] }, serviceDomain: 'cluster.local' };
  if (t.chance(0.2)) obj.metadata.labels = { 'cluster-label': t.word() };
  return obj;
}

/** Breaks one rule in the case (see BREAKS). */
function breakCase(t, rule, c) {
  const { clusterClass, clusters, variables, api, clusterApi, previous, objects } = c;
  const topo = clusters[0].spec.topology;
  const cls = clusterClass.spec;
  const mdTopologies = () => {
    topo.workers ??= {};
    topo.workers.machineDeployments ??= [];
    return topo.workers.machineDeployments;
  };
  switch (rule) {
    case 'unknownMachineDeploymentClass':
      mdTopologies().push({ class: 'no-such-class', name: 'md-x' });
      break;
    case 'duplicateMachineDeploymentClass':
      if (cls.workers?.machineDeployments?.length) cls.workers.machineDeployments.push(structuredClone(cls.workers.machineDeployments[0]));
      else mdTopologies().push({ class: 'no-such-class', name: 'md-x' });
      break;
    case 'duplicateTopologyName': {
      const mds = mdTopologies();
      const klass = cls.workers?.machineDeployments?.[0]?.class ?? 'no-such-class';
      mds.push({ class: klass, name: 'dup' }, { class: klass, name: 'dup' });
      break;
    }
    case 'invalidVariableName':
      cls.variables = [...(cls.variables ?? []), { name: t.pick(['Bad Name', 'builtin', 'x.y']), required: false, schema: { openAPIV3Schema: { type: 'string' } } }];
      break;
    case 'missingRequiredVariable':
      cls.variables = [...(cls.variables ?? []), { name: 'mustSet', required: true, schema: { openAPIV3Schema: { type: 'string' } } }];
      break;
    case 'invalidVariableValue': {
      const v = variables.find((x) => x.invalid);
      if (v) {
        topo.variables = (topo.variables ?? []).filter((x) => x.name !== v.name);
        topo.variables.push({ name: v.name, value: v.invalid() });
      } else topo.variables = [...(topo.variables ?? []), { name: 'undefinedVariable', value: 1 }];
      break;
    }
    case 'patchPathOutsideSpec':
      cls.patches = [...(cls.patches ?? []), { name: 'outside', definitions: [{ selector: { apiVersion: `${INFRA}/v1beta2`, kind: KINDS.infraCluster.kind, matchResources: { infrastructureCluster: true } }, jsonPatches: [{ op: 'add', path: t.pick(['/metadata/labels/x', '/status/x', 'spec/x']), value: 'x' }] }] }];
      break;
    case 'patchUndefinedVariable':
      cls.patches = [...(cls.patches ?? []), { name: 'undefined-variable', definitions: [{ selector: { apiVersion: `${INFRA}/v1beta2`, kind: KINDS.infraCluster.kind, matchResources: { infrastructureCluster: true } }, jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', valueFrom: { variable: 'notDefined' } }] }] }];
      break;
    case 'patchValueAndValueFrom':
      cls.patches = [...(cls.patches ?? []), { name: 'both', definitions: [{ selector: { apiVersion: `${INFRA}/v1beta2`, kind: KINDS.infraCluster.kind, matchResources: { infrastructureCluster: true } }, jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', value: 'x', valueFrom: { template: 'y' } }] }] }];
      break;
    case 'unparsableEnabledIf':
      cls.patches = [...(cls.patches ?? []), { name: 'bad-enabled-if', enabledIf: '{{ .builtin.cluster.name ', definitions: [{ selector: { apiVersion: `${INFRA}/v1beta2`, kind: KINDS.infraCluster.kind, matchResources: { infrastructureCluster: true } }, jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', value: 'x' }] }] }];
      break;
    case 'invalidVersion':
      topo.version = t.pick(['v1.x.2', '1.34', 'latest']);
      break;
    case 'invalidRemediationTrigger':
      if (api === 'v1beta1') cls.controlPlane.machineHealthCheck = { maxUnhealthy: 'abc', unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '300s' }] };
      else cls.controlPlane.healthCheck = { checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }] }, remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 'abc' } } };
      break;
    case 'invalidTopologyName':
      mdTopologies().push({ class: cls.workers?.machineDeployments?.[0]?.class ?? 'no-such-class', name: t.pick(['Upper_Case', 'x'.repeat(70)]) });
      break;
    case 'invalidTopologyLabel':
      topo.controlPlane = { ...topo.controlPlane, metadata: { labels: { 'bad key!': 'x' } } };
      break;
    case 'unknownClusterField':
      topo[t.pick(['controlplane', 'worker'])] = {};
      break;
    case 'healthCheckWithoutChecks':
      if (clusterApi === 'v1beta1') topo.controlPlane = { ...topo.controlPlane, machineHealthCheck: { enable: true } };
      else topo.controlPlane = { ...topo.controlPlane, healthCheck: { enabled: true } };
      if (api === 'v1beta1') delete cls.controlPlane.machineHealthCheck;
      else delete cls.controlPlane.healthCheck;
      break;
    case 'variableWithoutRequired':
      cls.variables = [...(cls.variables ?? []), { name: 'noRequired', schema: { openAPIV3Schema: { type: 'string', default: 'x' } } }];
      break;
    case 'invalidCEL':
      // Syntax, selection, overloads, null, mixed literals, Kubernetes library overloads.
      cls.variables = [...(cls.variables ?? []), { name: 'badCel', required: false, schema: { openAPIV3Schema: { type: 'string', 'x-kubernetes-validations': [{ rule: t.pick(['self.size() >', 'self.foo == 1', 'self > 1', 'self == null', "size([1, 'a']) > 0", 'self.find(1) == self', 'quantity(self).sign() == 1']) }] } } }];
      break;
    case 'invalidDefault':
      cls.variables = [...(cls.variables ?? []), { name: 'badDefault', required: false, schema: { openAPIV3Schema: { type: 'integer', default: 'abc' } } }];
      break;
    case 'invalidNamingTemplate':
      if (api === 'v1beta1') cls.infrastructureNamingStrategy = { template: t.pick(['{{ .cluster.nme }}', '{{ .cluster.name', 'UPPER-{{ .random }}']) };
      else cls.infrastructure.naming = { template: t.pick(['{{ .cluster.nme }}', '{{ .cluster.name', 'UPPER-{{ .random }}']) };
      break;
    case 'versionDowngrade': {
      const prev = structuredClone(clusters[0]);
      prev.spec.topology.version = 'v1.35.1';
      topo.version = 'v1.34.2';
      previous.push(...objects.filter((o) => o.kind !== 'Cluster'), prev);
      break;
    }
    case 'removedClassInUse': {
      const prevClass = structuredClone(clusterClass);
      const workers = (prevClass.spec.workers ??= {});
      const extra = api === 'v1beta1'
        ? { class: 'removed', template: { bootstrap: ref(KINDS.bootstrap, 'removed-bootstrap', api), infrastructure: ref(KINDS.machine, 'removed-machines', api) } }
        : { class: 'removed', bootstrap: ref(KINDS.bootstrap, 'removed-bootstrap', api), infrastructure: ref(KINDS.machine, 'removed-machines', api) };
      workers.machineDeployments = [...(workers.machineDeployments ?? []), extra];
      const prevCluster = structuredClone(clusters[0]);
      prevCluster.spec.topology.workers = { ...prevCluster.spec.topology.workers, machineDeployments: [...(prevCluster.spec.topology.workers?.machineDeployments ?? []), { class: 'removed', name: 'uses-removed' }] };
      const templates = objects.filter((o) => o.kind !== 'Cluster' && o.kind !== 'ClusterClass');
      const ns = clusterClass.metadata.namespace;
      previous.push(...templates, template(t, KINDS.machine, 'removed-machines', ns), template(t, KINDS.bootstrap, 'removed-bootstrap', ns), prevClass, prevCluster);
      break;
    }
    case 'celCostExceeded': {
      // An unbounded messageExpression, or Kubernetes library calls over many bounded strings.
      const library = t.pick([undefined, "self.replace('a', 'bb').contains('x')", "self.find('[a-z]+').contains('x')", "url(self).getHost() == 'x'", "isCIDR(self) && cidr(self).containsIP('1.2.3.4')"]);
      const schema = library
        ? { type: 'array', maxItems: 100000, items: { type: 'string', maxLength: 5000, 'x-kubernetes-validations': [{ rule: library }] } }
        : { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(k, self[k].size() > 0)', messageExpression: "'bad: ' + self.map(k, self[k]).join(',')" }] };
      cls.variables = [...(cls.variables ?? []), { name: 'costly', required: false, schema: { openAPIV3Schema: schema } }];
      break;
    }
    case 'fractionalBound':
      cls.variables = [...(cls.variables ?? []), { name: 'fraction', required: false, schema: { openAPIV3Schema: { type: 'number', minimum: 0.5 } } }];
      break;
    default:
      throw new Error(`unknown rule ${rule}`);
  }
}

/** JSON text of a generated object, bigints in all their digits. */
const jsonOf = (o) => JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? `\u0000${v}` : v)).replace(/"\\u0000(-?\d+)"/g, '$1');

/** A case's objects as a YAML stream of JSON documents (JSON is YAML, read alike by every reader). */
export function streamOf(objects) {
  return objects.map(jsonOf).join('\n---\n') + '\n';
}
