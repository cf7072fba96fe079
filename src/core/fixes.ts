/**
 * Fix hints: every rule's message is CAPI's text, verbatim (users search for it), then `; ` and
 * a fix from `FIX`, the one table of fix hints. Field errors become results here.
 */
import type { ObjectRef } from './model.js';
import type { Result, Severity } from './result.js';
import { errorBody, type FieldError } from './fielderror.js';

/** What to do about each rule's error: short, concrete, imperative. */
export const FIX = {
  templateKind:
    'reference the template kind (it ends in "Template", e.g. DevMachineTemplate), not the kind of the object it creates',
  templateApiVersion: 'use "<group>/<version>", e.g. "infrastructure.cluster.x-k8s.io/v1beta2"',
  duplicate: 'remove the duplicate or rename one of them',
  uniqueTopologyName: 'rename one of them',
  emptyTopologyName: 'give it a name',
  workerClassMissing: (classes: readonly string[]) =>
    classes.length > 0
      ? `use one of the classes the ClusterClass defines (${classes.map((c) => `"${c}"`).join(', ')}) or add this class to it`
      : 'add this class to the ClusterClass',
  intOrPercent: 'use an integer such as 1 or a percentage such as "25%"',
  rolloutBothZero: 'set maxSurge or maxUnavailable above 0',
  startupTimeout: 'set it to 0 (no startup timeout) or to at least 30',
  classHealthCheckNeedsMachineInfrastructure:
    'set spec.controlPlane.machineInfrastructure, or remove spec.controlPlane.healthCheck',
  topologyHealthCheckNeedsMachineInfrastructure:
    'remove the control plane healthCheck from the Cluster topology, or use a ClusterClass that sets spec.controlPlane.machineInfrastructure',
  healthCheckEnabledWithoutDefinition:
    'add checks or remediation to this healthCheck, define a healthCheck in the ClusterClass, or remove enabled: true',
  namingTemplateSyntax: 'fix the Go template (e.g. "{{ .cluster.name }}-{{ .random }}")',
  namingTemplateName: "change the template so the names it generates are lower case alphanumerics, '-' and '.'",
  taintGate:
    'enable MachineTaintPropagation on the management cluster (and render with --feature-gates MachineTaintPropagation=true), or remove the taints',
  taintReserved: 'remove the taint: Cluster API manages this key',
  taintPrefix: 'remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
  taintMaster: 'use node-role.kubernetes.io/control-plane instead',
  taintKeySyntax: 'use a valid label key as taint key ([prefix/]name)',
  label: 'fix or remove this label',
  annotation: 'fix or remove this annotation',
  listCap: 'the API server refuses the ClusterClass before any webhook runs: combine entries or split the class',
  classVersionSyntax: 'write versions as v<major>.<minor>.<patch>, e.g. v1.32.0',
  classVersionOrder: 'list each version once, in increasing order',
  classVersionGap: 'add a version for every minor in between',
  clusterVersionSyntax: 'use a version such as v1.32.0',
  clusterVersionNotListed:
    'use one of the versions in the ClusterClass spec.kubernetesVersions, or add this version there',
  clusterName: 'rename the Cluster',
  cidr: 'use CIDR notation such as 10.0.0.0/16 or fd00::/108',
  upgradeConcurrency: 'set the annotation to a whole number of at least 1, e.g. "1"',
  autoscalerTopology: 'remove replicas (the autoscaler sets them) or remove the autoscaler annotations',
  autoscalerClass: (cls: string) =>
    `remove replicas (the autoscaler sets them) or remove the autoscaler annotations from class "${cls}"`,
  // Update rules (CAPI core/webhooks/admission/clusterclass.go rules 12–13, CAPI core/webhooks/admission/cluster.go rules 12–13; src/webhooks/compatibility.ts).
  templateChange:
    'keep the previous API group and kind (switching provider or template kind needs a new ClusterClass and new Clusters)',
  classAppliedFirst: (clusters: readonly string[]) =>
    `this refusal depends on the order the change is applied in: CAPI gives it when this ClusterClass is applied while ${clusters.length > 0 ? `Cluster(s) ${clusters.map((c) => `"${c}"`).join(', ')} still are` : 'its Clusters still are'} as in the previous state (Argo CD applies both in the same sync wave), not when they are applied first (kustomize's legacy order puts Clusters before ClusterClasses). To apply in any order, land the Clusters' change first and this ClusterClass change in a later commit`,
  usedBy: (clusters: readonly string[]) => `used by Cluster(s) ${clusters.map((c) => `"${c}"`).join(', ')}`,
  workerClassInUse: (cluster: string, key: string, cls: string) =>
    `keep the class until no Cluster uses it (move Cluster "${cluster}"'s ${key} of class "${cls}" to another class first)`,
  healthCheckInUse: 'keep it, or give those Clusters their own healthCheck definition first',
  variableInUse: (name: string) => `keep the variable until those Clusters stop setting "${name}"`,
  variableSchemaInUse: (failures: readonly string[]) =>
    `make the schema accept the values in use or update those Clusters first (${failures.join('; ')})`,
  variableNewlyRequired: 'give the variable a default, or set it in those Clusters first',
  kubernetesVersionInUse: (version: string, cluster: string) =>
    `add ${version} to spec.kubernetesVersions, or move Cluster "${cluster}" to a listed version first`,
  autoscalerClassInUse: (cls: string, cluster: string) =>
    `remove the autoscaler annotations from class "${cls}" or unset replicas in Cluster "${cluster}"`,
  classChange: (path: string, oldKey: string, newKey: string) =>
    `${path} differs between the previous ClusterClass "${oldKey}" and ClusterClass "${newKey}": keep class "${oldKey}", or move to a class whose templates have the same API groups and kinds`,
  previousClassMissing: 'add the previous ClusterClass to the previous state so the change can be checked',
  versionDecreased: (old: string) => `Kubernetes cannot be downgraded: restore version v${old} (or later)`,
  versionChangeUnreconciled: (old: string) =>
    `the previous Cluster never reconciled (its render fails, so CAPI has not created its control plane): land its fix at version v${old} first, then change the version`,
  versionChangeUpgrading: (old: string) =>
    `wait until the observed objects have finished their upgrade to v${old}, then change the version`,
  versionCeiling: (nextMinor: string) =>
    `upgrade one minor version at a time (to ${nextMinor} first), or list the versions in the ClusterClass spec.kubernetesVersions`,
  // Cluster variables (CAPI internal/topology/variables/cluster_variable_validation.go, cluster_variable_defaulting.go; src/variables/index.ts).
  variableNearName: (name: string, otherwise: string) => `did you mean "${name}"? Otherwise ${otherwise}`,
  variableNotDefaulted: (field: string) =>
    `this follows from the error at ${field}: while it stands, Cluster API defaults none of the variables, and this one has a default (fixing that error sets it)`,
  // ClusterClass variable definitions (CAPI internal/topology/variables/clusterclass_variable_validation.go, src/variables/classvalidation.ts).
  variableName: 'give the variable a name',
  variableBuiltin: 'choose another name: "builtin" holds the variables Cluster API provides',
  variableDot: 'use a name without "." (nest values in an object schema instead)',
  schemaType: 'set type, or set x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields to true',
  schemaItems: 'add an items schema',
  schemaPreserveFalse: 'remove x-kubernetes-preserve-unknown-fields or set it to true',
  schemaNested:
    'only value validations (e.g. minimum, pattern, enum) may appear inside allOf, anyOf, oneOf and not: move this field to the schema node itself',
  schemaTypeValue: 'use one of the supported types',
  schemaPattern: 'write the pattern in RE2 syntax (no lookaround, no backreferences)',
  schemaPropertiesXorAdditional: 'keep either properties or additionalProperties',
  schemaDefaultUnknown: 'remove the fields the schema does not declare from the default, or declare them',
  schemaDefault: 'change the default so it satisfies the schema',
  schemaDefaultRootArrayRules:
    'drop the default (an empty list passes) or make the variable an object holding the list: these rules cannot be checked against the default of a list',
  schemaExample: 'change the example so it satisfies the schema',
  schemaEnum: 'change or remove this enum value so it satisfies the schema',
  celRule: 'set rule to a CEL expression',
  celMessage: 'remove message or give it text on one line of at most 2048 characters',
  celMessageForMultiLineRule: 'add a message, or write the rule on one line',
  celMessageExpression: 'remove messageExpression or give it an expression',
  celReason: 'use one of the supported reasons, or omit reason',
  celFieldPath: 'point fieldPath at a field of this schema (e.g. ".name"), or omit it',
  celCompile: 'fix the CEL expression',
  celOldSelfInItems: 'move the rule to the array itself, or do not use oldSelf',
  // ClusterClass patches (CAPI core/webhooks/admission/patch_validation.go `validatePatches`, CAPI core/webhooks/admission/clusterclass.go rule 9; src/webhooks/patches.ts). The four value rules are
  // also the patch engine's own render-time checks (CAPI core/reconcilers/topology/cluster/patches/variables/value.go, src/patches/compile.ts).
  patchValueMissing: 'set value or valueFrom',
  patchValueBoth: 'set only one of value and valueFrom',
  patchValueFromMissing: 'set valueFrom.variable or valueFrom.template',
  patchValueFromBoth: 'set only one of valueFrom.variable and valueFrom.template',
  patchName: 'give the patch a name',
  patchNameInline: 'choose another name: "inline" is reserved',
  patchDefinitionsOrExternal: 'add definitions (inline JSON patches) or external (a Runtime Extension)',
  patchDefinitionsAndExternal: 'keep one of definitions and external, and move the other into a patch of its own',
  patchExternalExtension: 'set generatePatchesExtension or validateTopologyExtension',
  patchExternalRuntimeSdk:
    'if the management cluster runs RuntimeSDK=true, say so: --extensions or --replay-extensions (call the extension), skipExternalPatches (render without it) or --feature-gates RuntimeSDK=true',
  patchOp: 'use add, replace or remove',
  patchPath: 'patch the template\'s spec: start the path with "/spec/" (e.g. /spec/template/spec/...)',
  patchArrayAdd: 'use "0" to prepend or "-" to append; to change other elements, replace the whole array',
  patchArrayElement: 'address the whole array (its parent field) instead of one element',
  patchValueJson: 'use a value that can be written as JSON',
  patchTemplate: 'fix the Go template (text/template with sprig functions)',
  patchBuiltin: (allowed: readonly string[]) =>
    `use one of ${allowed.join(', ')} (valueFrom.template can read any other builtin field)`,
  patchVariable: (name: string) =>
    `define variable "${name}" in spec.variables or fix the name (variables discovered by a Runtime Extension do not count here)`,
  patchVariablePanic: 'name a variable: the path must not consist only of "." and "["',
  patchSelectorNone:
    'enable at least one of matchResources.infrastructureCluster, controlPlane, machineDeploymentClass.names or machinePoolClass.names',
  patchSelectorTemplate: (where: string, refs: readonly string[]) =>
    refs.length > 0
      ? `set the selector apiVersion and kind to those of ${where} (${refs.join(' or ')}), or disable this match`
      : `the ClusterClass has no ${where}: disable this match`,
  patchSelectorStars: 'use at most one "*"',
  patchSelectorStarPosition: 'put the "*" at the beginning or the end of the name',
  patchSelectorName:
    "use a class name pattern of alphanumerics, '-', '_' and '.' with an optional leading or trailing \"*\"",
  patchSelectorWorkerClass: (kind: string, matching: readonly string[]) =>
    matching.length > 0
      ? `name one of the ${kind} classes whose bootstrap or infrastructure template has the selector's apiVersion and kind (${matching.map((c) => `"${c}"`).join(', ')})`
      : `no ${kind} class has a bootstrap or infrastructure template with the selector's apiVersion and kind: fix the selector apiVersion and kind`,
} as const;
/** CAPI's `detail`, then the fix. */
export const withFix = (detail: string, fix: string): string => `${detail}; ${fix}`;
/** The same error with `fix` appended to its detail. */
export const fixed = (e: FieldError, fix: string): FieldError => ({
  ...e,
  detail: e.detail === '' ? fix : withFix(e.detail, fix),
});
export const child = (base: string, ...names: string[]): string => [base, ...names].filter((s) => s !== '').join('.');
export const keyed = (base: string, key: string): string => `${base}[${key}]`;
export function toResults(
  errors: readonly FieldError[],
  ref: ObjectRef,
  rule: string,
  severity: Severity = 'error',
  tags?: Record<string, string>,
): Result[] {
  return errors.map((e) => ({
    severity,
    message: errorBody(e),
    resourceRef: ref,
    field: { path: e.field },
    tags: { ...tags, rule },
  }));
}
/** A label/annotation error from `validateMetadata` with the matching fix. */
export const metadataFix = (e: FieldError): FieldError =>
  fixed(e, /\.labels(\[|$)/.test(e.field) ? FIX.label : FIX.annotation);
