/**
 * What CAPI's test extension does for the runtime-SDK quick-start class
 * (kubernetes-sigs/cluster-api test/extension/handlers/topologymutation/handler.go at the
 * fixtures' commit), on JSON instead of typed Go objects:
 * - GeneratePatches walks the templates (exp/runtime/topologymutation/walker.go `WalkTemplates`:
 *   global and item variables merged, builtin merged field by field; unknown kinds fail) and
 *   answers one JSONPatch per item, the difference between the template and its mutated copy;
 * - ValidateTopology answers Success; DiscoverVariables the five variables of `DiscoverVariables`.
 *
 * Not reproduced: the typed round trip (the walker decodes each template into its Go type and
 * marshals it again, so zero-valued fields without omitempty would also land in the patch); the
 * v1beta1 template types (the fixture's templates are v1beta2).
 */

type Obj = Record<string, any>;

const LABEL = { 'top-level-label-1': 'top-level-label-value-1' };
const ANNOTATION = { 'top-level-annotation-1': 'top-level-annotation-value-1' };

/** test/infrastructure/kind/mapper.go `GetMapping` for Kubernetes 1.34 (the fixture's minor): the pre-built images, else `kindest/node:<version>`. */
const KIND_1_34 = [
  { patch: 8, image: 'kindest/node:v1.34.8@sha256:02722c2dedddcfc00febf5d27fbeb9b7b2c14294c82109ff4a85d89ac9ba3256' },
  { patch: 3, image: 'kindest/node:v1.34.3@sha256:08497ee19eace7b4b5348db5c6a1591d7752b164530a36f855cb0f2bdcbadd48' },
  { patch: 0, image: 'kindest/node:v1.34.0@sha256:7416a61b42b1662ca6ca89f02028ac133a309a2a30ba309614e8ec94d976dc5a' },
];

function kindImage(version: string): string {
  const m = /^v?(\d+)\.(\d+)\.(\d+)([-+].*)?$/.exec(version);
  if (!m) throw new Error(`could not parse version ${JSON.stringify(version)}`);
  const fallback = `kindest/node:v${m[1]}.${m[2]}.${m[3]}${(m[4] ?? '').replace(/\+/g, '_')}`;
  if (m[1] !== '1' || m[2] !== '34') return fallback;
  const patch = Number(m[3]);
  for (const e of KIND_1_34) {
    if (patch === e.patch && !m[4]?.startsWith('-')) return e.image;
    if (patch > e.patch) return fallback;
  }
  return fallback;
}

/** topologymutation.MergeVariableMaps over the request's lists (builtin merged, later wins). */
export function mergeVariables(
  global: { name: string; value: any }[] = [],
  item: { name: string; value: any }[] = [],
): Obj {
  const out: Obj = {};
  for (const v of [...global, ...item]) {
    if (v.name === 'builtin' && out.builtin) out.builtin = { ...out.builtin, ...v.value };
    else out[v.name] = v.value;
  }
  return out;
}

