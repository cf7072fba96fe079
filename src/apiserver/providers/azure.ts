/** The defaulting webhooks of CAPZ (cluster-api-provider-azure): AKS control planes and AzureCluster(Template). */
import type { Json, JsonObject } from '../../core/model.js';
import { CLUSTER_NAME_LABEL } from '../../core/labels.js';
import { isJsonObject } from '../../core/go/json.js';
import { child, childAt, metaOf, nameOf, stringOr, unset, type AdmissionWebhook } from './webhook.js';

const AKS_VNET_CIDR = '10.0.0.0/8';
const AKS_NODE_SUBNET_CIDR = '10.240.0.0/16';

/** `DefaultSku`: Free when unset; the deprecated Paid tier becomes Standard. */
function defaultAksSku(spec: JsonObject): void {
  if (spec.sku === undefined || spec.sku === null) spec.sku = { tier: 'Free' };
  else if (isJsonObject(spec.sku) && spec.sku.tier === 'Paid') spec.sku.tier = 'Standard';
}

/** `NormalizeVersion`: a `v` prefix on a non-empty version. */
function normalizeAksVersion(spec: JsonObject): void {
  if (typeof spec.version === 'string' && spec.version !== '' && !spec.version.startsWith('v'))
    spec.version = `v${spec.version}`;
}

/**
 * The Go round trip of CAPZ's defaulters: controller-runtime patches the object to the marshalled
 * Go struct and keeps additions, so the required strings of `AzureManagedControlPlaneClassSpec`
 * that have no `omitempty` (`resourceGroupName`, `location`, `version`) are written as "" when
 * absent (the CRD's `required` is then met; `version`'s minLength still applies).
 */
