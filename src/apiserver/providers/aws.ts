/** The defaulting webhooks of CAPA (cluster-api-provider-aws): AWSCluster(Template). */
import type { JsonObject } from '../../core/model.js';
import { isJsonObject } from '../../core/go/json.js';
import { child, childAt, unset, type AdmissionWebhook } from './webhook.js';

/**
 * What Go's encoding/json writes for a struct that was decoded from the object: controller-runtime's
 * defaulting webhook (`pkg/webhook/admission/defaulter_custom.go`, `Handle`) decodes the object into
 * the Go type, runs `Default()`, marshals it and answers with the JSON patch from the request to
 * that, minus removals (`dropSchemeRemovals`). So the patch adds every field Go writes although the
 * request lacked it: a non-pointer struct always (omitempty never omits a struct), a scalar without
 * omitempty as its zero value. Only the fields that add something are listed.
 */
type GoField = { zero: string | number | boolean } | { struct: GoStruct } | { pointer: GoStruct } | { list: GoStruct };
type GoStruct = { readonly [jsonName: string]: GoField };

/** Writes what the Go round trip of `type` adds to `o` (a value of another JSON type is left alone: Go could not decode it). */
function goRoundTrip(o: JsonObject, type: GoStruct): void {
  for (const [k, field] of Object.entries(type)) {
    if ('zero' in field) {
      if (o[k] === undefined || o[k] === null) o[k] = field.zero;
    } else if ('struct' in field) {
      const s = child(o, k);
      if (s) goRoundTrip(s, field.struct);
    } else if ('pointer' in field) {
      const p = o[k];
      if (isJsonObject(p)) goRoundTrip(p, field.pointer);
    } else {
      const items = o[k];
      for (const item of Array.isArray(items) ? items : []) if (isJsonObject(item)) goRoundTrip(item, field.list);
    }
  }
}

const CAPA = 'kubernetes-sigs/cluster-api-provider-aws';
const GO_STRING = { zero: '' } as const;
const GO_INT = { zero: 0 } as const;
const GO_BOOL = { zero: false } as const;
/** `IngressRule` and `CNIIngressRule` (api/v1beta2/network_types.go): four fields without omitempty. */
const INGRESS_RULE: GoStruct = { description: GO_STRING, protocol: GO_STRING, fromPort: GO_INT, toPort: GO_INT };
/** `AWSLoadBalancerSpec` (api/v1beta2/awscluster_types.go). */
const AWS_LOAD_BALANCER: GoStruct = {
  crossZoneLoadBalancing: GO_BOOL,
  additionalListeners: { list: { port: GO_INT } },
  ingressRules: { list: INGRESS_RULE },
};
/**
 * `AWSClusterSpec` (api/v1beta2/awscluster_types.go, network types in network_types.go) at
 * CAPA 2cf09d78: `network` (NetworkSpec) and its `vpc` (VPCSpec), `controlPlaneEndpoint`
 * (CAPI v1beta1 APIEndpoint: `host`, `port` without omitempty) and `bastion` are non-pointer
 * structs; every other struct is a pointer or a list item.
 */
const AWS_CLUSTER_SPEC: GoStruct = {
  network: {
    struct: {
      vpc: { struct: { secondaryCidrBlocks: { list: { ipv4CidrBlock: GO_STRING } } } },
      subnets: { list: { id: GO_STRING, isPublic: GO_BOOL } },
      cni: { pointer: { cniIngressRules: { list: INGRESS_RULE } } },
      additionalControlPlaneIngressRules: { list: INGRESS_RULE },
      additionalNodeIngressRules: { list: INGRESS_RULE },
    },
  },
  controlPlaneEndpoint: { struct: { host: GO_STRING, port: GO_INT } },
  controlPlaneLoadBalancer: { pointer: AWS_LOAD_BALANCER },
  secondaryControlPlaneLoadBalancer: { pointer: AWS_LOAD_BALANCER },
  bastion: { struct: { enabled: GO_BOOL } },
  identityRef: { pointer: { name: GO_STRING, kind: GO_STRING } },
  s3Bucket: { pointer: { name: GO_STRING } },
};