/** GetVariable's dotted path (`builtin.controlPlane.version`). */
function variable(vars: Obj, path: string): any {
  let cur: any = vars;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(seg in cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

const ensure = (o: Obj, ...path: string[]): Obj => path.reduce((cur, k) => (cur[k] ??= {}), o);
const addTo = (o: Obj, key: string, entries: Obj) => (o[key] = { ...(o[key] ?? {}), ...entries });
const arg = (name: string, value: string) => ({ name, value });

/** convertToKubeadmConfigFiles: root:root 0600, empty fields omitted. */
function files(vars: Obj): Obj[] {
  const list: Obj[] = variable(vars, 'files') ?? [];
  return list.map((f) => ({
    ...(f.path ? { path: f.path } : {}),
    ...(f.content ? { content: f.content } : {}),
    ...(f.contentFormat ? { contentFormat: f.contentFormat } : {}),
    owner: 'root:root',
    permissions: '0600',
  }));
}

function kubeadmExtras(spec: Obj, vars: Obj): void {
  const f = files(vars);
  if (f.length > 0) spec.files = [...(spec.files ?? []), ...f];
  const pre: string[] = variable(vars, 'preKubeadmCommands') ?? [];
  if (pre.length > 0) spec.preKubeadmCommands = [...(spec.preKubeadmCommands ?? []), ...pre];
}

/** The mutations of handler.go per template kind; `undefined` for kinds the decoder does not know. */
const MUTATIONS: Record<string, (o: Obj, vars: Obj) => void> = {
  DevClusterTemplate(o, vars) {
    const repo = variable(vars, 'imageRepository');
    if (repo === undefined) return;
    const meta = ensure(o, 'spec', 'template', 'metadata');
    addTo(meta, 'labels', LABEL);
    addTo(meta, 'annotations', ANNOTATION);
    const docker = o.spec.template.spec?.backend?.docker;
    if (docker) ensure(docker, 'loadBalancer').imageRepository = repo;
  },
  KubeadmControlPlaneTemplate(o, vars) {
    const version = variable(vars, 'builtin.controlPlane.version');
    if (typeof version !== 'string')
      throw new Error(
        'could not patch KubeadmControlPlane: could not get builtin.controlPlane.version: variable "builtin.controlPlane.version" not found',
      );
    const meta = ensure(o, 'spec', 'template', 'metadata');
    addTo(meta, 'labels', LABEL);
    addTo(meta, 'annotations', ANNOTATION);
    const spec = ensure(o, 'spec', 'template', 'spec');
    const kcs = ensure(spec, 'kubeadmConfigSpec');
    for (const c of ['apiServer', 'controllerManager', 'scheduler']) {
      const comp = ensure(kcs, 'clusterConfiguration', c);
      comp.extraArgs = [...(comp.extraArgs ?? []), arg('v', '2')];
    }
    const nodeLabels = `kubernetesVersion=${version.replaceAll('+', '_')}`;
    for (const c of ['initConfiguration', 'joinConfiguration']) {
      const reg = ensure(kcs, c, 'nodeRegistration');
      reg.kubeletExtraArgs = [...(reg.kubeletExtraArgs ?? []), arg('v', '2'), arg('node-labels', nodeLabels)];
    }
    const surge = variable(vars, 'kubeadmControlPlaneMaxSurge');
    if (typeof surge === 'string' && surge !== '') {
      const strategy = ensure(spec, 'rollout', 'strategy');
      strategy.type = 'RollingUpdate';
      // intstr.Parse: an integer when the text is one.
      ensure(strategy, 'rollingUpdate').maxSurge = /^-?\d+$/.test(surge) ? Number(surge) : surge;
    }
    kubeadmExtras(kcs, vars);
  },
  KubeadmConfigTemplate(o, vars) {
    const meta = ensure(o, 'metadata');
    addTo(meta, 'labels', LABEL);
    addTo(meta, 'annotations', ANNOTATION);
    const spec = ensure(o, 'spec', 'template', 'spec');
    const reg = ensure(spec, 'joinConfiguration', 'nodeRegistration');
    reg.kubeletExtraArgs = [...(reg.kubeletExtraArgs ?? []), arg('v', '2')];
    kubeadmExtras(spec, vars);
    const extra = variable(vars, 'kubeadmConfigTemplateAnnotations');
    if (extra && Object.keys(extra).length > 0) addTo(meta, 'annotations', extra);
  },
  DevMachineTemplate(o, vars) {
    const meta = ensure(o, 'metadata');
    addTo(meta, 'labels', LABEL);
    addTo(meta, 'annotations', ANNOTATION);
    const version =
      variable(vars, 'builtin.controlPlane.version') ?? variable(vars, 'builtin.machineDeployment.version');
    if (typeof version !== 'string') throw new Error('no version variables found for DevMachineTemplate patch');
    const docker = o.spec?.template?.spec?.backend?.docker;
    if (docker) docker.customImage = kindImage(version);
  },
  DevMachinePoolTemplate(o, vars) {
    const meta = ensure(o, 'spec', 'template', 'metadata');
    addTo(meta, 'labels', LABEL);
    addTo(meta, 'annotations', ANNOTATION);
    const version = variable(vars, 'builtin.machinePool.version');
    if (typeof version !== 'string') throw new Error('no version variables found for DevMachinePoolTemplate patch');
    const docker = o.spec?.template?.spec?.backend?.docker;
    if (docker) docker.customImage = kindImage(version);
  },
};

const escape = (k: string) => k.replaceAll('~', '~0').replaceAll('/', '~1');

/** An RFC 6902 patch turning `a` into `b` (objects key by key, anything else replaced whole). */
function diff(a: any, b: any, path = ''): Obj[] {
  const isObj = (v: any) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const ops: Obj[] = [];
    for (const k of Object.keys(a)) if (!(k in b)) ops.push({ op: 'remove', path: `${path}/${escape(k)}` });
    for (const k of Object.keys(b)) {
      if (!(k in a)) ops.push({ op: 'add', path: `${path}/${escape(k)}`, value: b[k] });
      else ops.push(...diff(a[k], b[k], `${path}/${escape(k)}`));
    }
    return ops;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ op: 'replace', path, value: b }];
}

