/** The defaulting webhook of CAPI's kubeadm control plane provider (KubeadmControlPlane). */
import type { JsonObject } from '../../core/model.js';
import { child, childAt, stringOr, type AdmissionWebhook } from './webhook.js';

/**
 * CAPI KubeadmControlPlane, `controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go`
 * `Default()`: replicas 1, a `v` prefix on spec.version, `spec.rollout.strategy.type =
 * RollingUpdate` (always) and `rollingUpdate.maxSurge` 1 when unset. The webhook is registered for
 * v1beta2; a v1beta1 object is converted (api/controlplane/kubeadm/v1beta1/conversion.go), so the
 * same defaults land on `spec.rolloutStrategy.type` and `spec.rolloutStrategy.rollingUpdate.maxSurge`.
 */
function kubeadmControlPlaneDefaults(obj: JsonObject, version: string): void {
  const spec = child(obj, 'spec');
  if (!spec) return;
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  const v = spec.version;
  if (v === undefined || v === null || (typeof v === 'string' && !v.startsWith('v')))
    spec.version = `v${stringOr(v, '')}`;
  const strategy = version === 'v1beta1' ? childAt(spec, 'rolloutStrategy') : childAt(spec, 'rollout', 'strategy');
  if (!strategy) return;
  strategy.type = 'RollingUpdate';
  const rollingUpdate = child(strategy, 'rollingUpdate');
  if (rollingUpdate && (rollingUpdate.maxSurge === undefined || rollingUpdate.maxSurge === null))
    rollingUpdate.maxSurge = 1;
}

export const KUBEADM_WEBHOOKS: readonly AdmissionWebhook[] = [
  {
    group: 'controlplane.cluster.x-k8s.io',
    kind: 'KubeadmControlPlane',
    versions: ['v1beta1', 'v1beta2'],
    source: 'kubernetes-sigs/cluster-api controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go',
    apply: kubeadmControlPlaneDefaults,
  },
];
