// Differential comparison of render-clusterclass with the CAPI oracle (oracle/capi), both driven
// as programs: the product through its built CLI (bin/render-clusterclass, `render --format
// resourcelist`), the oracle through its binary. Nothing here imports the product's sources.
//
// What is compared, per input (see README "The CAPI oracle"):
// - verdicts: each input object (ClusterClass, template, Cluster) accepted or refused, and the
//   field paths of the refusal; a Cluster the oracle admits but cannot render (a patch fails, the
//   API server refuses the name of an object it computed, its class was refused) must not be
//   rendered by the product either, and must carry an error;
// - rendered objects, matched by role (the Cluster's infrastructure cluster, control plane, its
//   machine template and health check, each MachineDeployment/MachinePool by topology name with
//   its templates and health check), compared as canonical JSON modulo the product's bookkeeping
//   annotations and modulo generated names: every generated name is replaced by its role on both
//   sides, and each name pair must agree outside the bytes CAPI draws at random;
// - what the API server says when each rendered object is applied (schema errors, by field path).
import { spawnSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { oracleBinary, oracleDir } from './capi-versions.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const binPath = join(root, 'bin', 'render-clusterclass');

/**
 * Integers beyond ±(2^53 - 1) are compared by their digits: JavaScript numbers would round both
 * sides alike. Each becomes this prefix and its digits, a string, which recording keeps.
 */
const BIG = '\u0000int:';
const bigText = (digits) => (Number.isSafeInteger(Number(digits)) ? Number(digits) : `${BIG}${digits}`);

/** The oracle's JSON, each integer beyond ±(2^53 - 1) as its digits (`bigText`). */
export function parseOracleJson(text) {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[-+.eE0-9]/.test(text[j])) j++;
      const token = text.slice(i, j);
      if (/^-?\d+$/.test(token) && typeof bigText(token) === 'string') {
        out += text.slice(from, i) + JSON.stringify(`${BIG}${token}`);
        from = j;
      }
      i = j - 1;
    }
  }
  return JSON.parse(out + text.slice(from));
}

/** The product's YAML, each integer beyond ±(2^53 - 1) as its digits (`bigText`). */
function parseProductYaml(text) {
  const walk = (v) =>
    typeof v === 'bigint'
      ? bigText(v.toString())
      : Array.isArray(v)
        ? v.map(walk)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return walk(YAML.parse(text, { intAsBigInt: true }));
}

/** Annotations that are the product's (or kpt's) bookkeeping, not CAPI content. */
const BOOKKEEPING = /^(config\.kubernetes\.io|internal\.config\.kubernetes\.io|render-clusterclass\.dev|kustomize\.config\.k8s\.io)\//;
/** The characters k8s.io/apimachinery/pkg/util/rand draws names from. */
const RANDOM_ALPHABET = /^[bcdfghjklmnpqrstvwxz2456789]*$/;
const RANDOM_LENGTH = 5;

/**
 * Renders `paths` with the product under the rules of CAPI `minor` (`v1.13` → `--capi-version
 * 1.13`) and `featureGates`, as the oracle of that minor is asked: a ResourceList with every
 * object and the results. CAPI objects are asked for in v1beta2, the version CAPI's generator
 * computes (a v1beta1 Cluster's output is that, converted).
 */
