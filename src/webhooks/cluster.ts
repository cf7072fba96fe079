/**
 * Cluster defaulting and create-time rules of the webhook (CAPI core/webhooks/admission/cluster.go) that depend on
 * the class: version prefix and syntax, worker classes and names, health-check availability.
 * Returns the defaulted Cluster only when it can be rendered.
 */
import type { Cluster, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import type { Recorder } from '../provenance/recorder.js';
import { labelValueErrors, objectNameErrors } from '../core/go/k8s-validation.js';
import type { ClusterClass } from '../core/model.js';
import type { CapiProfile } from '../core/capi-release.js';
import {
  cidrErrors,
  hasAutoscalerAnnotations,
  healthCheckErrors,
  metadataErrors,
  rolloutStrategyErrors,
  topologyTaintResults,
  topologyVersionValid,
  upgradeConcurrencyErrors,
} from './rules.js';
import { forbidden, invalid, required, type FieldError } from '../core/fielderror.js';
import { FIX, keyed, toResults, withFix } from '../core/fixes.js';

/**
 * A Cluster's name as it is accepted on create, checked before anything is rendered or written
 * for it: the API server's rule (`objectNameErrors`), then, once the API server accepts the
 * Cluster, the Cluster webhook's (core/webhooks/admission/cluster.go `validate`): the name is used
 * as a label value, so at most 63 characters. `Foo`, `foo_bar` and a 64-character name are
 * refused; so `Foo` and `foo` never both get a file (one file on a case-insensitive file system).
 */
export function clusterNameResults(ref: ObjectRef): { apiServer: Result[]; webhook: Result[] } {
  const fix = (m: string) => invalid('metadata.name', ref.name, withFix(m, FIX.clusterName));
  const apiServer = objectNameErrors(ref.name).map(fix);
  const webhook =
    apiServer.length > 0 ? [] : labelValueErrors(ref.name).map((m) => fix(`must be a valid label value ${m}`));
  return { apiServer: toResults(apiServer, ref, 'cluster-name'), webhook: toResults(webhook, ref, 'cluster-name') };
}

/** The defaulted Cluster, if it can be rendered; a recorder learns which Cluster fields the webhook defaulted. */
export function validateClusterTopology(
  bp: Blueprint,
  input: Cluster,
  ref: ObjectRef,
  rec?: Recorder,
): { cluster?: Cluster; results: Result[] } {
  const results: Result[] = [];
  const report = (rule: string, ...errors: FieldError[]) => results.push(...toResults(errors, ref, rule));
  const topo = input.topology;

  // Mutating webhook: prefix the version with `v`.
  const version = topo.version.startsWith('v') ? topo.version : `v${topo.version}`;
  if (version !== topo.version)
    rec?.clusterDefault('spec.topology.version', 'with the "v" prefix the Cluster defaulting webhook adds');
  if (!topologyVersionValid(version, bp.capi)) {
    report(
      'version',
      invalid(
        'spec.topology.version',
        version,
        withFix('version must be a valid semantic version', FIX.clusterVersionSyntax),
      ),
    );
  } else if (bp.cc.kubernetesVersions && !bp.cc.kubernetesVersions.includes(version)) {
    report(
      'version',
      invalid(
        'spec.topology.version',
        version,
        withFix('version must match one of the versions defined in the ClusterClass', FIX.clusterVersionNotListed),
      ),
    );
  }

  const workers = [
    [
      'MachineDeployment',
      'machineDeployments',
      topo.workers.machineDeployments,
      bp.machineDeployments,
      bp.cc.workers.machineDeployments,
    ],
    ['MachinePool', 'machinePools', topo.workers.machinePools, bp.machinePools, bp.cc.workers.machinePools],
  ] as const;
  for (const [kind, key, list, classes, defined] of workers) {
    const seen = new Set<string>();
    list.forEach((w, i) => {
      const path = `spec.topology.workers.${key}[${i}]`;
      if (!classes.has(w.class)) {
        const fix = FIX.workerClassMissing([...new Set(defined.map((c) => c.class))]);
        report(
          'worker-class',
          invalid(
            `${path}.class`,
            w.class,
            withFix(`${kind}Class with name "${w.class}" does not exist in ClusterClass "${bp.cc.name}"`, fix),
          ),
        );
      }
      if (w.name === '')
        report('worker-name', required(`${path}.name`, withFix('name must not be empty', FIX.emptyTopologyName)));
      else if (seen.has(w.name))
        report(
          'worker-name',
          invalid(
            `${path}.name`,
            w.name,
            withFix(
              `name must be unique. ${kind} with name "${w.name}" is defined more than once`,
              FIX.uniqueTopologyName,
            ),
          ),
        );
      seen.add(w.name);
    });
  }

  const cpHc = topo.controlPlane.healthCheck;
  if (cpHc && (cpHc.checks || cpHc.remediation) && !bp.controlPlaneMachineInfrastructure) {
    report(
      'health-check',
      forbidden(
        'spec.topology.controlPlane.healthCheck',
        withFix(
          'can be only set if spec.controlPlane.machineInfrastructure is set in ClusterClass',
          FIX.topologyHealthCheckNeedsMachineInfrastructure,
        ),
      ),
    );
  }
  const enabledWithoutDefinition = (path: string) =>
    report(
      'health-check',
      forbidden(
        path,
        withFix(
          'cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass',
          FIX.healthCheckEnabledWithoutDefinition,
        ),
      ),
    );
  if (cpHc?.enabled === true && !cpHc.checks && !cpHc.remediation && !bp.cc.controlPlane.healthCheck)
    enabledWithoutDefinition('spec.topology.controlPlane.healthCheck.enable');
  for (const md of topo.workers.machineDeployments) {
    // A missing class is reported above; CAPI skips this check then.
    const cls = bp.machineDeployments.get(md.class)?.cls;
    if (
      cls &&
      md.healthCheck?.enabled === true &&
      !md.healthCheck.checks &&
      !md.healthCheck.remediation &&
      !cls.healthCheck
    ) {
      enabledWithoutDefinition(`${keyed('spec.topology.workers.machineDeployments', md.name)}.healthCheck.enable`);
    }
  }

  if (results.length > 0) return { results };
  return { cluster: { ...input, topology: { ...topo, version } }, results };
}

/**
 * The CAPI core/webhooks/admission/cluster.go rules `validateClusterTopology` does not cover: clusterNetwork CIDRs (rule 3), topology
 * metadata, MD rollout strategies and taints (rule 6, per CAPI release: ./rules.ts `topologyTaintResults`), the
 * upgrade-concurrency annotation (rule 7), health-check value rules of the topology (rule 8) and
 * autoscaler annotations vs replicas (rule 10; the class part only when `cc` is given).
 */
export function validateClusterDeep(cluster: Cluster, ref: ObjectRef, capi: CapiProfile, cc?: ClusterClass): Result[] {
  const results: Result[] = [];
  const topo = cluster.topology;
  const mdPath = (name: string) => keyed('spec.topology.workers.machineDeployments', name);
  const mpPath = (name: string) => keyed('spec.topology.workers.machinePools', name);

  results.push(
    ...toResults(
      cidrErrors(cluster.clusterNetwork?.pods?.cidrBlocks, 'spec.clusterNetwork.pods.cidrBlocks'),
      ref,
      'cidr',
    ),
  );
  results.push(
    ...toResults(
      cidrErrors(cluster.clusterNetwork?.services?.cidrBlocks, 'spec.clusterNetwork.services.cidrBlocks'),
      ref,
      'cidr',
    ),
  );

  results.push(
    ...toResults(metadataErrors(topo.controlPlane.metadata, 'spec.topology.controlPlane.metadata'), ref, 'metadata'),
  );
  for (const md of topo.workers.machineDeployments)
    results.push(...toResults(metadataErrors(md.metadata, `${mdPath(md.name)}.metadata`), ref, 'metadata'));
  for (const mp of topo.workers.machinePools)
    results.push(...toResults(metadataErrors(mp.metadata, `${mpPath(mp.name)}.metadata`), ref, 'metadata'));

  for (const md of topo.workers.machineDeployments) {
    results.push(
      ...toResults(
        rolloutStrategyErrors(md.rollout?.strategy, `${mdPath(md.name)}.rollout.strategy`),
        ref,
        'rollout-strategy',
      ),
    );
  }

  results.push(
    ...topologyTaintResults(
      [
        {
          taints: topo.controlPlane.taints,
          path: 'spec.topology.controlPlane.taints',
          indexPath: 'spec.topology.controlPlane.taints',
        },
        ...topo.workers.machineDeployments.map((md, i) => ({
          taints: md.taints,
          path: `${mdPath(md.name)}.taints`,
          indexPath: `spec.topology.workers.machineDeployments[${i}].taints`,
        })),
        ...topo.workers.machinePools.map((mp, i) => ({
          taints: mp.taints,
          path: `${mpPath(mp.name)}.taints`,
          indexPath: `spec.topology.workers.machinePools[${i}].taints`,
        })),
      ],
      ref,
      capi,
    ),
  );

  results.push(...toResults(upgradeConcurrencyErrors(cluster.metadata.annotations), ref, 'upgrade-concurrency'));

  results.push(
    ...toResults(
      healthCheckErrors(topo.controlPlane.healthCheck, 'spec.topology.controlPlane.healthCheck', {
        maxInFlight: false,
        startupTimeout: true,
      }),
      ref,
      'health-check',
    ),
  );
  for (const md of topo.workers.machineDeployments) {
    results.push(
      ...toResults(
        healthCheckErrors(md.healthCheck, `${mdPath(md.name)}.healthCheck`, {
          maxInFlight: true,
          startupTimeout: true,
        }),
        ref,
        'health-check',
      ),
    );
  }

  for (const md of topo.workers.machineDeployments) {
    if (md.replicas === undefined) continue;
    const path = `${mdPath(md.name)}.replicas`;
    if (hasAutoscalerAnnotations(md.metadata)) {
      const detail = `cannot be set for cluster "${cluster.name}" in namespace "${cluster.namespace}" if the same MachineDeploymentTopology has autoscaler annotations`;
      results.push(
        ...toResults([invalid(path, md.replicas, withFix(detail, FIX.autoscalerTopology))], ref, 'autoscaler'),
      );
    }
    const cls = cc?.workers.machineDeployments.find((c) => c.class === md.class);
    if (cls && hasAutoscalerAnnotations(cls.metadata)) {
      const detail = `cannot be set for cluster "${cluster.name}" in namespace "${cluster.namespace}" if the source class "${md.class}" of this MachineDeploymentTopology has autoscaler annotations`;
      results.push(
        ...toResults([invalid(path, md.replicas, withFix(detail, FIX.autoscalerClass(md.class)))], ref, 'autoscaler'),
      );
    }
  }
  return results;
}