/**
 * CAPA's defaulters of an `AWSClusterSpec` (api/v1beta2/defaults.go), in the order
 * `SetObjectDefaults_AWSCluster(Template)` (zz_generated.defaults.go) calls them.
 */
function awsClusterSpecDefaults(spec: JsonObject): void {
  // SetDefaults_AWSClusterSpec: the controller identity; an internet-facing classic load balancer;
  // a secondary load balancer is an internal NLB unless said otherwise.
  if (spec.identityRef === undefined || spec.identityRef === null)
    spec.identityRef = { kind: 'AWSClusterControllerIdentity', name: 'default' };
  if (spec.controlPlaneLoadBalancer === undefined || spec.controlPlaneLoadBalancer === null)
    spec.controlPlaneLoadBalancer = { scheme: 'internet-facing' };
  const lb = spec.controlPlaneLoadBalancer;
  if (isJsonObject(lb) && unset(lb.loadBalancerType)) lb.loadBalancerType = 'classic';
  const secondary = spec.secondaryControlPlaneLoadBalancer;
  if (isJsonObject(secondary)) {
    if (unset(secondary.loadBalancerType)) secondary.loadBalancerType = 'nlb';
    if (secondary.scheme === undefined || secondary.scheme === null) secondary.scheme = 'internal';
  }
  // SetDefaults_NetworkSpec: Calico's ingress rules when no CNI is given.
  const network = child(spec, 'network');
  if (network && (network.cni === undefined || network.cni === null)) {
    network.cni = {
      cniIngressRules: [
        { description: 'bgp (calico)', protocol: 'tcp', fromPort: 179, toPort: 179 },
        { description: 'IP-in-IP (calico)', protocol: '4', fromPort: -1, toPort: 65535 },
      ],
    };
  }
  // SetDefaults_Bastion: open access when no CIDR blocks are set and ingress rules are not disabled.
  const bastion = child(spec, 'bastion');
  const blocks = bastion?.allowedCIDRBlocks;
  if (bastion && (!Array.isArray(blocks) || blocks.length === 0) && bastion.disableIngressRules !== true)
    bastion.allowedCIDRBlocks = ['0.0.0.0/0', '::/0'];
  goRoundTrip(spec, AWS_CLUSTER_SPEC);
}

/**
 * CAPA AWSCluster, `webhooks/awscluster_webhook.go` `Default()` → `SetObjectDefaults_AWSCluster`,
 * then the Go round trip. (Go also writes the non-pointer `status`; the API server resets the
 * status of a create request, so it is left out.)
 */
function awsClusterDefaults(obj: JsonObject): void {
  const spec = child(obj, 'spec');
  if (spec) awsClusterSpecDefaults(spec);
}

/**
 * CAPA AWSClusterTemplate, `webhooks/awsclustertemplate_webhook.go` `Default()` →
 * `SetObjectDefaults_AWSClusterTemplate` (every request, not only dry runs), then the Go round
 * trip, which writes `spec.template.metadata` (CAPI v1beta1 ObjectMeta) and `network.vpc`: the
 * path the `capa-ci-default` class's `limitAZ` patch replaces once the CRD defaulted
 * `vpc.availabilityZoneUsageLimit`.
 */
function awsClusterTemplateDefaults(obj: JsonObject): void {
  const template = childAt(obj, 'spec', 'template');
  if (!template) return;
  child(template, 'metadata');
  const spec = child(template, 'spec');
  if (spec) awsClusterSpecDefaults(spec);
}

export const AWS_WEBHOOKS: readonly AdmissionWebhook[] = [
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'AWSCluster',
    versions: ['v1beta2'],
    source: `${CAPA} webhooks/awscluster_webhook.go (SetObjectDefaults_AWSCluster)`,
    apply: awsClusterDefaults,
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'AWSClusterTemplate',
    versions: ['v1beta2'],
    source: `${CAPA} webhooks/awsclustertemplate_webhook.go (SetObjectDefaults_AWSClusterTemplate)`,
    apply: awsClusterTemplateDefaults,
  },
];
