/**
 * ClusterClass rules of the admission webhook (CAPI core/webhooks/admission/clusterclass.go) that need no other
 * stage: template references, unique worker classes, health checks, naming templates.
 * Variable rules live with their stage (src/variables); patch rules are in ./patches.ts.
 */
import type { ClusterClass, HealthCheck, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { CapiProfile } from '../core/capi-release.js';
import { generateStableName, type StableRole } from '../names/names.js';
import { dns1123SubdomainErrors } from '../core/go/k8s-validation.js';
import { forbidden, invalid, type FieldError } from '../core/fielderror.js';
import {
  healthCheckErrors,
  kubernetesVersionsErrors,
  metadataErrors,
  rolloutStrategyErrors,
  startupTimeoutErrors,
  topologyTaintResults,
} from './rules.js';
import { validateClusterClassPatches } from './patches.js';
import { FIX, keyed, toResults, withFix } from '../core/fixes.js';
import { templateRefsOf } from '../api/refs.js';

function validateClusterClass(cc: ClusterClass, ref: ObjectRef): Result[] {
  return [
    ...toResults(templateRefErrors(cc), ref, 'template-ref'),
    ...toResults(uniqueClassErrors(cc), ref, 'unique-class'),
    ...toResults(classHealthCheckErrors(cc), ref, 'health-check'),
    ...toResults(namingTemplateErrors(cc), ref, 'naming-template'),
  ];
}

/** Every template reference names a `<name>Template` kind with a valid apiVersion. */
function templateRefErrors(cc: ClusterClass): FieldError[] {
  const errors: FieldError[] = [];
  for (const r of templateRefsOf(cc)) {
    if (!r.kind.endsWith('Template') || r.kind === 'Template') {
      errors.push(
        invalid(
          `${r.fieldPath}.kind`,
          r.kind,
          withFix('template kind must be of form "<name>Template"', FIX.templateKind),
        ),
      );
    }
    if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(r.apiVersion)) {
      errors.push(
        invalid(
          `${r.fieldPath}.apiVersion`,
          r.apiVersion,
          withFix('template apiVersion must be a valid Kubernetes apiVersion', FIX.templateApiVersion),
        ),
      );
    }
  }
  return errors;
}

/** Each MachineDeployment and MachinePool class is defined once. */
function uniqueClassErrors(cc: ClusterClass): FieldError[] {
  const errors: FieldError[] = [];
  for (const [kind, list] of [
    ['MachineDeployment', cc.workers.machineDeployments],
    ['MachinePool', cc.workers.machinePools],
  ] as const) {
    const seen = new Set<string>();
    for (const w of list) {
      if (seen.has(w.class)) {
        errors.push(
          invalid(
            `${w.fieldPath}.class`,
            w.class,
            withFix(
              `${kind} class must be unique. ${kind} with class "${w.class}" is defined more than once`,
              FIX.duplicate,
            ),
          ),
        );
      }
      seen.add(w.class);
    }
  }
  return errors;
}

/** A control plane health check needs a machine infrastructure; node startup timeouts must be valid. */
function classHealthCheckErrors(cc: ClusterClass): FieldError[] {
  const errors: FieldError[] = [];
  if (cc.controlPlane.healthCheck && !cc.controlPlane.machineInfrastructure) {
    errors.push(
      forbidden(
        'spec.controlPlane.healthCheck',
        withFix(
          'can be only set if spec.controlPlane.machineInfrastructure is set',
          FIX.classHealthCheckNeedsMachineInfrastructure,
        ),
      ),
    );
  }
  const startup = (hc: HealthCheck | undefined, path: string) =>
    startupTimeoutErrors(hc?.checks?.nodeStartupTimeoutSeconds, `${path}.checks.nodeStartupTimeoutSeconds`);
  errors.push(...startup(cc.controlPlane.healthCheck, 'spec.controlPlane.healthCheck'));
  for (const md of cc.workers.machineDeployments)
    errors.push(...startup(md.healthCheck, `${keyed('spec.workers.machineDeployments', md.class)}.healthCheck`));
  return errors;
}

