/**
 * A Runtime SDK extension for the tests: an HTTPS server on 127.0.0.1 (certificate from tls.ts)
 * serving discovery and the three topology-mutation hooks the way CAPI's runtime server does
 * (exp/runtime/server/server.go: POST `/hooks.runtime.cluster.x-k8s.io/v1alpha1/<hook>/<handler>`,
 * JSON in, 200 with the typed response out). Its handlers:
 *
 * - `generate-patches`, `validate-topology`, `discover-variables`: CAPI's test extension
 *   (capi-test-extension.ts), registered like test/extension/main.go (defaults for timeout and
 *   failure policy);
 * - `builtin-patches`: JSONPatch from discovered variables and builtins; `merge-patches`: a
 *   JSONMergePatch; `reject-topology`: a failing validation; `slow-patches` (timeoutSeconds 1)
 *   answers after 3 s; `garbage-patches` answers no JSON; `ignored-garbage` the same with
 *   failurePolicy Ignore; `failing-patches` answers status Failure.
 *
 * Every request is kept (path, query, parsed body) for the field-by-field checks.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { DISCOVERED_VARIABLES, generatePatches, mergeVariables } from './capi-test-extension.js';
import type { TestPki } from './tls.js';

const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';

export interface Received {
  path: string;
  query: string;
  body: any;
  /** The body as sent. */
  raw: string;
}

export interface RunningExtension {
  url: string;
  requests: Received[];
  stop(): Promise<void>;
}

type Handler = {
  hook: string;
  timeoutSeconds?: number;
  failurePolicy?: string;
  answer: (body: any) => any | Promise<any>;
};

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

/** Variables the `builtin-patches` handler's patch reads (its DiscoverVariables answer). */
const BUILTIN_PATCH_VARIABLES = [
  {
    name: 'region',
    required: false,
    schema: { openAPIV3Schema: { type: 'string', default: 'eu-west-1', enum: ['eu-west-1', 'us-east-2'] } },
  },
  { name: 'extraCommand', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
];

const HANDLERS: Record<string, Handler> = {
  'generate-patches': { hook: 'GeneratePatches', answer: generatePatches },
  'validate-topology': { hook: 'ValidateTopology', answer: () => ({ status: 'Success' }) },
  'discover-variables': {
    hook: 'DiscoverVariables',
    answer: () => ({ status: 'Success', variables: DISCOVERED_VARIABLES }),
  },
  'discover-region': {
    hook: 'DiscoverVariables',
    answer: () => ({ status: 'Success', variables: BUILTIN_PATCH_VARIABLES }),
  },
  'builtin-patches': {
    hook: 'GeneratePatches',
    answer: (req) => ({
      status: 'Success',
      items: (req.items as any[]).flatMap((item) => {
        const vars = mergeVariables(req.variables, item.variables);
        const b = vars.builtin;
        if (item.object.kind === 'KubeadmControlPlaneTemplate') {
          const ops: any[] = [
            {
              op: 'add',
              path: '/spec/template/spec/kubeadmConfigSpec/preKubeadmCommands/-',
              value: `echo external ${b.cluster.name} ${b.controlPlane.version} ${vars.region}`,
            },
            {
              op: 'add',
              path: '/spec/template/metadata/labels',
              value: { region: vars.region, replicas: String(b.controlPlane.replicas) },
            },
          ];
          if (vars.extraCommand !== undefined)
            ops.push({
              op: 'add',
              path: '/spec/template/spec/kubeadmConfigSpec/preKubeadmCommands/-',
              value: vars.extraCommand,
            });
          return [{ uid: item.uid, patchType: 'JSONPatch', patch: b64(ops) }];
        }
        if (item.object.kind === 'DevMachineTemplate' && b.machineDeployment) {
          const image = `img-${b.machineDeployment.topologyName}-${b.machineDeployment.version}-${vars.region}`;
          return [
            {
              uid: item.uid,
              patchType: 'JSONPatch',
              patch: b64([{ op: 'add', path: '/spec/template/spec/backend/docker/customImage', value: image }]),
            },
          ];
        }
        return [];
      }),
    }),
  },
  'merge-patches': {
    hook: 'GeneratePatches',
    answer: (req) => ({
      status: 'Success',
      items: (req.items as any[])
        .filter((i) => i.object.kind === 'DevClusterTemplate')
        .map((i) => ({
          uid: i.uid,
          patchType: 'JSONMergePatch',
          patch: b64({
            spec: {
              template: {
                spec: {
                  backend: {
                    docker: { loadBalancer: { imageRepository: 'merged.example.com' }, failureDomains: null },
                  },
                },
              },
            },
          }),
        })),
    }),
  },
  'reject-topology': {
    hook: 'ValidateTopology',
    answer: (req) => ({
      status: 'Failure',
      message: `topology rejected: ${req.items.length} templates, control plane ${req.items.find((i: any) => i.object.kind === 'KubeadmControlPlaneTemplate')?.object.spec.template.spec.kubeadmConfigSpec.preKubeadmCommands?.join(' | ')}`,
    }),
  },
  'slow-patches': {
    hook: 'GeneratePatches',
    timeoutSeconds: 1,
    answer: () => new Promise((r) => setTimeout(() => r({ status: 'Success', items: [] }), 3000)),
  },
  'garbage-patches': { hook: 'GeneratePatches', answer: () => 'this is not JSON' },
  'ignored-garbage': { hook: 'GeneratePatches', failurePolicy: 'Ignore', answer: () => 'this is not JSON' },
  'failing-patches': { hook: 'GeneratePatches', answer: () => ({ status: 'Failure', message: 'no patches today' }) },
  'failing-discovery': {
    hook: 'DiscoverVariables',
    answer: () => ({ status: 'Failure', message: 'no variables today' }),
  },
  'conflicting-variables': {
    hook: 'DiscoverVariables',
    answer: () => ({
      status: 'Success',
      variables: [{ name: 'region', required: true, schema: { openAPIV3Schema: { type: 'integer' } } }],
    }),
  },
};

function discovery(): any {
  return {
    status: 'Success',
    handlers: Object.entries(HANDLERS).map(([name, h]) => ({
      name,
      requestHook: { apiVersion: API, hook: h.hook },
      ...(h.timeoutSeconds !== undefined ? { timeoutSeconds: h.timeoutSeconds } : {}),
      ...(h.failurePolicy !== undefined ? { failurePolicy: h.failurePolicy } : {}),
    })),
  };
}

/** The extension over HTTPS with the test certificate, or over plain HTTP (`pki` undefined: a local extension without TLS). */
export async function startExtension(pki: TestPki | undefined): Promise<RunningExtension> {
  const requests: Received[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end('bad request');
        return;
      }
      requests.push({ path: url.pathname, query: url.search, body, raw });
      const parts = url.pathname.split('/').filter((p) => p !== '');
      const [, , hook, name] = parts;
      let answer: any;
      if (hook === 'discovery' && name === undefined) answer = discovery();
      else {
        const h = name !== undefined ? HANDLERS[name] : undefined;
        if (!h || h.hook.toLowerCase() !== hook) {
          res.writeHead(404).end(`no handler ${url.pathname}`);
          return;
        }
        answer = await h.answer(body);
      }
      if (res.destroyed) return;
      if (typeof answer === 'string') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(answer);
        return;
      }
      const kind = `${body.kind.replace(/Request$/, '')}Response`;
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ apiVersion: API, kind, ...answer }));
    });
  };
  const server = pki ? https.createServer({ cert: pki.certPem, key: pki.keyPem }, handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${pki ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
