/**
 * What mutating admission does to an object before the API server validates and stores it.
 *
 * On create, the API server (1) decodes the object and applies its CRD's structural defaults,
 * (2) calls the mutating webhooks registered for its kind, (3) applies the CRD defaults again and
 * (4) validates the result against the CRD schema. `admittedObject` reproduces that order with the
 * webhooks of `WEBHOOKS` below, a small table of provider defaulting webhooks. It serves twice:
 * - validation: a rendered or input object is validated as admitted (`validateOnCreate`); the
 *   rendered output never carries its own kind's webhook defaults (CAPI's desired objects do
 *   not either; the API server adds them when the object is applied);
 * - templates as stored: the topology controller reads templates as the API server stored them,
 *   so, when a template's CRD is given, it is rendered and patched as admitted (`storedTemplate`),
 *   and the objects cloned from it carry what the live ones carry.
 *
 * Only what a webhook's `Default()` sets from the object itself is emulated. Nothing random
 * (CAPZ generates an SSH key for `sshPublicKey: ""`) and nothing that reads other objects. The
 * Go round trip of a webhook (controller-runtime patches the object to the marshalled Go struct:
 * zero-valued non-pointer structs and non-omitempty scalars are written back) is reproduced for
 * CAPA (`goRoundTrip`), and for the others only where a default below creates the same path.
 *
 * `STORED_ONLY_PATHS` names paths a patch may rely on that live templates have only as stored;
 * `withStoredTemplateHint` explains a patch failure on such a path when the template's CRD is
 * not given.
 */
import type { Json, JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { CLUSTER_NAME_LABEL } from '../core/labels.js';
import { deepCopy, isJsonObject } from '../core/go/json.js';
import { applyCrdDefaults, crdDefines, validateAgainstCrd, type CrdIndex, type CrdSubject } from './crds.js';

interface AdmissionWebhook {
  group: string;
  kind: string;
  /** API versions the defaults are written for (the webhook, or the version it is converted from). */
  versions: readonly string[];
  /** Upstream `Default()` this emulates. */
  source: string;
  /** Applies the defaults to `obj` in place (`obj` is already a private copy). */
  apply: (obj: JsonObject, version: string) => void;
}

/** A Go string field is "" when absent or null too. */
const unset = (v: Json | undefined): boolean => v === undefined || v === null || v === '';

/** The object under `key`, created when absent or null (as Go's non-pointer structs are); undefined when another type is in the way. */
function child(o: JsonObject, key: string): JsonObject | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    const created: JsonObject = {};
    o[key] = created;
    return created;
  }
  return isJsonObject(v) ? v : undefined;
}

function childAt(o: JsonObject | undefined, ...keys: string[]): JsonObject | undefined {
  let cur = o;
  for (const k of keys) {
    if (!cur) return undefined;
    cur = child(cur, k);
  }
  return cur;
}

const metaOf = (obj: JsonObject): JsonObject => (isJsonObject(obj.metadata) ? obj.metadata : {});
const nameOf = (obj: JsonObject): string => (typeof metaOf(obj).name === 'string' ? (metaOf(obj).name as string) : '');
const stringOr = (v: Json | undefined, fallback: string): string => (typeof v === 'string' ? v : fallback);

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
  if (v === undefined || v === null || (typeof v === 'string' && !v.startsWith('v'))) spec.version = `v${stringOr(v, '')}`;
  const strategy = version === 'v1beta1' ? childAt(spec, 'rolloutStrategy') : childAt(spec, 'rollout', 'strategy');
  if (!strategy) return;
  strategy.type = 'RollingUpdate';
  const rollingUpdate = child(strategy, 'rollingUpdate');
  if (rollingUpdate && (rollingUpdate.maxSurge === undefined || rollingUpdate.maxSurge === null)) rollingUpdate.maxSurge = 1;
}

const AKS_VNET_CIDR = '10.0.0.0/8';
const AKS_NODE_SUBNET_CIDR = '10.240.0.0/16';

/** `DefaultSku`: Free when unset; the deprecated Paid tier becomes Standard. */
function defaultAksSku(spec: JsonObject): void {
  if (spec.sku === undefined || spec.sku === null) spec.sku = { tier: 'Free' };
  else if (isJsonObject(spec.sku) && spec.sku.tier === 'Paid') spec.sku.tier = 'Standard';
}