function aksClassSpecRoundTrip(spec: JsonObject): void {
  for (const k of ['resourceGroupName', 'location', 'version'])
    if (spec[k] === undefined || spec[k] === null) spec[k] = '';
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
  const clusterName = typeof labels[CLUSTER_NAME_LABEL] === 'string' ? labels[CLUSTER_NAME_LABEL] : undefined;
  const overlay = spec.networkPluginMode === 'overlay';

  normalizeAksVersion(spec);
  defaultAksSku(spec);
  // DefaultFleetsMember: the Cluster name, when a fleetsMember is given without a name.
  if (isJsonObject(spec.fleetsMember) && unset(spec.fleetsMember.name) && clusterName !== undefined)
    spec.fleetsMember.name = clusterName;
  // SetDefaultAzureManagedControlPlaneResourceGroupName: the cluster-name label.
  if (unset(spec.resourceGroupName) && clusterName !== undefined) spec.resourceGroupName = clusterName;
  const resourceGroup = stringOr(spec.resourceGroupName, '');
  // SetDefaultAzureManagedControlPlaneNodeResourceGroupName: MC_<resourceGroup>_<name>_<location>.
  if (unset(spec.nodeResourceGroupName))
    spec.nodeResourceGroupName = `MC_${resourceGroup}_${name}_${stringOr(spec.location, '')}`;
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
      if (isJsonObject(ext) && isJsonObject(ext.plan) && unset(ext.plan.name))
        ext.plan.name = `${name}-${stringOr(ext.plan.product, '')}`;
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
  if (spec.enablePreviewFeatures === undefined || spec.enablePreviewFeatures === null)
    spec.enablePreviewFeatures = false;
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
const isIPv6Subnet = (s: JsonObject) =>
  Array.isArray(s.cidrBlocks) && s.cidrBlocks.some((c) => typeof c === 'string' && c.includes(':'));
const subnetsOf = (net: JsonObject): JsonObject[] => {
  if (!Array.isArray(net.subnets)) net.subnets = [];
  return net.subnets.filter(isJsonObject);
};
const withRole = (subnets: JsonObject[], role: string) => subnets.find((s) => s.role === role);
/** `SubnetClassSpecSetDefaults`: a CIDR when none is given. */
const defaultCidr = (o: JsonObject, cidr: string) => {
  if (!Array.isArray(o.cidrBlocks) || o.cidrBlocks.length === 0) o.cidrBlocks = [cidr];
};
/** `SecurityGroupClassSetDefaults`: security rules are Inbound unless said otherwise (the CRDs require `direction`). */
function securityRuleDefaults(sg: JsonObject | undefined): void {
  for (const rule of Array.isArray(sg?.securityRules) ? sg.securityRules : [])
    if (isJsonObject(rule) && unset(rule.direction)) rule.direction = 'Inbound';
}
const named = (o: JsonObject | undefined, name: string) => {
  if (o && unset(o.name)) o.name = name;
};

/** `setDefaultSubnetSpec{Cluster,ControlPlane,Node}Subnet`: names of the subnet, its NSG, route table and NAT gateway. */
function azureSubnetDefaults(
  s: JsonObject,
  cluster: string,
  role: 'cluster' | 'control-plane' | 'node',
  index = 0,
): void {
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
    const routeTable = child(cp, 'routeTable');
    if (routeTable && isJsonObject(rt) && typeof rt.name === 'string' && rt.name !== '') routeTable.name = rt.name;
  }
  for (const peering of Array.isArray(vnet?.peerings) ? vnet.peerings : [])
    if (isJsonObject(peering) && unset(peering.resourceGroup)) peering.resourceGroup = stringOr(spec.resourceGroup, '');

  if (!cpEnabled) delete net.apiServerLB;
  const apiServerLB = cpEnabled ? child(net, 'apiServerLB') : undefined;
  if (apiServerLB) {
    const lb = apiServerLB;
    lbClassDefaults(lb, false);
    const internal = lb.type === 'Internal';
    named(lb, internal ? `${cluster}-internal-lb` : `${cluster}-public-lb`);
    if (!Array.isArray(lb.frontendIPs) || lb.frontendIPs.length === 0) {
      const frontEnd = `${stringOr(lb.name, '')}-frontEnd`;
      if (lb.type === 'Public') lb.frontendIPs = [{ name: frontEnd, publicIP: { name: `pip-${cluster}-apiserver` } }];
      else if (internal) lb.frontendIPs = [{ name: frontEnd, privateIP: '10.0.0.100' }];
    }
    named(child(lb, 'backendPool'), `${stringOr(lb.name, '')}-backendPool`);
  }
  const apiServerInternal = isJsonObject(net.apiServerLB) && net.apiServerLB.type === 'Internal';
  const needsNodeOutbound = subnetsOf(net).some((s) => (s.role === 'node' || s.role === 'cluster') && isIPv6Subnet(s));
  const nodeOutboundLB =
    isJsonObject(net.nodeOutboundLB) || (cpEnabled && !apiServerInternal && needsNodeOutbound)
      ? child(net, 'nodeOutboundLB')
      : undefined;
  if (nodeOutboundLB) {
    const lb = nodeOutboundLB;
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
  else if (!clusterSubnet)
    (net.subnets as Json[]).push({ name: '', role: 'control-plane', cidrBlocks: ['10.0.0.0/16'] });
  let nodes = 0;
  for (const s of subnets) if (s.role === 'node') template(s, `10.${++nodes}.0.0/16`);
  if (nodes === 0 && !clusterSubnet)
    (net.subnets as Json[]).push({ name: '', role: 'node', cidrBlocks: ['10.1.0.0/16'] });
  const apiServerLB = child(net, 'apiServerLB');
  if (apiServerLB) lbClassDefaults(apiServerLB, false);
  const needsNodeOutbound = subnetsOf(net).some((s) => (s.role === 'node' || s.role === 'cluster') && isIPv6Subnet(s));
  const nodeOutboundLB =
    isJsonObject(net.nodeOutboundLB) || (apiServerLB?.type !== 'Internal' && needsNodeOutbound)
      ? child(net, 'nodeOutboundLB')
      : undefined;
  if (nodeOutboundLB) lbClassDefaults(nodeOutboundLB, true);
  if (isJsonObject(net.controlPlaneOutboundLB)) lbClassDefaults(net.controlPlaneOutboundLB, true);
}

const asObjectOr = (v: Json | undefined): JsonObject => (isJsonObject(v) ? v : {});

export const AZURE_WEBHOOKS: readonly AdmissionWebhook[] = [
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
];
