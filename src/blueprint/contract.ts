/**
 * Control-plane contract versions (CAPI internal/contract/version.go `GetContractVersionForVersion`): the paths a ControlPlane object uses
 * depend on the contract its CRD declares, not on its own API version.
 */
import type { ContractVersion } from '../krm/config.js';

/** Providers whose contract differs from the version heuristic (CRD labels as installed). */
const KNOWN_CONTRACTS: Record<string, ContractVersion> = {
  // CAPA labels every CRD `cluster.x-k8s.io/v1beta1: v1beta1_v1beta2`: its v1beta2 follows contract v1beta1.
  'controlplane.cluster.x-k8s.io/v1beta2/AWSManagedControlPlane': 'v1beta1',
  'controlplane.cluster.x-k8s.io/v1beta2/ROSAControlPlane': 'v1beta1',
  // K3s (k3s-io/cluster-api-k3s) labels its CRDs `cluster.x-k8s.io/v1beta1: v1beta1_v1beta2` and has no v1beta2 contract label.
  'controlplane.cluster.x-k8s.io/v1beta2/KThreesControlPlane': 'v1beta1',
};

export type ContractLookup = (apiVersion: string, kind: string) => ContractVersion;

/**
 * Resolution order: function config map, CRD labels (when CRDs were supplied), known providers,
 * then "version v1beta2 → contract v1beta2, otherwise v1beta1".
 */
export function contractLookup(
  configured: Record<string, ContractVersion>,
  fromCrds: Record<string, ContractVersion> = {},
): ContractLookup {
  return (apiVersion, kind) => {
    const key = `${apiVersion}/${kind}`;
    return (
      configured[key] ??
      fromCrds[key] ??
      KNOWN_CONTRACTS[key] ??
      (apiVersion.endsWith('/v1beta2') ? 'v1beta2' : 'v1beta1')
    );
  };
}