/** `NormalizeVersion`: a `v` prefix on a non-empty version. */
function normalizeAksVersion(spec: JsonObject): void {
  if (typeof spec.version === 'string' && spec.version !== '' && !spec.version.startsWith('v')) spec.version = `v${spec.version}`;
}

/**
 * The Go round trip of CAPZ's defaulters: controller-runtime patches the object to the marshalled
 * Go struct and keeps additions, so the required strings of `AzureManagedControlPlaneClassSpec`
 * that have no `omitempty` (`resourceGroupName`, `location`, `version`) are written as "" when
 * absent (the CRD's `required` is then met; `version`'s minLength still applies).
 */
function aksClassSpecRoundTrip(spec: JsonObject): void {
  for (const k of ['resourceGroupName', 'location', 'version']) if (spec[k] === undefined || spec[k] === null) spec[k] = '';
}

/**
 * CAPZ AzureManagedControlPlane, `internal/webhooks/azuremanagedcontrolplane_webhook.go`
 * `Default()` with the setters of `internal/api/v1beta1/azuremanagedcontrolplane_default.go`.
 * Skipped: `SetDefaultAzureManagedControlPlaneSSHPublicKey` (`sshPublicKey: ""` becomes a freshly
 * generated random key, which cannot be reproduced; the field stays "").
 */
function azureManagedControlPlaneDefaults(obj: JsonObject): void {
  const spec = child(obj, 'spec');
  if (!spec) return;
  const name = nameOf(obj);
  const labels = isJsonObject(metaOf(obj).labels) ? (metaOf(obj).labels as JsonObject) : {};
  const clusterName = typeof labels[CLUSTER_NAME_LABEL] === 'string' ? (labels[CLUSTER_NAME_LABEL]) : undefined;
  const overlay = spec.networkPluginMode === 'overlay';

  normalizeAksVersion(spec);
  defaultAksSku(spec);
  // DefaultFleetsMember: the Cluster name, when a fleetsMember is given without a name.
  if (isJsonObject(spec.fleetsMember) && unset(spec.fleetsMember.name) && clusterName !== undefined) spec.fleetsMember.name = clusterName;
  // SetDefaultAzureManagedControlPlaneResourceGroupName: the cluster-name label.
  if (unset(spec.resourceGroupName) && clusterName !== undefined) spec.resourceGroupName = clusterName;
  const resourceGroup = stringOr(spec.resourceGroupName, '');
  // SetDefaultAzureManagedControlPlaneNodeResourceGroupName: MC_<resourceGroup>_<name>_<location>.
  if (unset(spec.nodeResourceGroupName)) spec.nodeResourceGroupName = `MC_${resourceGroup}_${name}_${stringOr(spec.location, '')}`;
  // SetDefaultAzureManagedControlPlaneVirtualNetwork and ...Subnet.
  const vnet = child(spec, 'virtualNetwork');
  if (vnet) {
    if (unset(vnet.name)) vnet.name = name;
    if (unset(vnet.cidrBlock)) vnet.cidrBlock = overlay ? '10.224.0.0/12' : AKS_VNET_CIDR;
    if (unset(vnet.resourceGroup)) vnet.resourceGroup = resourceGroup;
    const subnet = child(vnet, 'subnet');
    if (subnet) {
      if (unset(subnet.name)) subnet.name = name;
      if (unset(subnet.cidrBlock)) subnet.cidrBlock = overlay ? '10.224.0.0/16' : AKS_NODE_SUBNET_CIDR;
    }
  }
  // SetDefaultAzureManagedControlPlaneOIDCIssuerProfile: an empty profile.
  if (spec.oidcIssuerProfile === undefined || spec.oidcIssuerProfile === null) spec.oidcIssuerProfile = {};
  // SetDefaultAzureManagedControlPlaneDNSPrefix: the object's name (a nil pointer only; "" stays).
  if (spec.dnsPrefix === undefined || spec.dnsPrefix === null) spec.dnsPrefix = name;
  // SetDefaultAzureManagedControlPlaneAKSExtensions: plan name `<name>-<product>`.
  if (Array.isArray(spec.extensions)) {
    for (const ext of spec.extensions) {
      if (isJsonObject(ext) && isJsonObject(ext.plan) && unset(ext.plan.name)) ext.plan.name = `${name}-${stringOr(ext.plan.product, '')}`;
    }
  }
  aksClassSpecRoundTrip(spec);
}

