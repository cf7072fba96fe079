// The differences between render-clusterclass and CAPI's own code that are known, each with an id
// documented in test/oracle/DIVERGENCES.md (reproduction, the CAPI file and function, whether it
// depends on the CAPI version). classify() names the divergence a difference belongs to; a
// difference no rule claims is `new` and must be looked at. Ids starting with `scope-` are limits
// of the oracle (what it does not run), not product divergences.

const text = (v) => JSON.stringify(v ?? '');
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
    id: 'variable-required-field',
    // CAPI's ClusterClass CRD (v1.11+) requires spec.variables[].required; the product accepts a
    // variable without it unless CAPI's CRDs are given.
    match: (d) => onlyMissing(d, /^spec\.variables\[\d+\]\.required Required value/),
  },
  {
    id: 'class-refused-on-update',
    // A new Cluster of a ClusterClass whose update is refused (class-update-order): CAPI keeps the
    // previous class and renders the Cluster against it; the product renders nothing, since in
    // the other apply order the class is accepted and the render is the new class's.
    match: (d) => d.kind === 'render' && Array.isArray(d.product?.notRendered) && d.product.notRendered.some((m) => /is refused on update/.test(m)),
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