export function renderWithProduct(minor, { paths, crds, previous, input, featureGates }) {
  const args = ['render', ...paths, '--format', 'resourcelist', '--set', 'outputApiVersion=v1beta2', '--capi-version', minor.replace(/^v/, '')];
  if (featureGates) args.push('--feature-gates', featureGates);
  if (crds) args.push('--crds', crds);
  if (previous) args.push('--previous', previous);
  const r = spawnSync(process.execPath, [binPath, ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`render-clusterclass exited ${r.status}: ${r.stderr}`);
  const list = parseProductYaml(r.stdout || 'items: []') ?? {};
  return { code: r.status, items: list.items ?? [], results: list.results ?? [], stderr: r.stderr };
}

/** Asks the oracle of `minor` about `paths`; the answer is parsed JSON. */
export function askOracle(minor, { paths, crds, previous, input, featureGates }) {
  const args = ['-capi-crds', join(oracleDir(minor), 'crds')];
  if (crds) args.push('-crds', crds);
  if (previous) args.push('-previous', previous);
  if (featureGates) args.push('-feature-gates', featureGates);
  const r = spawnSync(oracleBinary(minor), [...args, ...paths], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`capi-oracle ${minor} exited ${r.status}: ${r.stderr}`);
  return parseOracleJson(r.stdout);
}

const keyOf = (ref) => `${ref.kind} ${ref.namespace || 'default'}/${ref.name}`;
const groupOf = (apiVersion = '') => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
const sortedUnique = (xs) => [...new Set(xs)].sort();

/**
 * Roles of a Cluster's rendered objects, found from the Cluster's references as CAPI sets them:
 * the same walk on both sides, so that names never need to agree for objects to be matched.
 */
export function assignRoles(objects) {
  const byRef = new Map(objects.map((o) => [`${o.kind}/${o.metadata?.name}`, o]));
  const find = (ref) => (ref?.name ? byRef.get(`${ref.kind}/${ref.name}`) : undefined);
  const roles = [];
  const add = (role, object, topologyName) => object && roles.push({ role, topologyName, object });
  const cluster = objects.find((o) => o.kind === 'Cluster' && groupOf(o.apiVersion) === 'cluster.x-k8s.io');
  if (!cluster) return roles;
  add('Cluster', cluster);
  add('InfrastructureCluster', find(cluster.spec?.infrastructureRef));
  const cp = find(cluster.spec?.controlPlaneRef);
  add('ControlPlane', cp);
  const mt = cp?.spec?.machineTemplate;
  add('ControlPlaneInfrastructureMachineTemplate', find(mt?.spec?.infrastructureRef ?? mt?.infrastructureRef));
  const checks = objects.filter((o) => o.kind === 'MachineHealthCheck');
  add('ControlPlaneMachineHealthCheck', cp && checks.find((m) => m.metadata?.name === cp.metadata?.name));
  for (const md of objects.filter((o) => o.kind === 'MachineDeployment')) {
    const topologyName = md.metadata?.labels?.['topology.cluster.x-k8s.io/deployment-name'];
    add('MachineDeployment', md, topologyName);
    add('MachineDeploymentBootstrapTemplate', find(md.spec?.template?.spec?.bootstrap?.configRef), topologyName);
    add('MachineDeploymentInfrastructureMachineTemplate', find(md.spec?.template?.spec?.infrastructureRef), topologyName);
    add('MachineDeploymentMachineHealthCheck', checks.find((m) => m.metadata?.name === md.metadata?.name), topologyName);
  }
  for (const mp of objects.filter((o) => o.kind === 'MachinePool')) {
    const topologyName = mp.metadata?.labels?.['topology.cluster.x-k8s.io/pool-name'];
    add('MachinePool', mp, topologyName);
    add('MachinePoolBootstrapConfig', find(mp.spec?.template?.spec?.bootstrap?.configRef), topologyName);
    add('MachinePoolInfrastructureMachinePool', find(mp.spec?.template?.spec?.infrastructureRef), topologyName);
  }
  return roles;
}

const roleKey = (r) => (r.topologyName ? `${r.role}[${r.topologyName}]` : r.role);

/** Whether a product name matches CAPI's outside the bytes CAPI drew at random. */
export function namesAgree(oracleName, productName, random) {
  if (oracleName === productName) return true;
  if (!random || oracleName.length !== productName.length) return false;
  let [start, end] = random;
  for (let i = 0; i < oracleName.length; i++) {
    if (oracleName[i] !== productName[i]) {
      start = Math.min(start, i);
      end = Math.max(end, i + 1);
    }
  }
  return end - start <= RANDOM_LENGTH && RANDOM_ALPHABET.test(productName.slice(start, end));
}

/** Canonical JSON: keys sorted, so that two objects compare as text. */
export function canonicalJSON(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * An object as compared: without status and server-set metadata, without bookkeeping annotations,
 * without owner references to a Cluster whose UID the input did not give (the API server would
 * assign it; the product leaves them out), and with generated names replaced by their roles.
 */
function comparable(object, { role, names, clusterUID }) {
  const o = structuredClone(object);
  delete o.status;
  const meta = o.metadata ?? {};
  for (const k of ['resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'uid']) delete meta[k];
  if (meta.annotations) {
    for (const k of Object.keys(meta.annotations)) if (BOOKKEEPING.test(k)) delete meta.annotations[k];
    if (Object.keys(meta.annotations).length === 0) delete meta.annotations;
  }
  if (meta.ownerReferences) {
    meta.ownerReferences = meta.ownerReferences.filter((r) => !(r.kind === 'Cluster' && r.uid !== clusterUID));
    if (meta.ownerReferences.length === 0) delete meta.ownerReferences;
  }
  // The product writes the Cluster in classic form (no spec.topology): only what CAPI's desired
  // Cluster adds is compared (labels, annotations, the two references).
  const picked =
    role === 'Cluster'
      ? { metadata: { name: meta.name, namespace: meta.namespace, labels: meta.labels, annotations: meta.annotations }, spec: { infrastructureRef: o.spec?.infrastructureRef, controlPlaneRef: o.spec?.controlPlaneRef } }
      : o;
  return JSON.parse(JSON.stringify(picked, (_k, v) => (typeof v === 'string' ? replaceNames(v, names) : v)));
}

function replaceNames(text, names) {
  let out = text;
  for (const [name, token] of names) if (out.includes(name)) out = out.split(name).join(token);
  return out;
}

/** Paths of the first differences between two JSON values (at most `limit`). */
export function jsonDiff(a, b, path = '', out = [], limit = 8) {
  if (out.length >= limit) return out;
  if (canonicalJSON(a) === canonicalJSON(b)) return out;
  const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of sortedUnique([...Object.keys(a), ...Object.keys(b)])) jsonDiff(a[k], b[k], path ? `${path}.${k}` : k, out, limit);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((v, i) => jsonDiff(v, b[i], `${path}[${i}]`, out, limit));
    return out;
  }
  out.push({ path: path || '.', oracle: a, product: b });
  return out;
}

/** The input object an oracle admission entry or a product result is about. */
function inputKeys(answer) {
  return answer.admission.filter((a) => !a.previous).map((a) => keyOf(a));
}

/**
 * Compares the oracle's answer with the product's render of the same input. Returns the counts of
 * what was compared and every difference, each with a kind (verdict, render, object, name, roles,
 * apiServer), the subject and both sides.
 */
export function compareAnswers(answer, product) {
  const differences = [];
  const counts = { objects: 0, clusters: 0, renderedObjects: 0 };
  const diff = (kind, subject, detail) => differences.push({ kind, subject, ...detail });

  // A patch that fails for one Cluster is reported at the ClusterClass field that holds it, with
  // a message naming the Cluster ("Cluster ns/name: patch ..."): for CAPI that is the Cluster's
  // reconcile failing, so it counts for the Cluster.
  // A ClusterClass whose template the API server refuses is admitted: CAPI fails its reconcile
  // (and its Clusters', getBlueprint), which the Clusters' render errors compare; the product's
  // error on the class's reference says why, and is no admission verdict.
  const errors = new Map();
  for (const r of product.results.filter((r) => r.severity === 'error' && r.tags?.rule !== 'template-refused')) {
    const cluster = /^Cluster ([^/\s]+)\/([^:\s]+): /.exec(r.message ?? '');
    const k = cluster ? keyOf({ kind: 'Cluster', namespace: cluster[1], name: cluster[2] }) : r.resourceRef ? keyOf(r.resourceRef) : '(no object)';
    if (!errors.has(k)) errors.set(k, []);
    errors.get(k).push(r);
  }
  const productRendered = new Map();
  for (const item of product.items) {
    const owner = item.metadata?.annotations?.['render-clusterclass.dev/cluster'];
    if (!owner) continue;
    if (!productRendered.has(owner)) productRendered.set(owner, []);
    productRendered.get(owner).push(item);
  }
  const renders = new Map(answer.clusters.map((c) => [`${c.namespace || 'default'}/${c.name}`, c]));

  // The ClusterClasses the oracle refused: their Clusters cannot be rendered, whatever else is
  // wrong with them, and the product says so instead of judging them further.
  const refusedClasses = new Set(answer.admission.filter((a) => !a.previous && a.kind === 'ClusterClass' && !a.allowed).map((a) => `${a.namespace || 'default'}/${a.name}`));
  const classOf = (entry) => {
    const input = product.items.find((o) => o.kind === 'Cluster' && o.metadata?.name === entry.name && (o.metadata?.namespace || 'default') === (entry.namespace || 'default') && !o.metadata?.annotations?.['render-clusterclass.dev/cluster']);
    const topology = input?.spec?.topology ?? {};
    const name = topology.classRef?.name ?? topology.class;
    const ns = topology.classRef?.namespace ?? topology.classNamespace ?? entry.namespace ?? 'default';
    return `${ns || 'default'}/${name}`;
  };

  /**
   * Why the topology controller cannot create a Cluster's objects, though CAPI computed them: the
   * API server refuses an object's name (a v1beta1 topology name such as `Upper_Case`; names.go
   * `GenerateName` does not validate), so the reconcile fails there, as a failing patch fails it.
   */
  const uncreatable = (render) => {
    const refused = (render?.objects ?? []).filter((o) => o.role !== 'Cluster' && causes(o.apiServer?.errors).some((e) => e.field === 'metadata.name'));
    return refused.length > 0 ? `the API server refuses the name of ${refused.map((o) => `${o.object.kind} ${o.object.metadata?.name}`).join(', ')}` : undefined;
  };
  const renderError = (render) => render?.error ?? uncreatable(render);

  // Verdicts on the inputs.
  for (const entry of answer.admission.filter((a) => !a.previous)) {
    counts.objects++;
    const subject = keyOf(entry);
    const productErrors = errors.get(subject) ?? [];
    const productFields = resultFields(productCauses(productErrors));
    const oracleFields = sortedUnique(causes(entry.errors).map((e) => e.field ?? ''));
    const render = entry.kind === 'Cluster' ? renders.get(`${entry.namespace || 'default'}/${entry.name}`) : undefined;
    if (entry.kind === 'Cluster' && refusedClasses.has(classOf(entry))) {
      // Already a difference if the product accepted the class: not counted again per Cluster.
      if (productErrors.length === 0 && errors.has(`ClusterClass ${classOf(entry)}`)) diff('verdict', subject, { oracle: { classRefused: classOf(entry) }, product: 'no error' });
    } else if (!entry.allowed) {
      if (productErrors.length === 0) diff('verdict', subject, { oracle: { refused: causes(entry.errors) }, product: 'accepted' });
      else if (canonicalJSON(oracleFields) !== canonicalJSON(productFields)) diff('verdict', subject, { oracle: { refused: oracleFields, errors: causes(entry.errors) }, product: { refused: productFields, errors: productErrors.map((r) => r.message) } });
    } else if (renderError(render)) {
      if (productErrors.length === 0 && !refusedClasses.has(classOf(entry))) diff('render', subject, { oracle: { notRendered: renderError(render) }, product: 'no error' });
    } else if (productErrors.length > 0) {
      diff('verdict', subject, { oracle: 'accepted', product: { refused: productFields, errors: productErrors.map((r) => r.message) } });
    }
  }

  // Rendered objects, per Cluster the oracle admitted.
  for (const c of answer.clusters) {
    counts.clusters++;
    const key = `${c.namespace || 'default'}/${c.name}`;
    const subject = `Cluster ${key}`;
    const mine = productRendered.get(key) ?? [];
    if (c.updated) continue;
    if (renderError(c)) {
      const consequence = refusedClasses.has(classOf(c)) && !errors.has(`ClusterClass ${classOf(c)}`);
      if (mine.length > 0 && !consequence) diff('render', subject, { oracle: { notRendered: renderError(c) }, product: `rendered ${mine.length} objects` });
      continue;
    }
    if (mine.length === 0) {
      diff('render', subject, { oracle: `rendered ${c.objects.length} objects`, product: { notRendered: (errors.get(subject) ?? []).map((r) => r.message) } });
      continue;
    }
    const oracleRoles = c.objects.map((o) => ({ role: o.role, topologyName: o.topologyName, object: o.object, nameRandom: o.nameRandom, apiServer: o.apiServer }));
    const walked = assignRoles(c.objects.map((o) => o.object)).map(roleKey).sort();
    if (canonicalJSON(walked) !== canonicalJSON(oracleRoles.map(roleKey).sort())) diff('harness', subject, { detail: 'the role walk disagrees with the oracle roles', oracle: oracleRoles.map(roleKey), walked });
    const productRoles = assignRoles(mine);
    const expectedKeys = oracleRoles.map(roleKey);
    const productKeys = productRoles.map(roleKey);
    const missing = expectedKeys.filter((k) => !productKeys.includes(k));
    const extra = productKeys.filter((k) => !expectedKeys.includes(k));
    const unowned = mine.filter((o) => !productRoles.some((r) => r.object === o)).map((o) => `${o.kind}/${o.metadata?.name}`);
    if (missing.length || extra.length || unowned.length) diff('roles', subject, { oracle: expectedKeys, product: productKeys, missing, extra, unowned });

    const inputUID = product.items.find((o) => o.kind === 'Cluster' && o.metadata?.name === c.name && !o.metadata?.annotations?.['render-clusterclass.dev/cluster'])?.metadata?.uid;
    const tokens = (roles) => roles.filter((r) => r.role !== 'Cluster').map((r) => [r.object.metadata.name, `<${roleKey(r).replace(/MachineHealthCheck/, '')}>`]);
    const oracleNames = uniqueNames(tokens(oracleRoles));
    const productNames = uniqueNames(tokens(productRoles));
    for (const o of oracleRoles) {
      const p = productRoles.find((r) => roleKey(r) === roleKey(o));
      if (!p) continue;
      counts.renderedObjects++;
      const what = `${subject} ${roleKey(o)}`;
      if (!namesAgree(o.object.metadata.name, p.object.metadata?.name ?? '', o.nameRandom)) diff('name', what, { objectKind: o.object.kind, oracle: o.object.metadata.name, product: p.object.metadata?.name, random: o.nameRandom });
      const a = comparable(o.object, { role: o.role, names: oracleNames, clusterUID: inputUID });
      const b = comparable(p.object, { role: o.role, names: productNames, clusterUID: inputUID });
      // One difference per differing field, so that each can be told apart (and classified).
      for (const field of jsonDiff(a, b, '', [], 50)) diff('object', what, { objectKind: o.object.kind, fields: [field] });
      const oracleApiErrors = sortedUnique(causes(o.apiServer?.errors).map((e) => e.field));
      const productApiErrors = resultFields(productCauses(errors.get(keyOf({ kind: p.object.kind, namespace: p.object.metadata?.namespace, name: p.object.metadata?.name })) ?? []));
      if (canonicalJSON(oracleApiErrors) !== canonicalJSON(productApiErrors)) diff('apiServer', what, { objectKind: o.object.kind, oracle: causes(o.apiServer?.errors), product: productApiErrors });
    }
  }
  return { counts, differences, inputs: inputKeys(answer) };
}

/**
 * The causes of a refusal that name a problem: the API server adds, after schema errors, one that
 * says the CEL rules were not all checked ("some validation rules were not checked because the
 * object was invalid", at no field); it is a consequence, not a verdict of its own.
 */
function causes(errors = []) {
  const named = errors.filter((e) => !(e.origin === 'apiserver' && /some validation rules were not checked/.test(e.message)));
  // The schema validator repeats a type error without a field ("Checked value must be of type
  // integer ... in spec.x"): the one with the field stands for both.
  return named.some((e) => e.field) ? named.filter((e) => e.field || e.origin !== 'apiserver') : named;
}

/**
 * The product's side of `causes`: its API server schema errors at no field (kube-openapi's plain
 * range-check errors) count only when no error names a field.
 */
const productCauses = (results) => (results.some((r) => r.field?.path) ? results.filter((r) => r.field?.path || r.tags?.rule !== 'crd-schema') : results);
const resultFields = (results) => sortedUnique(results.map((r) => r.field?.path ?? ''));

/** Name → token pairs, longest names first (so that a name inside another is replaced last). */
function uniqueNames(pairs) {
  const seen = new Map();
  for (const [name, token] of pairs) if (name && !seen.has(name)) seen.set(name, token);
  return [...seen.entries()].sort((a, b) => b[0].length - a[0].length);
}

const fieldsOf = (side) => {
  if (typeof side === 'string') return side;
  if (side?.classRefused) return `class refused (${side.classRefused})`;
  if (side?.notRendered) return 'not rendered';
  if (Array.isArray(side?.refused)) return `refused at ${side.refused.map((f) => (typeof f === 'string' ? f : f.field) || '(object)').join(', ')}`;
  return canonicalJSON(side);
};

/**
 * A difference as one stable line: what kind, about what, and the fields or verdicts on each
 * side (no messages, which may change wording without changing behaviour).
 */
export function signatureOf(d) {
  switch (d.kind) {
    case 'object':
      return `object ${d.subject}: ${d.fields.map((f) => f.path).join(', ')}`;
    case 'name':
      return `name ${d.subject}: ${d.oracle} vs ${d.product}`;
    case 'roles':
      return `roles ${d.subject}: missing [${d.missing.join(', ')}] extra [${d.extra.join(', ')}] unowned [${d.unowned.join(', ')}]`;
    case 'apiServer':
      return `apiServer ${d.subject}: oracle [${d.oracle.map((e) => e.field).join(', ')}] product [${d.product.join(', ')}]`;
    default:
      return `${d.kind} ${d.subject}: oracle ${fieldsOf(d.oracle)}; product ${fieldsOf(d.product)}`;
  }
}