/**
 * CAPZ AzureManagedControlPlaneTemplate, `internal/webhooks/azuremanagedcontrolplanetemplate_webhook.go`
 * `Default()` → `SetDefaultsAzureManagedControlPlaneTemplate` in
 * `internal/api/v1beta1/azuremanagedcontrolplanetemplate_default.go`, then the Go round trip.
 * Without it the CAPZ AKS class's template (no `resourceGroupName`, which the CRD requires) would
 * be reported although the API server accepts it.
 */
function azureManagedControlPlaneTemplateDefaults(obj: JsonObject): void {
  const spec = childAt(obj, 'spec', 'template', 'spec');
  if (!spec) return;
  if (spec.networkPlugin === undefined || spec.networkPlugin === null) spec.networkPlugin = 'azure';
  if (spec.loadBalancerSKU === undefined || spec.loadBalancerSKU === null) spec.loadBalancerSKU = 'Standard';
  if (spec.enablePreviewFeatures === undefined || spec.enablePreviewFeatures === null) spec.enablePreviewFeatures = false;
  normalizeAksVersion(spec);
  const vnet = child(spec, 'virtualNetwork');
  if (vnet) {
    if (unset(vnet.cidrBlock)) vnet.cidrBlock = AKS_VNET_CIDR;
    const subnet = child(vnet, 'subnet');
    if (subnet) {
      if (unset(subnet.name)) subnet.name = nameOf(obj);
      if (unset(subnet.cidrBlock)) subnet.cidrBlock = AKS_NODE_SUBNET_CIDR;
    }
    // Round trip: `ManagedControlPlaneVirtualNetwork.Name` has no omitempty.
    if (vnet.name === undefined || vnet.name === null) vnet.name = '';
  }
  defaultAksSku(spec);
  aksClassSpecRoundTrip(spec);
}

// ---------------------------------------------------------------- CAPZ AzureCluster(Template)

const AZURE = 'kubernetes-sigs/cluster-api-provider-azure internal/api/v1beta1';
const isIPv6Subnet = (s: JsonObject) => Array.isArray(s.cidrBlocks) && s.cidrBlocks.some((c) => typeof c === 'string' && c.includes(':'));
const subnetsOf = (net: JsonObject): JsonObject[] => {
  if (!Array.isArray(net.subnets)) net.subnets = [];
  return (net.subnets).filter(isJsonObject);
};
const withRole = (subnets: JsonObject[], role: string) => subnets.find((s) => s.role === role);
/** `SubnetClassSpecSetDefaults`: a CIDR when none is given. */
const defaultCidr = (o: JsonObject, cidr: string) => {
  if (!Array.isArray(o.cidrBlocks) || o.cidrBlocks.length === 0) o.cidrBlocks = [cidr];
};
/** `SecurityGroupClassSetDefaults`: security rules are Inbound unless said otherwise (the CRDs require `direction`). */
function securityRuleDefaults(sg: JsonObject | undefined): void {
  for (const rule of Array.isArray(sg?.securityRules) ? sg.securityRules : []) if (isJsonObject(rule) && unset(rule.direction)) rule.direction = 'Inbound';
}
const named = (o: JsonObject | undefined, name: string) => {
  if (o && unset(o.name)) o.name = name;
};

