/**
 * Cluster defaulting and create-time rules of the webhook (topology-semantics §8.2) that depend on
 * the class: version prefix and syntax, worker classes and names, health-check availability.
 * Returns the defaulted Cluster only when it can be rendered.
 */
import type { Cluster, ObjectRef } from '../api/model.js';
import type { Result } from '../krm/result.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { isStrictSemver, labelValueErrors } from './format.js';

export function validateClusterTopology(bp: Blueprint, input: Cluster, ref: ObjectRef): { cluster?: Cluster; results: Result[] } {
  const results: Result[] = [];
  const err = (path: string, message: string, rule: string) =>
    results.push({ severity: 'error', message, resourceRef: ref, field: { path }, tags: { rule } });
  const topo = input.topology;

  for (const m of labelValueErrors(input.name)) err('metadata.name', `Invalid value: "${input.name}": ${m}`, 'cluster-name');

  // Mutating webhook: prefix the version with `v`.
  const version = topo.version.startsWith('v') ? topo.version : `v${topo.version}`;
  if (!isStrictSemver(version.slice(1))) {
    err('spec.topology.version', `Invalid value: "${topo.version}": version must be a valid semantic version`, 'version');
  } else if (bp.cc.kubernetesVersions && !bp.cc.kubernetesVersions.includes(version)) {
    err('spec.topology.version', `Invalid value: "${version}": version must match one of the versions defined in the ClusterClass`, 'version');
  }

  const workers = [
    ['MachineDeployment', 'machineDeployments', topo.workers.machineDeployments, bp.machineDeployments],
    ['MachinePool', 'machinePools', topo.workers.machinePools, bp.machinePools],
  ] as const;
  for (const [kind, key, list, classes] of workers) {
    const seen = new Set<string>();
    list.forEach((w, i) => {
      const path = `spec.topology.workers.${key}[${i}]`;
      if (!classes.has(w.class)) {
        err(`${path}.class`, `Invalid value: "${w.class}": ${kind}Class with name "${w.class}" does not exist in ClusterClass "${bp.cc.name}"`, 'worker-class');
      }
      if (w.name === '') err(`${path}.name`, 'Invalid value: "": name must not be empty', 'worker-name');
      else if (seen.has(w.name)) err(`${path}.name`, `Invalid value: "${w.name}": name must be unique. ${kind} with name "${w.name}" is defined more than once`, 'worker-name');
      seen.add(w.name);
    });
  }

  const cpHc = topo.controlPlane.healthCheck;
  if (cpHc && (cpHc.checks || cpHc.remediation) && !bp.controlPlaneMachineInfrastructure) {
    err('spec.topology.controlPlane.healthCheck', 'Forbidden: can be only set if spec.controlPlane.machineInfrastructure is set in ClusterClass', 'health-check');
  }
  if (cpHc?.enabled === true && !cpHc.checks && !cpHc.remediation && !bp.cc.controlPlane.healthCheck) {
    err('spec.topology.controlPlane.healthCheck.enable', 'Forbidden: cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass', 'health-check');
  }
  topo.workers.machineDeployments.forEach((md, i) => {
    const cls = bp.machineDeployments.get(md.class)?.cls;
    if (md.healthCheck?.enabled === true && !md.healthCheck.checks && !md.healthCheck.remediation && !cls?.healthCheck) {
      err(`spec.topology.workers.machineDeployments[${i}].healthCheck.enable`, 'Forbidden: cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass', 'health-check');
    }
  });

  if (results.length > 0) return { results };
  return { cluster: { ...input, topology: { ...topo, version } }, results };
}
