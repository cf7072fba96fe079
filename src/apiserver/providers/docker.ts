/** The defaulting webhooks of CAPI's test infrastructure provider (CAPD): DevCluster(Template), DevMachineTemplate. */
import type { JsonObject } from '../../core/model.js';
import { isJsonObject } from '../../core/go/json.js';
import { child, childAt, type AdmissionWebhook } from './webhook.js';

/**
 * CAPI's test infrastructure provider, `test/infrastructure/docker/webhooks/admission/devcluster.go`
 * `defaultDevClusterSpec`: the docker backend when none is set (the CRD requires `backend`), the
 * API server port 6443, failure domains not for the control plane unless said so.
 */
function devClusterSpecDefaults(spec: JsonObject | undefined): void {
  const backend = spec && child(spec, 'backend');
  if (!spec || !backend) return;
  if (
    (backend.inMemory === undefined || backend.inMemory === null) &&
    (backend.docker === undefined || backend.docker === null)
  )
    backend.docker = {};
  if (!isJsonObject(backend.docker)) return;
  const endpoint = child(spec, 'controlPlaneEndpoint');
  if (endpoint && (endpoint.port === undefined || endpoint.port === null || endpoint.port === 0)) endpoint.port = 6443;
  for (const fd of Array.isArray(backend.docker.failureDomains) ? backend.docker.failureDomains : []) {
    if (isJsonObject(fd) && (fd.controlPlane === undefined || fd.controlPlane === null)) fd.controlPlane = false;
  }
}

/** `devmachine.go` `defaultDevMachineSpec`: the docker backend when none is set (the CRD requires `backend`). */
function devMachineSpecDefaults(spec: JsonObject | undefined): void {
  const backend = spec && child(spec, 'backend');
  if (
    backend &&
    (backend.inMemory === undefined || backend.inMemory === null) &&
    (backend.docker === undefined || backend.docker === null)
  )
    backend.docker = {};
}

export const DOCKER_WEBHOOKS: readonly AdmissionWebhook[] = (
  ['DevCluster', 'DevClusterTemplate', 'DevMachineTemplate'] as const
).map((kind) => ({
  group: 'infrastructure.cluster.x-k8s.io',
  kind,
  versions: ['v1beta2'],
  source: `kubernetes-sigs/cluster-api test/infrastructure/docker/webhooks/admission/${kind.toLowerCase()}.go`,
  apply: (obj: JsonObject) => {
    const spec = kind === 'DevCluster' ? child(obj, 'spec') : childAt(obj, 'spec', 'template', 'spec');
    if (kind === 'DevMachineTemplate') devMachineSpecDefaults(spec);
    else devClusterSpecDefaults(spec);
  },
}));