/** `setDefaultSubnetSpec{Cluster,ControlPlane,Node}Subnet`: names of the subnet, its NSG, route table and NAT gateway. */
function azureSubnetDefaults(s: JsonObject, cluster: string, role: 'cluster' | 'control-plane' | 'node', index = 0): void {
  const base = role === 'cluster' ? '' : role === 'control-plane' ? 'controlplane-' : 'node-';
  named(s, role === 'node' ? `${cluster}-node-subnet-${index}` : `${cluster}-${base}subnet`);
  defaultCidr(s, role === 'node' ? `10.${index}.0.0/16` : role === 'control-plane' ? '10.0.0.0/16' : '10.0.0.0/16');
  const sg = child(s, 'securityGroup');
  named(sg, `${cluster}-${base}nsg`);
  securityRuleDefaults(sg);
  if (role === 'control-plane') return;
  named(child(s, 'routeTable'), `${cluster}-${base}routetable`);
  if (!unset(s.id) || (role === 'node' && isIPv6Subnet(s))) return;
  const ng = child(s, 'natGateway');
  named(ng, role === 'node' ? `${cluster}-node-natgw-${index}` : `${cluster}-natgw`);
  if (ng && !isIPv6Subnet(s)) named(child(ng, 'ip'), `pip-${stringOr(ng.name, '')}`);
}

/** `setDefaultLoadBalancerClassSpec{APIServerLB,OutboundLB}`. */
function lbClassDefaults(lb: JsonObject, outbound: boolean): void {
  if (outbound || unset(lb.type)) lb.type = 'Public';
  if (outbound || unset(lb.sku)) lb.sku = 'Standard';
  if (lb.idleTimeoutInMinutes === undefined || lb.idleTimeoutInMinutes === null) lb.idleTimeoutInMinutes = 4;
}

/** `setDefaultAzureClusterOutboundLBFrontendIPs`: always rewritten from `frontendIPsCount`. */
function outboundFrontendIPs(lb: JsonObject, cluster: string, ipPrefix: string): void {
  if (typeof lb.frontendIPsCount !== 'number') lb.frontendIPsCount = 1;
  const n = lb.frontendIPsCount;
  const lbName = stringOr(lb.name, '');
  lb.frontendIPs = Array.from({ length: Math.max(0, n) }, (_, i) => {
    const suffix = n === 1 ? '' : `-${i + 1}`;
    return { name: `${lbName}-frontEnd${suffix}`, publicIP: { name: `pip-${cluster}-${ipPrefix}${suffix}` } };
  });
}

/**
 * CAPZ AzureCluster, `internal/webhooks/azurecluster_webhook.go` `Default()` →
 * `SetDefaultsAzureCluster` (internal/api/v1beta1/azurecluster_default.go): resource group,
 * vnet, subnets (their NSG, route table and NAT gateway names), bastion, peerings and load
 * balancers, all named from the object's name. The AzureCluster CRD requires these names
 * (e.g. `subnets[].securityGroup.name`), so without them a rendered AzureCluster would be
 * reported although the API server accepts it. The APIServerILB feature gate (off by default)
 * is taken as off.
 */