/** Naming templates are rendered once with sample names, as the webhook does (CAPI core/webhooks/admission/clusterclass.go `validateNamingStrategies`). */
function namingTemplateErrors(cc: ClusterClass): FieldError[] {
  const errors: FieldError[] = [];
  const naming = (
    template: string | undefined,
    path: string,
    what: string,
    role: StableRole,
    topologyKey?: 'machineDeployment' | 'machinePool',
  ) => {
    if (template === undefined) return;
    const sample = generateStableName({
      role,
      namespace: cc.namespace,
      clusterName: 'cluster',
      template,
      ...(topologyKey
        ? { topologyKey, topologyName: topologyKey === 'machineDeployment' ? 'mdtopology' : 'mptopology' }
        : {}),
    });
    if (!sample.ok) {
      errors.push(
        invalid(path, template, withFix(`invalid ${what} name template: ${sample.error}`, FIX.namingTemplateSyntax)),
      );
      return;
    }
    for (const m of dns1123SubdomainErrors(sample.name))
      errors.push(invalid(path, template, withFix(m, FIX.namingTemplateName)));
  };
  naming(
    cc.infrastructure?.naming?.template,
    'spec.infrastructure.naming.template',
    'InfraCluster',
    'infrastructure-cluster',
  );
  naming(cc.controlPlane.naming?.template, 'spec.controlPlane.naming.template', 'ControlPlane', 'control-plane');
  for (const md of cc.workers.machineDeployments) {
    naming(
      md.naming?.template,
      `spec.workers.machineDeployments[${md.class}].naming.template`,
      'MachineDeployment',
      'machine-deployment',
      'machineDeployment',
    );
  }
  for (const mp of cc.workers.machinePools) {
    naming(
      mp.naming?.template,
      `spec.workers.machinePools[${mp.class}].naming.template`,
      'MachinePool',
      'machine-pool',
      'machinePool',
    );
  }
  return errors;
}

/**
 * The CAPI core/webhooks/admission/clusterclass.go create rules `validateClusterClass` and the variables stage do not cover: MD rollout
 * strategies (rule 4), `triggerIf.unhealthyLessThanOrEqualTo` and `maxInFlight` (rule 5), taints
 * (rule 7, per CAPI release and MachineTaintPropagation: ./rules.ts `topologyTaintResults`), patches (rule 9, CAPI core/webhooks/admission/patch_validation.go `validatePatches`; src/webhooks/patches.ts),
 * class metadata (rule 10) and `kubernetesVersions` (rule 11). Paths use class names as keys, like
 * CAPI's webhook (patch paths use indexes, as CAPI's do).
 */
export function validateClusterClassDeep(cc: ClusterClass, ref: ObjectRef, capi: CapiProfile): Result[] {
  const mdPath = (cls: string) => keyed('spec.workers.machineDeployments', cls);
  const mpPath = (cls: string) => keyed('spec.workers.machinePools', cls);
  const results: Result[] = [];
  for (const md of cc.workers.machineDeployments) {
    results.push(
      ...toResults(
        rolloutStrategyErrors(md.rollout?.strategy, `${mdPath(md.class)}.rollout.strategy`),
        ref,
        'rollout-strategy',
      ),
    );
  }
  results.push(
    ...toResults(
      healthCheckErrors(cc.controlPlane.healthCheck, 'spec.controlPlane.healthCheck', {
        maxInFlight: false,
        startupTimeout: false,
      }),
      ref,
      'health-check',
    ),
  );
  for (const md of cc.workers.machineDeployments) {
    results.push(
      ...toResults(
        healthCheckErrors(md.healthCheck, `${mdPath(md.class)}.healthCheck`, {
          maxInFlight: true,
          startupTimeout: false,
        }),
        ref,
        'health-check',
      ),
    );
  }
  results.push(
    ...topologyTaintResults(
      [
        { taints: cc.controlPlane.taints, path: 'spec.controlPlane.taints', indexPath: 'spec.controlPlane.taints' },
        ...cc.workers.machineDeployments.map((md, i) => ({
          taints: md.taints,
          path: `${mdPath(md.class)}.taints`,
          indexPath: `spec.workers.machineDeployments[${i}].taints`,
        })),
        ...cc.workers.machinePools.map((mp, i) => ({
          taints: mp.taints,
          path: `${mpPath(mp.class)}.taints`,
          indexPath: `spec.workers.machinePools[${i}].taints`,
        })),
      ],
      ref,
      capi,
    ),
  );
  results.push(...validateClusterClassPatches(cc, ref, capi));
  results.push(...toResults(metadataErrors(cc.controlPlane.metadata, 'spec.controlPlane.metadata'), ref, 'metadata'));
  for (const md of cc.workers.machineDeployments)
    results.push(...toResults(metadataErrors(md.metadata, `${mdPath(md.class)}.template.metadata`), ref, 'metadata'));
  for (const mp of cc.workers.machinePools)
    results.push(...toResults(metadataErrors(mp.metadata, `${mpPath(mp.class)}.template.metadata`), ref, 'metadata'));
  results.push(...toResults(kubernetesVersionsErrors(cc.kubernetesVersions), ref, 'kubernetes-versions'));
  return results;
}

/** Every create rule of CAPI's ClusterClass webhook (`validateClusterClass` and the deep rules above). */
export const classWebhookResults = (cc: ClusterClass, ref: ObjectRef, capi: CapiProfile): Result[] => [
  ...validateClusterClass(cc, ref),
  ...validateClusterClassDeep(cc, ref, capi),
];
