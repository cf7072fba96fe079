// The differences between render-clusterclass and CAPI's own code that are known, each with an id
// documented in test/oracle/DIVERGENCES.md (reproduction, the CAPI file and function, whether it
// depends on the CAPI version). classify() names the divergence a difference belongs to; a
// difference no rule claims is `new` and must be looked at. Ids starting with `scope-` are limits
// of the oracle (what it does not run), not product divergences.

const text = (v) => JSON.stringify(v ?? '');
const refusedBy = (d, pattern) => pattern.test(text(d.oracle));
const subjectKind = (d) => d.subject.split(' ')[0];

/** The causes of the oracle's refusal in a verdict difference (type, field, message). */
const oracleCauses = (d) => d.oracle?.errors ?? (Array.isArray(d.oracle?.refused) && typeof d.oracle.refused[0] === 'object' ? d.oracle.refused : []);
/** The field paths the product refused at. */
const productFields = (d) => (Array.isArray(d.product?.refused) ? d.product.refused : []);
/** The oracle's causes at fields the product did not refuse at, and the product's other fields. */
const missing = (d) => oracleCauses(d).filter((e) => !productFields(d).includes(e.field));
const extra = (d) => productFields(d).filter((f) => !oracleCauses(d).some((e) => e.field === f));

/**
 * A verdict difference that is only CAPI refusing for `pattern` (matched against each missing
 * cause's field and message) where the product does not: nothing else differs.
 */
const onlyMissing = (d, pattern) => d.kind === 'verdict' && missing(d).length > 0 && missing(d).every((e) => pattern.test(`${e.field} ${e.message}`)) && extra(d).length === 0;

/** Kinds whose provider defaulting webhook the product emulates (README "Provider defaulting webhooks"). */
const EMULATED = /^(AWSClusterTemplate|AWSCluster|AzureClusterTemplate|AzureCluster|AzureManagedControlPlaneTemplate|AzureManagedControlPlane|DevClusterTemplate|DevCluster|KubeadmControlPlane)$/;

const DIVERGENCES = [
  {
    id: 'scope-provider-webhooks',
    // The product reads templates as stored after the provider's defaulting webhook; the oracle
    // runs no provider code, so it sees them without those defaults (and refuses what only the
    // webhook makes valid, or fails a patch on a path only the webhook creates).
    match: (d, c) =>
      c.fixture !== undefined &&
      ((d.kind === 'object' && EMULATED.test(d.objectKind ?? '')) ||
        (d.kind === 'verdict' && EMULATED.test(subjectKind(d)) && d.product === 'accepted') ||
        (d.kind === 'render' && /doc is missing path|not successfully reconciled/.test(text(d.oracle)) && /capa-ci-default|capz-aks-clusterclass/.test(c.fixture))),
  },
  {
    id: 'scope-unreconciled-previous',
    // A version change is refused while the previous Cluster's topology never reconciled (no
    // control plane reference); the product, given only the previous inputs, cannot know.
    match: (d) => d.kind === 'verdict' && refusedBy(d, /failed to get control plane object: cannot get object - object reference not set/),
  },
  {
    id: 'variable-required-field',
    // CAPI's ClusterClass CRD (v1.11+) requires spec.variables[].required; the product accepts a
    // variable without it unless CAPI's CRDs are given.
    match: (d) => onlyMissing(d, /^spec\.variables\[\d+\]\.required Required value/),
  },
  {
    id: 'defaulting-before-schema',
    // The Cluster defaulting webhook (mutating admission) runs before the API server validates the
    // schema: when it refuses the variables, CAPI reports only that; the product reports the
    // schema error (a duplicate list-map key) and stops before the variables.
    match: (d) =>
      d.kind === 'verdict' &&
      missing(d).length > 0 &&
      missing(d).every((e) => /^spec\.topology\.variables\[/.test(e.field)) &&
      extra(d).length > 0 &&
      extra(d).every((f) => /^spec\.topology\.workers\.(machineDeployments|machinePools)\[\d+\]$/.test(f)),
  },
  {
    id: 'class-update-order',
    // A ClusterClass update is checked against the Clusters stored when it is applied (the
    // previous ones); the product checks it against the Clusters of the same input.
    match: (d) => onlyMissing(d, /cannot be deleted because it is used by Cluster/),
  },
  {
    id: 'anyof-error-path',
    // A value matching no branch of an anyOf (int-or-string): CAPI (kube-openapi's validator)
    // reports `must validate at least one schema (anyOf)` at the parent, the product at the value.
    match: (d) =>
      d.kind === 'verdict' &&
      missing(d).length > 0 &&
      missing(d).every((e) => /must validate at least one schema \(anyOf\)/.test(e.message)) &&
      extra(d).length === 0,
  },
  {
    id: 'anyof-best-failure',
    // A value matching no branch of an anyOf: kube-openapi's validator (schema_props.go
    // schemaPropsValidator.Validate) adds the errors of the best-matching branch to the anyOf
    // error ("count in body must be of type integer", "Checked value must be of type integer
    // (default format) in count" at the parent); the product reports only the anyOf error.
    match: (d) =>
      d.kind === 'verdict' &&
      oracleCauses(d).some((e) => /must validate at least one schema \(anyOf\)/.test(e.message)) &&
      missing(d).length > 0 &&
      missing(d).every((e) => /must validate at least one schema \(anyOf\)|must be of type/.test(e.message)) &&
      extra(d).length === 0,
  },
  {
    id: 'expand-cluster-namespace',
    // The Cluster written in classic form keeps a missing namespace; CAPI's is the stored one.
    match: (d) => d.kind === 'object' && d.subject.endsWith(' Cluster') && d.fields[0].path === 'metadata.namespace' && d.fields[0].product === undefined,
  },
];

/**
 * The id of the known divergence `difference` belongs to, or 'new'. `context`: { minor, case,
 * siblings } (the CAPI minor, the generated case, the case's other differences: a consequence
 * is known by its cause).
 */
export function classify(difference, context = {}) {
  return DIVERGENCES.find((d) => d.match(difference, context))?.id ?? 'new';
}

export const DIVERGENCE_IDS = DIVERGENCES.map((d) => d.id);