function azureClusterDefaults(obj: JsonObject): void {
  const spec = child(obj, 'spec');
  if (!spec) return;
  const cluster = nameOf(obj);
  if (unset(spec.azureEnvironment)) spec.azureEnvironment = 'AzurePublicCloud';
  if (unset(spec.resourceGroup)) spec.resourceGroup = cluster;
  const cpEnabled = spec.controlPlaneEnabled !== false;
  const net = child(spec, 'networkSpec');
  if (!net) return;
  const vnet = child(net, 'vnet');
  if (vnet) {
    if (unset(vnet.resourceGroup)) vnet.resourceGroup = stringOr(spec.resourceGroup, '');
    named(vnet, `${cluster}-vnet`);
    defaultCidr(vnet, '10.0.0.0/8');
  }
  const bastion = childAt(spec, 'bastionSpec');
  if (bastion && isJsonObject(bastion.azureBastion)) {
    const b = bastion.azureBastion;
    named(b, `${cluster}-azure-bastion`);
    const subnet = child(b, 'subnet');
    if (subnet) {
      named(subnet, 'AzureBastionSubnet');
      defaultCidr(subnet, '10.255.255.224/27');
      if (unset(subnet.role)) subnet.role = 'bastion';
    }
    named(child(b, 'publicIP'), `${cluster}-azure-bastion-pip`);
  }
  const subnets = subnetsOf(net);
  const clusterSubnet = withRole(subnets, 'cluster');
  if (clusterSubnet) azureSubnetDefaults(clusterSubnet, cluster, 'cluster');
  if (cpEnabled) {
    const cp = withRole(subnets, 'control-plane');
    if (cp) azureSubnetDefaults(cp, cluster, 'control-plane');
    else if (!clusterSubnet) {
      const created: JsonObject = { role: 'control-plane' };
      azureSubnetDefaults(created, cluster, 'control-plane');
      (net.subnets as Json[]).push(created);
    }
  }
  let nodes = 0;
  for (const s of subnets) if (s.role === 'node') azureSubnetDefaults(s, cluster, 'node', ++nodes);
  if (nodes === 0 && !clusterSubnet) {
    (net.subnets as Json[]).push({
      role: 'node',
      cidrBlocks: ['10.1.0.0/16'],
      name: `${cluster}-node-subnet`,
      securityGroup: { name: `${cluster}-node-nsg` },
      routeTable: { name: `${cluster}-node-routetable` },
      natGateway: { name: `${cluster}-node-natgw` },
    });
  }
  const cp = withRole(subnetsOf(net), 'control-plane');
  if (cpEnabled && cp && unset(asObjectOr(cp.routeTable).name)) {
    const rt = subnetsOf(net).find((s) => s.role === 'node' || s.role === 'cluster')?.routeTable;
    if (isJsonObject(rt) && typeof rt.name === 'string' && rt.name !== '') child(cp, 'routeTable')!.name = rt.name;
  }
  for (const peering of Array.isArray(vnet?.peerings) ? vnet.peerings : []) if (isJsonObject(peering) && unset(peering.resourceGroup)) peering.resourceGroup = stringOr(spec.resourceGroup, '');

  if (cpEnabled) {
    const lb = child(net, 'apiServerLB')!;
    lbClassDefaults(lb, false);
    const internal = lb.type === 'Internal';
    named(lb, internal ? `${cluster}-internal-lb` : `${cluster}-public-lb`);
    if (!Array.isArray(lb.frontendIPs) || lb.frontendIPs.length === 0) {
      const frontEnd = `${stringOr(lb.name, '')}-frontEnd`;
      if (lb.type === 'Public') lb.frontendIPs = [{ name: frontEnd, publicIP: { name: `pip-${cluster}-apiserver` } }];
      else if (internal) lb.frontendIPs = [{ name: frontEnd, privateIP: '10.0.0.100' }];
    }
    named(child(lb, 'backendPool'), `${stringOr(lb.name, '')}-backendPool`);
  } else delete net.apiServerLB;
  const apiServerInternal = isJsonObject(net.apiServerLB) && net.apiServerLB.type === 'Internal';
  const needsNodeOutbound = subnetsOf(net).some((s) => (s.role === 'node' || s.role === 'cluster') && isIPv6Subnet(s));
  if (isJsonObject(net.nodeOutboundLB) || (cpEnabled && !apiServerInternal && needsNodeOutbound)) {
    const lb = child(net, 'nodeOutboundLB')!;
    lbClassDefaults(lb, true);
    named(lb, cluster);
    outboundFrontendIPs(lb, cluster, 'node-outbound');
    named(child(lb, 'backendPool'), `${stringOr(lb.name, '')}-outboundBackendPool`);
  }
  if (cpEnabled && isJsonObject(net.controlPlaneOutboundLB)) {
    const lb = net.controlPlaneOutboundLB;
    lbClassDefaults(lb, true);
    named(lb, `${cluster}-outbound-lb`);
    outboundFrontendIPs(lb, cluster, 'controlplane-outbound');
    named(child(lb, 'backendPool'), `${cluster}-outbound-lb-outboundBackendPool`);
  }
}

/**
 * CAPZ AzureClusterTemplate, `SetDefaultsAzureClusterTemplate`
 * (internal/api/v1beta1/azureclustertemplate_default.go): CIDRs, the Inbound direction of
 * security rules (which the CRD requires), bastion subnet role, load balancer class defaults,
 * and the control-plane and node subnets it adds when missing (their required `name` is the
 * Go round trip's "").
 */