/** GeneratePatches of the test extension (FailForUnknownTypes: an unknown kind fails the call). */
export function generatePatches(request: Obj): Obj {
  const items: Obj[] = [];
  for (const item of request.items ?? []) {
    const vars = mergeVariables(request.variables, item.variables);
    const mutate = MUTATIONS[item.object?.kind];
    if (!mutate)
      return {
        status: 'Failure',
        message: `no kind "${item.object?.kind}" is registered for version "${item.object?.apiVersion}" in scheme`,
      };
    const modified = structuredClone(item.object);
    try {
      mutate(modified, vars);
    } catch (e) {
      return { status: 'Failure', message: `error patching ${item.object.kind}: ${(e as Error).message}` };
    }
    items.push({
      uid: item.uid,
      patchType: 'JSONPatch',
      patch: Buffer.from(JSON.stringify(diff(item.object, modified))).toString('base64'),
    });
  }
  return { status: 'Success', items };
}

/** DiscoverVariables of the test extension (handler.go), as the JSON of []clusterv1.ClusterClassVariable. */
export const DISCOVERED_VARIABLES = [
  {
    name: 'kubeadmControlPlaneMaxSurge',
    required: false,
    schema: {
      openAPIV3Schema: {
        type: 'string',
        default: '',
        example: '0',
        description:
          'kubeadmControlPlaneMaxSurge is the maximum number of control planes that can be scheduled above or under the desired number of control plane machines.',
        'x-kubernetes-validations': [
          { rule: 'self == "" || self != ""', messageExpression: "'just a test expression, got %s'.format([self])" },
        ],
      },
    },
  },
  {
    name: 'files',
    required: false,
    schema: {
      openAPIV3Schema: {
        type: 'array',
        items: {
          type: 'object',
          properties: { path: { type: 'string' }, content: { type: 'string' }, contentFormat: { type: 'string' } },
        },
      },
    },
  },
  {
    name: 'preKubeadmCommands',
    required: false,
    schema: { openAPIV3Schema: { type: 'array', items: { type: 'string' } } },
  },
  {
    name: 'kubeadmConfigTemplateAnnotations',
    required: false,
    schema: { openAPIV3Schema: { type: 'object', additionalProperties: { type: 'string' } } },
  },
  {
    name: 'imageRepository',
    required: true,
    schema: {
      openAPIV3Schema: {
        type: 'string',
        example: 'kindest',
        'x-metadata': {
          labels: { objects: 'DevCluster' },
          annotations: {
            description: 'Gets set at DevCluster.Spec.Template.Spec.Backend.Docker.LoadBalancer.ImageRepository',
          },
        },
      },
    },
    deprecatedV1Beta1Metadata: {
      labels: { objects: 'DevCluster' },
      annotations: {
        description: 'Gets set at DevCluster.Spec.Template.Spec.Backend.Docker.LoadBalancer.ImageRepository',
      },
    },
  },
];