function azureClusterTemplateDefaults(obj: JsonObject): void {
  const spec = childAt(obj, 'spec', 'template', 'spec');
  if (!spec) return;
  if (unset(spec.azureEnvironment)) spec.azureEnvironment = 'AzurePublicCloud';
  const net = child(spec, 'networkSpec');
  if (!net) return;
  const vnet = child(net, 'vnet');
  if (vnet) defaultCidr(vnet, '10.0.0.0/8');
  const bastion = childAt(spec, 'bastionSpec');
  if (bastion && isJsonObject(bastion.azureBastion)) {
    const subnet = child(bastion.azureBastion, 'subnet');
    if (subnet) {
      defaultCidr(subnet, '10.255.255.224/27');
      if (unset(subnet.role)) subnet.role = 'bastion';
    }
  }
  const subnets = subnetsOf(net);
  const clusterSubnet = withRole(subnets, 'cluster');
  const template = (s: JsonObject, cidr: string) => {
    defaultCidr(s, cidr);
    securityRuleDefaults(isJsonObject(s.securityGroup) ? s.securityGroup : undefined);
  };
  if (clusterSubnet) template(clusterSubnet, '10.0.0.0/16');
  const cp = withRole(subnets, 'control-plane');
  if (cp) template(cp, '10.0.0.0/16');
  else if (!clusterSubnet) (net.subnets as Json[]).push({ name: '', role: 'control-plane', cidrBlocks: ['10.0.0.0/16'] });
  let nodes = 0;
  for (const s of subnets) if (s.role === 'node') template(s, `10.${++nodes}.0.0/16`);
  if (nodes === 0 && !clusterSubnet) (net.subnets as Json[]).push({ name: '', role: 'node', cidrBlocks: ['10.1.0.0/16'] });
  const apiServerLB = child(net, 'apiServerLB');
  if (apiServerLB) lbClassDefaults(apiServerLB, false);
  const needsNodeOutbound = subnetsOf(net).some((s) => (s.role === 'node' || s.role === 'cluster') && isIPv6Subnet(s));
  if (isJsonObject(net.nodeOutboundLB) || (apiServerLB?.type !== 'Internal' && needsNodeOutbound)) lbClassDefaults(child(net, 'nodeOutboundLB')!, true);
  if (isJsonObject(net.controlPlaneOutboundLB)) lbClassDefaults(net.controlPlaneOutboundLB, true);
}

const asObjectOr = (v: Json | undefined): JsonObject => (isJsonObject(v) ? v : {});

// ---------------------------------------------------------------- CAPA AWSCluster(Template)

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
  if (spec.identityRef === undefined || spec.identityRef === null) spec.identityRef = { kind: 'AWSClusterControllerIdentity', name: 'default' };
  if (spec.controlPlaneLoadBalancer === undefined || spec.controlPlaneLoadBalancer === null) spec.controlPlaneLoadBalancer = { scheme: 'internet-facing' };
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
  if (bastion && (!Array.isArray(blocks) || blocks.length === 0) && bastion.disableIngressRules !== true) bastion.allowedCIDRBlocks = ['0.0.0.0/0', '::/0'];
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

// ---------------------------------------------------------------- CAPD Dev*

/**
 * CAPI's test infrastructure provider, `test/infrastructure/docker/webhooks/admission/devcluster.go`
 * `defaultDevClusterSpec`: the docker backend when none is set (the CRD requires `backend`), the
 * API server port 6443, failure domains not for the control plane unless said so.
 */
function devClusterSpecDefaults(spec: JsonObject | undefined): void {
  const backend = spec && child(spec, 'backend');
  if (!spec || !backend) return;
  if ((backend.inMemory === undefined || backend.inMemory === null) && (backend.docker === undefined || backend.docker === null)) backend.docker = {};
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
  if (backend && (backend.inMemory === undefined || backend.inMemory === null) && (backend.docker === undefined || backend.docker === null)) backend.docker = {};
}

/** Known defaulting webhooks, by `group/Kind`. */
const WEBHOOKS: ReadonlyMap<string, AdmissionWebhook> = new Map(
  [
    {
      group: 'controlplane.cluster.x-k8s.io',
      kind: 'KubeadmControlPlane',
      versions: ['v1beta1', 'v1beta2'],
      source: 'kubernetes-sigs/cluster-api controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go',
      apply: kubeadmControlPlaneDefaults,
    },
    {
      group: 'infrastructure.cluster.x-k8s.io',
      kind: 'AzureManagedControlPlane',
      versions: ['v1beta1'],
      source: 'kubernetes-sigs/cluster-api-provider-azure internal/webhooks/azuremanagedcontrolplane_webhook.go',
      apply: azureManagedControlPlaneDefaults,
    },
    {
      group: 'infrastructure.cluster.x-k8s.io',
      kind: 'AzureManagedControlPlaneTemplate',
      versions: ['v1beta1'],
      source: 'kubernetes-sigs/cluster-api-provider-azure internal/webhooks/azuremanagedcontrolplanetemplate_webhook.go',
      apply: azureManagedControlPlaneTemplateDefaults,
    },
    {
      group: 'infrastructure.cluster.x-k8s.io',
      kind: 'AzureCluster',
      versions: ['v1beta1'],
      source: `${AZURE}/azurecluster_default.go (SetDefaultsAzureCluster)`,
      apply: azureClusterDefaults,
    },
    {
      group: 'infrastructure.cluster.x-k8s.io',
      kind: 'AzureClusterTemplate',
      versions: ['v1beta1'],
      source: `${AZURE}/azureclustertemplate_default.go (SetDefaultsAzureClusterTemplate)`,
      apply: azureClusterTemplateDefaults,
    },
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
    ...(['DevCluster', 'DevClusterTemplate', 'DevMachineTemplate'] as const).map((kind) => ({
      group: 'infrastructure.cluster.x-k8s.io',
      kind,
      versions: ['v1beta2'],
      source: `kubernetes-sigs/cluster-api test/infrastructure/docker/webhooks/admission/${kind.toLowerCase()}.go`,
      apply: (obj: JsonObject) => {
        const spec = kind === 'DevCluster' ? child(obj, 'spec') : childAt(obj, 'spec', 'template', 'spec');
        if (kind === 'DevMachineTemplate') devMachineSpecDefaults(spec);
        else devClusterSpecDefaults(spec);
      },
    })),
  ].map((w): [string, AdmissionWebhook] => [`${w.group}/${w.kind}`, w]),
);

function webhookFor(obj: JsonObject): { hook: AdmissionWebhook; version: string } | undefined {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const i = apiVersion.indexOf('/');
  if (i < 0 || typeof obj.kind !== 'string') return undefined;
  const hook = WEBHOOKS.get(`${apiVersion.slice(0, i)}/${obj.kind}`);
  const version = apiVersion.slice(i + 1);
  return hook && hook.versions.includes(version) ? { hook, version } : undefined;
}

/** The upstream source of the defaulting webhook emulated for this object's kind and version, if any. */
export function admissionWebhookSource(obj: JsonObject): string | undefined {
  return webhookFor(obj)?.hook.source;
}

/**
 * A copy of `obj` with the deterministic defaults of its kind's mutating webhook applied (see
 * `WEBHOOKS`). The input is never mutated; objects of other kinds or versions come back as an
 * unchanged copy.
 */
export function admissionDefaults(obj: JsonObject): JsonObject {
  const copy = deepCopy(obj);
  const found = webhookFor(copy);
  if (found) found.hook.apply(copy, found.version);
  return copy;
}

/** Told of each default applied to an object: its path and where the default came from. */
export type DefaultObserver = (path: (string | number)[], detail: string) => void;

/** Where `after` has what `before` lacks: a new key once (its whole value), a changed scalar, list items by index. */
function addedPaths(before: Json | undefined, after: Json, path: (string | number)[] = []): (string | number)[][] {
  if (isJsonObject(after) && isJsonObject(before)) {
    return Object.keys(after).flatMap((k) => (Object.hasOwn(before, k) ? addedPaths(before[k], after[k]!, [...path, k]) : [[...path, k]]));
  }
  if (Array.isArray(after) && Array.isArray(before)) return after.flatMap((item, i) => addedPaths(before[i], item, [...path, i]));
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [path];
}

/**
 * The object as the API server admits it on create: CRD defaults, mutating webhooks, CRD
 * defaults again. `observe` is told of each default and whether the CRD or the webhook set it.
 */
export function admittedObject(crds: CrdIndex, obj: JsonObject, observe?: DefaultObserver): JsonObject {
  const decoded = applyCrdDefaults(crds, obj, observe);
  const found = webhookFor(decoded);
  if (!found) return decoded;
  const before = observe && deepCopy(decoded);
  found.hook.apply(decoded, found.version);
  if (observe) for (const path of addedPaths(before, decoded)) observe(path, `defaulting webhook ${found.hook.source}`);
  return applyCrdDefaults(crds, decoded, observe);
}

/**
 * A template as the topology controller reads it: as the API server stored it (`admittedObject`)
 * when the template's CRD is given; as written otherwise. Without its CRD the kind could not
 * exist live, and a webhook's changes without the CRD's defaults would be a state no live
 * template is in.
 */
export function storedTemplate(crds: CrdIndex, template: JsonObject, observe?: DefaultObserver): JsonObject {
  return crdDefines(crds, template) ? admittedObject(crds, template, observe) : deepCopy(template);
}

/** What the API server would say about creating `obj` (`validateAgainstCrd` of the admitted object). */
export function validateOnCreate(crds: CrdIndex, obj: JsonObject, ref: ObjectRef, subject: CrdSubject = 'rendered'): Result[] {
  return validateAgainstCrd(crds, admittedObject(crds, obj), ref, subject);
}

/**
 * Validates input objects (Cluster, ClusterClass, templates) against their CRDs, each object once
 * however many Clusters use it. `ref` must carry the namespace the object is read in.
 */
export function inputCrdValidator(crds: CrdIndex): (obj: JsonObject, ref: ObjectRef) => Result[] {
  const seen = new Set<string>();
  return (obj, ref) => {
    const key = `${ref.apiVersion}\0${ref.kind}\0${ref.namespace ?? ''}\0${ref.name}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return validateOnCreate(crds, obj, ref, 'input');
  };
}

// ---------------------------------------------------------------- templates read as written

interface StoredOnlyPaths {
  apiVersion: string;
  kind: string;
  /** JSON pointer prefixes that live templates of this kind have only as stored. */
  creates: readonly string[];
  hint: string;
}

/**
 * Paths a live template has only as the API server stored it (`storedTemplate`), which a
 * ClusterClass patch may rely on. Without the template's CRD the template is read as written, so
 * a patch on such a path fails offline where it succeeds live; the hint says why and what to do.
 * CAPA's AWSClusterTemplate: the webhook writes `network` (with `vpc` and `cni`), `bastion`,
 * `controlPlaneLoadBalancer`, `identityRef` and `controlPlaneEndpoint` (`awsClusterTemplateDefaults`),
 * and the CRD defaults `vpc.availabilityZoneUsageLimit` to 3 (fixture `capa-ci-default`).
 */
const STORED_ONLY_PATHS: readonly StoredOnlyPaths[] = [
  {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSClusterTemplate',
    creates: ['network', 'bastion', 'controlPlaneLoadBalancer', 'identityRef', 'controlPlaneEndpoint'].map((f) => `/spec/template/spec/${f}/`),
    hint:
      "live, the AWSClusterTemplate is patched as stored: CAPA's defaulting webhook writes network.vpc, network.cni, bastion, controlPlaneLoadBalancer, identityRef and controlPlaneEndpoint " +
      'into spec.template.spec, and its CRD defaults network.vpc.availabilityZoneUsageLimit to 3; templates are read as stored only when their CRD is given: ' +
      'pass the AWSClusterTemplate CRD (--crds DIR, or as an input item), or add the field to the template, e.g. `network: {vpc: {availabilityZoneUsageLimit: 3}}`',
  },
];

const MISSING_PATH = /failed on (\S+) "[^"]*" at (\/\S*): \w+ operation does not apply: doc is missing path/;

/**
 * A patch failure ("doc is missing path") on a path that live templates of that kind have only
 * as stored, when the template's CRD is not given, gets that explanation and the way out
 * appended; any other result is returned as it is.
 */
export function withStoredTemplateHint(result: Result, crds: CrdIndex): Result {
  if (!result.message.includes('doc is missing path')) return result;
  const m = MISSING_PATH.exec(result.message);
  if (!m) return result;
  const [, kind, path] = m;
  const known = STORED_ONLY_PATHS.find((w) => w.kind === kind && w.creates.some((p) => `${path}/`.startsWith(p)) && !crdDefines(crds, { apiVersion: w.apiVersion, kind }));
  return known ? { ...result, message: `${result.message} (${known.hint})` } : result;
}
