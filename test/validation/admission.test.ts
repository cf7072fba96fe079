/**
 * Mutating admission emulated for validation (src/apiserver/admission.ts). Every expected value
 * was read off the upstream Default() functions named in the module, not off the implementation:
 * CAPI controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go (+ the v1beta1 conversion in
 * api/controlplane/kubeadm/v1beta1/conversion.go), CAPZ internal/webhooks/azuremanagedcontrolplane_webhook.go,
 * internal/api/v1beta1/azuremanagedcontrolplane_default.go and azuremanagedcontrolplanetemplate_default.go.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject, ObjectRef } from '../../src/core/model.js';
import type { Result } from '../../src/core/result.js';
import {
  admissionDefaults,
  admissionWebhookSource,
  admittedObject,
  inputCrdValidator,
  storedTemplate,
  validateOnCreate,
  withStoredTemplateHint,
} from '../../src/apiserver/admission.js';
import { loadCrds, validateAgainstCrd } from '../../src/apiserver/crds.js';
import { fixtureCrdsMissing, loadFixtureCrds } from '../helpers/fixture-crds.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = any;

const kcp = (version: 'v1beta1' | 'v1beta2', spec: JsonObject = {}): JsonObject => ({
  apiVersion: `controlplane.cluster.x-k8s.io/${version}`,
  kind: 'KubeadmControlPlane',
  metadata: { name: 'c1-abcde', namespace: 'default' },
  spec,
});

const amcp = (
  spec: JsonObject = {},
  labels: Record<string, string> = { 'cluster.x-k8s.io/cluster-name': 'aks-1' },
): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
  kind: 'AzureManagedControlPlane',
  metadata: { name: 'aks-1-xyz12', namespace: 'default', labels },
  spec: { location: 'eastus', version: 'v1.33.2', ...spec },
});

const amcpt = (spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
  kind: 'AzureManagedControlPlaneTemplate',
  metadata: { name: 'capz-aks-control-plane', namespace: 'default' },
  spec: { template: { spec } },
});

/** admissionDefaults, checking that the input is left exactly as it was. */
function admit(obj: JsonObject): Obj {
  const before = JSON.stringify(obj);
  const out = admissionDefaults(obj);
  expect(JSON.stringify(obj)).toBe(before);
  expect(out).not.toBe(obj);
  return out;
}

describe('KubeadmControlPlane (CAPI KCP webhook Default())', () => {
  it('v1beta2: replicas 1, v-prefixed version, RollingUpdate with maxSurge 1', () => {
    const out = admit(kcp('v1beta2', { version: '1.33.5', kubeadmConfigSpec: {} }));
    expect(out.spec).toEqual({
      version: 'v1.33.5',
      kubeadmConfigSpec: {},
      replicas: 1,
      rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
    });
  });

  it('v1beta2: keeps set replicas, version and maxSurge; the strategy type is always RollingUpdate', () => {
    const out = admit(
      kcp('v1beta2', {
        replicas: 3,
        version: 'v1.33.5',
        rollout: { after: '2030-01-01T00:00:00Z', strategy: { type: 'Other', rollingUpdate: { maxSurge: 0 } } },
      }),
    );
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.version).toBe('v1.33.5');
    expect(out.spec.rollout).toEqual({
      after: '2030-01-01T00:00:00Z',
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } },
    });
    expect(
      admit(kcp('v1beta2', { rollout: { strategy: { rollingUpdate: { maxSurge: '25%' } } } })).spec.rollout.strategy
        .rollingUpdate.maxSurge,
    ).toBe('25%');
  });

  it('v1beta2: an absent version becomes "v" (Go: !HasPrefix("", "v") → "v" + "")', () => {
    expect(admit(kcp('v1beta2')).spec.version).toBe('v');
  });

  it('v1beta1: the same defaults on the v1beta1 paths spec.rolloutStrategy.type / rollingUpdate.maxSurge', () => {
    const out = admit(kcp('v1beta1', { version: '1.30.1' }));
    expect(out.spec).toEqual({
      version: 'v1.30.1',
      replicas: 1,
      rolloutStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
    });
    expect(out.spec.rollout).toBeUndefined();
    const kept = admit(kcp('v1beta1', { version: 'v1.30.1', rolloutStrategy: { rollingUpdate: { maxSurge: 2 } } }));
    expect(kept.spec.rolloutStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } });
  });

  it('leaves a wrongly typed parent alone (the webhook could not decode it; the schema reports it)', () => {
    expect(admit(kcp('v1beta2', { version: 'v1.33.5', rollout: 'fast' })).spec.rollout).toBe('fast');
  });

  it('names its source', () => {
    expect(admissionWebhookSource(kcp('v1beta2'))).toContain(
      'controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go',
    );
    expect(admissionWebhookSource(kcp('v1beta1'))).toContain('kubeadmcontrolplane.go');
  });
});

describe('AzureManagedControlPlane (CAPZ webhook Default())', () => {
  it('defaults resource groups, vnet, subnet, sku, OIDC profile and DNS prefix from the object and its cluster-name label', () => {
    const out = admit(amcp());
    expect(out.spec).toEqual({
      location: 'eastus',
      version: 'v1.33.2',
      sku: { tier: 'Free' },
      resourceGroupName: 'aks-1',
      nodeResourceGroupName: 'MC_aks-1_aks-1-xyz12_eastus',
      virtualNetwork: {
        name: 'aks-1-xyz12',
        cidrBlock: '10.0.0.0/8',
        resourceGroup: 'aks-1',
        subnet: { name: 'aks-1-xyz12', cidrBlock: '10.240.0.0/16' },
      },
      oidcIssuerProfile: {},
      dnsPrefix: 'aks-1-xyz12',
    });
  });

  it('keeps what is set, and uses the set resource group for the node resource group and the vnet', () => {
    const out = admit(
      amcp({
        resourceGroupName: 'rg',
        nodeResourceGroupName: 'nodes',
        sku: { tier: 'Standard' },
        dnsPrefix: '',
        oidcIssuerProfile: { enabled: true },
        virtualNetwork: { name: 'vnet', cidrBlock: '10.1.0.0/16', subnet: { name: 's', cidrBlock: '10.1.0.0/24' } },
      }),
    );
    expect(out.spec.resourceGroupName).toBe('rg');
    expect(out.spec.nodeResourceGroupName).toBe('nodes');
    expect(out.spec.sku).toEqual({ tier: 'Standard' });
    expect(out.spec.dnsPrefix).toBe(''); // a set (non-nil) pointer stays
    expect(out.spec.oidcIssuerProfile).toEqual({ enabled: true });
    expect(out.spec.virtualNetwork).toEqual({
      name: 'vnet',
      cidrBlock: '10.1.0.0/16',
      resourceGroup: 'rg',
      subnet: { name: 's', cidrBlock: '10.1.0.0/24' },
    });
    expect(admit(amcp({ resourceGroupName: 'rg' })).spec.nodeResourceGroupName).toBe('MC_rg_aks-1-xyz12_eastus');
  });

  it('overlay mode uses the overlay vnet and subnet CIDRs', () => {
    const out = admit(amcp({ networkPluginMode: 'overlay' }));
    expect(out.spec.virtualNetwork.cidrBlock).toBe('10.224.0.0/12');
    expect(out.spec.virtualNetwork.subnet.cidrBlock).toBe('10.224.0.0/16');
  });

  it('Paid becomes Standard; the version gets its v; fleetsMember and extension plans get names', () => {
    const out = admit(
      amcp({
        version: '1.33.2',
        sku: { tier: 'Paid' },
        fleetsMember: { group: 'g' },
        extensions: [
          { name: 'e1', plan: { product: 'p1' } },
          { name: 'e2', plan: { name: 'mine', product: 'p2' } },
          { name: 'e3' },
        ],
      }),
    );
    expect(out.spec.version).toBe('v1.33.2');
    expect(out.spec.sku).toEqual({ tier: 'Standard' });
    expect(out.spec.fleetsMember).toEqual({ group: 'g', name: 'aks-1' });
    expect(out.spec.extensions).toEqual([
      { name: 'e1', plan: { product: 'p1', name: 'aks-1-xyz12-p1' } },
      { name: 'e2', plan: { name: 'mine', product: 'p2' } },
      { name: 'e3' },
    ]);
  });

  it('does not generate an SSH key (random): sshPublicKey "" stays ""', () => {
    expect(admit(amcp({ sshPublicKey: '' })).spec.sshPublicKey).toBe('');
  });

  it('without the cluster-name label: no resource group default, so the Go round trip writes ""', () => {
    const out = admit(amcp({}, {}));
    expect(out.spec.resourceGroupName).toBe('');
    expect(out.spec.nodeResourceGroupName).toBe('MC__aks-1-xyz12_eastus');
    expect(out.spec.virtualNetwork.resourceGroup).toBe('');
  });
});

describe('AzureManagedControlPlaneTemplate (CAPZ template webhook Default())', () => {
  it('defaults network plugin, LB SKU, preview features, vnet/subnet and sku; the round trip writes the required strings', () => {
    const out = admit(amcpt({ location: 'eastus', version: '1.33.2', identityRef: { name: 'id' } }));
    expect(out.spec.template.spec).toEqual({
      location: 'eastus',
      version: 'v1.33.2',
      identityRef: { name: 'id' },
      networkPlugin: 'azure',
      loadBalancerSKU: 'Standard',
      enablePreviewFeatures: false,
      virtualNetwork: {
        name: '',
        cidrBlock: '10.0.0.0/8',
        subnet: { name: 'capz-aks-control-plane', cidrBlock: '10.240.0.0/16' },
      },
      sku: { tier: 'Free' },
      resourceGroupName: '',
    });
  });
});

describe('other objects', () => {
  it('are returned as an unchanged copy', () => {
    for (const o of [
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'md' }, spec: {} },
      { apiVersion: 'example.com/v1', kind: 'KubeadmControlPlane', metadata: { name: 'x' }, spec: {} },
      {
        apiVersion: 'controlplane.cluster.x-k8s.io/v1alpha4',
        kind: 'KubeadmControlPlane',
        metadata: { name: 'x' },
        spec: {},
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      { kind: 'NoApiVersion' },
    ] as JsonObject[]) {
      const out = admit(o);
      expect(out).toEqual(o);
      expect(admissionWebhookSource(o)).toBeUndefined();
    }
  });
});

describe('admittedObject: CRD defaults, webhook, CRD defaults again', () => {
  // A synthetic KCP CRD: `replicas` has a CRD default (applied before the webhook, which then keeps
  // it), and `rollout.strategy.extra` has one below a parent only the webhook creates.
  const obj = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
    type: 'object',
    properties,
    ...extra,
  });
  const strategy = obj(
    {
      type: { type: 'string', enum: ['RollingUpdate'] },
      extra: { type: 'string', default: 'x' },
      rollingUpdate: obj({ maxSurge: { 'x-kubernetes-int-or-string': true } }),
    },
    { required: ['type'] },
  );
  const schema = obj({
    spec: obj({ replicas: { type: 'integer', default: 5 }, version: { type: 'string' }, rollout: obj({ strategy }) }),
  });
  const version = { name: 'v1beta2', served: true, storage: true, schema: { openAPIV3Schema: schema } };
  const crd: JsonObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io' },
    spec: { group: 'controlplane.cluster.x-k8s.io', names: { kind: 'KubeadmControlPlane' }, versions: [version] },
  };
  const { crds } = loadCrds([crd]);

  it('applies the API server order', () => {
    const input = kcp('v1beta2', { version: 'v1.33.0' });
    const out = admittedObject(crds, input) as Obj;
    expect(out.spec).toEqual({
      version: 'v1.33.0',
      replicas: 5,
      rollout: { strategy: { type: 'RollingUpdate', extra: 'x', rollingUpdate: { maxSurge: 1 } } },
    });
    expect(input.spec).toEqual({ version: 'v1.33.0' });
  });

  it('validateOnCreate does not report what the webhook sets; validateAgainstCrd alone does', () => {
    const o = kcp('v1beta2', { version: 'v1.33.0', rollout: { strategy: {} } });
    const ref: ObjectRef = {
      apiVersion: String(o.apiVersion),
      kind: 'KubeadmControlPlane',
      name: 'c1-abcde',
      namespace: 'default',
    };
    expect(validateAgainstCrd(crds, o, ref).map((r) => r.field?.path)).toEqual(['spec.rollout.strategy.type']);
    expect(validateOnCreate(crds, o, ref)).toEqual([]);
  });

  it('inputCrdValidator validates each object once', () => {
    const check = inputCrdValidator(crds);
    const o = kcp('v1beta2', { version: 7 });
    const ref: ObjectRef = {
      apiVersion: String(o.apiVersion),
      kind: 'KubeadmControlPlane',
      name: 'c1-abcde',
      namespace: 'default',
    };
    const first = check(o, ref);
    expect(first.map((r) => [r.field?.path, r.tags?.rule])).toEqual([['spec.version', 'crd-schema']]);
    expect(first[0]!.message).toContain('would reject this KubeadmControlPlane as written');
    expect(first[0]!.message).toContain('fix it in the input');
    expect(check(o, ref)).toEqual([]);
    expect(check(o, { ...ref, namespace: 'other' })).toHaveLength(1);
  });
});

describe.skipIf(fixtureCrdsMissing())('with the real CRDs (../shared/fixtures/crds)', () => {
  const { crds } = loadCrds(loadFixtureCrds());
  const ref = (o: JsonObject): ObjectRef => ({
    apiVersion: String(o.apiVersion),
    kind: String(o.kind),
    name: String((o.metadata as JsonObject).name),
    namespace: 'default',
  });
  const errors = (rs: Result[]) =>
    rs.filter((r) => r.severity === 'error').map((r) => `${r.field?.path}: ${r.message.split(': the API server')[0]}`);

  it('a KCP with a rollout strategy but no type: rejected without the webhook, accepted with it (v1beta2 and v1beta1)', () => {
    // As qs-custom's KubeadmControlPlane: the template sets rollout.strategy.rollingUpdate only.
    const v2 = kcp('v1beta2', {
      version: 'v1.33.5',
      machineTemplate: {
        spec: {
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachineTemplate', name: 'cp' },
        },
      },
      kubeadmConfigSpec: { format: 'cloud-config' },
      rollout: { strategy: { rollingUpdate: { maxSurge: 1 } } },
    });
    expect(errors(validateAgainstCrd(crds, v2, ref(v2)))).toContain(
      'spec.rollout.strategy.type: Required value (set it to one of: "RollingUpdate")',
    );
    expect(errors(validateOnCreate(crds, v2, ref(v2)))).toEqual([]);
    const v1 = kcp('v1beta1', {
      version: 'v1.33.5',
      machineTemplate: {
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DockerMachineTemplate',
          name: 'cp',
        },
      },
      kubeadmConfigSpec: { format: 'cloud-config' },
      rolloutStrategy: { rollingUpdate: {} },
    });
    expect(errors(validateOnCreate(crds, v1, ref(v1)))).toEqual([]);
    expect((admittedObject(crds, v1) as Obj).spec.rolloutStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1 },
    });
  });

  it('an AzureManagedControlPlane without resourceGroupName is accepted (the cluster-name label supplies it)', () => {
    const o = amcp({
      identityRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'AzureClusterIdentity', name: 'id' },
      subscriptionID: 'sub',
    });
    expect(errors(validateAgainstCrd(crds, o, ref(o)))).toContain('spec.resourceGroupName: Required value');
    expect(errors(validateOnCreate(crds, o, ref(o)))).toEqual([]);
  });

  it('the CAPZ AKS control-plane template without resourceGroupName is accepted (Go round trip writes "")', () => {
    const o = amcpt({
      identityRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'AzureClusterIdentity', name: 'id' },
      location: 'eastus',
      version: 'v1.33.2',
    });
    expect(errors(validateAgainstCrd(crds, o, ref(o)))).toContain(
      'spec.template.spec.resourceGroupName: Required value',
    );
    expect(errors(validateOnCreate(crds, o, ref(o), 'input'))).toEqual([]);
  });
});

// CAPZ internal/api/v1beta1/azurecluster_default.go `SetDefaultsAzureCluster` (names from
// generate*Name there) and azureclustertemplate_default.go `SetDefaultsAzureClusterTemplate`.
const azureCluster = (networkSpec: JsonObject): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
  kind: 'AzureCluster',
  metadata: { name: 'c1-abcde', namespace: 'default' },
  spec: { location: 'westeurope', controlPlaneEnabled: true, networkSpec },
});
const rule = {
  name: 'allow_ssh',
  description: 'ssh',
  protocol: 'Tcp',
  priority: 2200,
  sourcePorts: '*',
  destinationPorts: '22',
  source: '*',
  destination: '*',
  action: 'Allow',
};

describe('AzureCluster (CAPZ webhook Default())', () => {
  it("names the vnet, each subnet's NSG, route table and NAT gateway, the API server LB, from the object name", () => {
    const out = admit(
      azureCluster({
        subnets: [
          { name: 'cp', role: 'control-plane', securityGroup: { securityRules: [rule] } },
          { name: 'nodes', role: 'node', natGateway: {} },
        ],
      }),
    );
    expect(out.spec.resourceGroup).toBe('c1-abcde');
    expect(out.spec.azureEnvironment).toBe('AzurePublicCloud');
    expect(out.spec.networkSpec.vnet).toEqual({
      resourceGroup: 'c1-abcde',
      name: 'c1-abcde-vnet',
      cidrBlocks: ['10.0.0.0/8'],
    });
    expect(out.spec.networkSpec.subnets).toEqual([
      {
        name: 'cp',
        role: 'control-plane',
        cidrBlocks: ['10.0.0.0/16'],
        securityGroup: { name: 'c1-abcde-controlplane-nsg', securityRules: [{ ...rule, direction: 'Inbound' }] },
        routeTable: { name: 'c1-abcde-node-routetable' },
      },
      {
        name: 'nodes',
        role: 'node',
        cidrBlocks: ['10.1.0.0/16'],
        securityGroup: { name: 'c1-abcde-node-nsg' },
        routeTable: { name: 'c1-abcde-node-routetable' },
        natGateway: { name: 'c1-abcde-node-natgw-1', ip: { name: 'pip-c1-abcde-node-natgw-1' } },
      },
    ]);
    expect(out.spec.networkSpec.apiServerLB).toEqual({
      type: 'Public',
      sku: 'Standard',
      idleTimeoutInMinutes: 4,
      name: 'c1-abcde-public-lb',
      frontendIPs: [{ name: 'c1-abcde-public-lb-frontEnd', publicIP: { name: 'pip-c1-abcde-apiserver' } }],
      backendPool: { name: 'c1-abcde-public-lb-backendPool' },
    });
  });

  it('adds the control-plane and node subnets when there are none', () => {
    const out = admit(azureCluster({}));
    expect(out.spec.networkSpec.subnets.map((s: Obj) => [s.role, s.name, s.securityGroup.name])).toEqual([
      ['control-plane', 'c1-abcde-controlplane-subnet', 'c1-abcde-controlplane-nsg'],
      ['node', 'c1-abcde-node-subnet', 'c1-abcde-node-nsg'],
    ]);
  });

  it('template: security rules get their required direction; missing subnets are added with the round trip\'s name ""', () => {
    const t = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'AzureClusterTemplate',
      metadata: { name: 't', namespace: 'default' },
      spec: {
        template: {
          spec: {
            location: 'westeurope',
            networkSpec: { subnets: [{ name: 'cp', role: 'control-plane', securityGroup: { securityRules: [rule] } }] },
          },
        },
      },
    };
    const out = admit(t);
    expect(out.spec.template.spec.networkSpec.subnets).toEqual([
      {
        name: 'cp',
        role: 'control-plane',
        cidrBlocks: ['10.0.0.0/16'],
        securityGroup: { securityRules: [{ ...rule, direction: 'Inbound' }] },
      },
      { name: '', role: 'node', cidrBlocks: ['10.1.0.0/16'] },
    ]);
  });
});

// CAPI test/infrastructure/docker/webhooks/admission/devcluster.go `defaultDevClusterSpec`, devmachine.go `defaultDevMachineSpec`.
describe('DevCluster(Template), DevMachineTemplate (CAPD webhook Default())', () => {
  it('the docker backend when none is set; port 6443; failure domains not for the control plane', () => {
    const dc = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevClusterTemplate',
      metadata: { name: 't', namespace: 'default' },
      spec: { template: { spec: {} } },
    };
    expect(admit(dc).spec.template.spec).toEqual({ backend: { docker: {} }, controlPlaneEndpoint: { port: 6443 } });
    const withFds = {
      ...dc,
      spec: { template: { spec: { backend: { docker: { failureDomains: [{ name: 'fd1' }] } } } } },
    };
    expect(admit(withFds).spec.template.spec.backend.docker.failureDomains).toEqual([
      { name: 'fd1', controlPlane: false },
    ]);
    const inMemory = { ...dc, spec: { template: { spec: { backend: { inMemory: {} } } } } };
    expect(admit(inMemory).spec.template.spec).toEqual({ backend: { inMemory: {} } });
    const dmt = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevMachineTemplate',
      metadata: { name: 'm', namespace: 'default' },
      spec: { template: { spec: {} } },
    };
    expect(admit(dmt).spec.template.spec).toEqual({ backend: { docker: {} } });
  });
});

describe.skipIf(fixtureCrdsMissing())('provider webhooks that decide validity, with the real CRDs', () => {
  const { crds } = loadCrds(loadFixtureCrds());
  const ref = (o: JsonObject): ObjectRef => ({
    apiVersion: String(o.apiVersion),
    kind: String(o.kind),
    name: String((o.metadata as JsonObject).name),
    namespace: 'default',
  });
  const errors = (rs: Result[]) =>
    rs.filter((r) => r.severity === 'error').map((r) => `${r.field?.path}: ${r.message.split(': the API server')[0]}`);

  it('an AzureCluster whose subnet has a securityGroup without name: rejected by the CRD alone, accepted after the webhook', () => {
    const o = azureCluster({ subnets: [{ name: 'nodes', role: 'node', securityGroup: { securityRules: [rule] } }] });
    expect(errors(validateAgainstCrd(crds, o, ref(o)))).toEqual(
      expect.arrayContaining([
        'spec.networkSpec.subnets[0].securityGroup.name: Required value',
        'spec.networkSpec.subnets[0].securityGroup.securityRules[0].direction: Required value (set it to one of: "Inbound", "Outbound")',
      ]),
    );
    expect(errors(validateOnCreate(crds, o, ref(o)))).toEqual([]);
  });

  it('a DevClusterTemplate without backend: rejected by the CRD alone, accepted after the webhook', () => {
    const o = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DevClusterTemplate',
      metadata: { name: 't', namespace: 'default' },
      spec: { template: { spec: {} } },
    };
    expect(errors(validateAgainstCrd(crds, o, ref(o)))).toEqual(['spec.template.spec.backend: Required value']);
    expect(errors(validateOnCreate(crds, o, ref(o), 'input'))).toEqual([]);
  });
});

// CAPA at 2cf09d78 (the commit of the capa-* fixtures): webhooks/awscluster_webhook.go and
// awsclustertemplate_webhook.go `Default()` call `SetObjectDefaults_AWSCluster(Template)`
// (api/v1beta2/zz_generated.defaults.go) → `SetDefaults_AWSClusterSpec`, `SetDefaults_NetworkSpec`,
// `SetDefaults_Bastion` (api/v1beta2/defaults.go); constants from network_types.go
// (ELBSchemeInternetFacing "internet-facing", ELBSchemeInternal "internal",
// SecurityGroupProtocolTCP "tcp", SecurityGroupProtocolIPinIP "4") and awscluster_types.go
// (LoadBalancerTypeClassic "classic", LoadBalancerTypeNLB "nlb", ControllerIdentityKind
// "AWSClusterControllerIdentity", AWSClusterControllerIdentityName "default"). Then
// controller-runtime's patch to the marshalled struct (pkg/webhook/admission/defaulter_custom.go):
// json tags of awscluster_types.go / network_types.go and CAPI v1beta1 APIEndpoint.
const CALICO_RULES = [
  { description: 'bgp (calico)', protocol: 'tcp', fromPort: 179, toPort: 179 },
  { description: 'IP-in-IP (calico)', protocol: '4', fromPort: -1, toPort: 65535 },
];
/** What `Default()` plus the Go round trip make of an empty AWSClusterSpec. */
const EMPTY_AWS_CLUSTER_SPEC = {
  identityRef: { kind: 'AWSClusterControllerIdentity', name: 'default' },
  controlPlaneLoadBalancer: { scheme: 'internet-facing', loadBalancerType: 'classic', crossZoneLoadBalancing: false },
  network: { cni: { cniIngressRules: CALICO_RULES }, vpc: {} },
  bastion: { allowedCIDRBlocks: ['0.0.0.0/0', '::/0'], enabled: false },
  controlPlaneEndpoint: { host: '', port: 0 },
};
const awsClusterTemplate = (spec: JsonObject): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'AWSClusterTemplate',
  metadata: { name: 'ci-default', namespace: 'default' },
  spec: { template: { spec } },
});

describe('AWSCluster(Template) (CAPA webhook Default() and its Go round trip)', () => {
  it('an empty template: identity, classic internet-facing LB, Calico rules, open bastion, and the non-pointer structs (network.vpc, bastion, controlPlaneEndpoint, template.metadata)', () => {
    const out = admit(awsClusterTemplate({}));
    expect(out.spec.template).toEqual({ metadata: {}, spec: EMPTY_AWS_CLUSTER_SPEC });
    expect(admissionWebhookSource(awsClusterTemplate({}))).toBe(
      'kubernetes-sigs/cluster-api-provider-aws webhooks/awsclustertemplate_webhook.go (SetObjectDefaults_AWSClusterTemplate)',
    );
  });

  it('AWSCluster: the same defaults on spec (the same SetDefaults_* functions)', () => {
    const out = admit({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'AWSCluster',
      metadata: { name: 'c1-abcde', namespace: 'default' },
      spec: {},
    });
    expect(out.spec).toEqual(EMPTY_AWS_CLUSTER_SPEC);
    expect(out.status).toBeUndefined();
  });

  it('keeps what is set: an existing LB gets only its type, a given CNI (even {}) no Calico rules, bastion CIDRs only when none and ingress rules are on', () => {
    const out = admit(
      awsClusterTemplate({
        controlPlaneLoadBalancer: { loadBalancerType: 'nlb', healthCheckProtocol: 'HTTPS' },
        network: { cni: {}, vpc: { availabilityZoneUsageLimit: 1 } },
        bastion: { enabled: true, disableIngressRules: true },
        identityRef: { kind: 'AWSClusterRoleIdentity', name: 'role' },
      }),
    ).spec.template.spec;
    expect(out.controlPlaneLoadBalancer).toEqual({
      loadBalancerType: 'nlb',
      healthCheckProtocol: 'HTTPS',
      crossZoneLoadBalancing: false,
    });
    expect(out.network).toEqual({ cni: {}, vpc: { availabilityZoneUsageLimit: 1 } });
    expect(out.bastion).toEqual({ enabled: true, disableIngressRules: true });
    expect(out.identityRef).toEqual({ kind: 'AWSClusterRoleIdentity', name: 'role' });
    expect(admit(awsClusterTemplate({ bastion: { allowedCIDRBlocks: [] } })).spec.template.spec.bastion).toEqual({
      allowedCIDRBlocks: ['0.0.0.0/0', '::/0'],
      enabled: false,
    });
  });

  it('a secondary LB is an internal NLB unless said otherwise', () => {
    const out = admit(awsClusterTemplate({ secondaryControlPlaneLoadBalancer: { name: 'second' } })).spec.template.spec;
    expect(out.secondaryControlPlaneLoadBalancer).toEqual({
      name: 'second',
      loadBalancerType: 'nlb',
      scheme: 'internal',
      crossZoneLoadBalancing: false,
    });
  });

  it('the round trip writes the fields without omitempty of list items and pointers that are present', () => {
    const out = admit(
      awsClusterTemplate({
        network: {
          subnets: [{ availabilityZone: 'us-east-1a', cidrBlock: '10.0.0.0/24' }],
          additionalControlPlaneIngressRules: [{ cidrBlocks: ['10.0.0.0/8'] }],
          vpc: { secondaryCidrBlocks: [{}] },
        },
        controlPlaneLoadBalancer: { additionalListeners: [{ protocol: 'TCP' }], ingressRules: [{ description: 'x' }] },
        identityRef: { name: 'only-name' },
        s3Bucket: { controlPlaneIAMInstanceProfile: 'p' },
        controlPlaneEndpoint: { host: 'api.example.com' },
      }),
    ).spec.template.spec;
    expect(out.network.subnets).toEqual([
      { availabilityZone: 'us-east-1a', cidrBlock: '10.0.0.0/24', id: '', isPublic: false },
    ]);
    expect(out.network.additionalControlPlaneIngressRules).toEqual([
      { cidrBlocks: ['10.0.0.0/8'], description: '', protocol: '', fromPort: 0, toPort: 0 },
    ]);
    expect(out.network.vpc).toEqual({ secondaryCidrBlocks: [{ ipv4CidrBlock: '' }] });
    expect(out.controlPlaneLoadBalancer.additionalListeners).toEqual([{ protocol: 'TCP', port: 0 }]);
    expect(out.controlPlaneLoadBalancer.ingressRules).toEqual([
      { description: 'x', protocol: '', fromPort: 0, toPort: 0 },
    ]);
    expect(out.identityRef).toEqual({ name: 'only-name', kind: '' });
    expect(out.s3Bucket).toEqual({ controlPlaneIAMInstanceProfile: 'p', name: '' });
    expect(out.controlPlaneEndpoint).toEqual({ host: 'api.example.com', port: 0 });
  });

  it('leaves a wrongly typed value alone (Go could not decode it; the schema reports it)', () => {
    expect(admit(awsClusterTemplate({ network: 'default' })).spec.template.spec.network).toBe('default');
  });
});

describe.skipIf(fixtureCrdsMissing())('storedTemplate: the template the topology controller reads', () => {
  const { crds } = loadCrds(loadFixtureCrds());
  // The capa-ci-default AWSClusterTemplate as written.
  const written = awsClusterTemplate({
    controlPlaneLoadBalancer: { loadBalancerType: 'nlb', healthCheckProtocol: 'HTTPS' },
  });

  it('with its CRD: CRD defaults, the webhook, CRD defaults again (network.vpc exists only after the webhook, its defaults only after the second pass)', () => {
    const defaults: [string, string][] = [];
    const stored = storedTemplate(crds, written, (path, detail) => defaults.push([path.join('.'), detail])) as Obj;
    expect(stored.spec.template.spec.network.vpc).toEqual({
      availabilityZoneUsageLimit: 3,
      availabilityZoneSelection: 'Ordered',
      subnetSchema: 'PreferPrivate',
    });
    // scheme: CRD default `internet-facing` (first pass, the webhook keeps it).
    expect(stored.spec.template.spec.controlPlaneLoadBalancer).toEqual({
      loadBalancerType: 'nlb',
      healthCheckProtocol: 'HTTPS',
      scheme: 'internet-facing',
      crossZoneLoadBalancing: false,
    });
    const crd = 'default in the schema of CRD awsclustertemplates.infrastructure.cluster.x-k8s.io (v1beta2)';
    const webhook =
      'defaulting webhook kubernetes-sigs/cluster-api-provider-aws webhooks/awsclustertemplate_webhook.go (SetObjectDefaults_AWSClusterTemplate)';
    expect(defaults).toEqual(
      expect.arrayContaining([
        ['spec.template.spec.controlPlaneLoadBalancer.scheme', crd],
        ['spec.template.spec.controlPlaneLoadBalancer.crossZoneLoadBalancing', webhook],
        ['spec.template.spec.network', webhook],
        ['spec.template.spec.network.vpc.availabilityZoneUsageLimit', crd],
      ]),
    );
    expect(written.spec).toEqual({
      template: { spec: { controlPlaneLoadBalancer: { loadBalancerType: 'nlb', healthCheckProtocol: 'HTTPS' } } },
    });
  });

  it('without its CRD: as written (no webhook either)', () => {
    expect(storedTemplate(loadCrds([]).crds, written)).toEqual(written);
  });
});

describe('withStoredTemplateHint', () => {
  const failure = (kind: string, path: string): Result => ({
    severity: 'error',
    message: `Cluster default/c1: patch "limitAZ" (definitions[0].jsonPatches[0]) failed on ${kind} "ci-default" at ${path}: replace operation does not apply: doc is missing path: ${path}: missing value`,
    resourceRef: {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'ClusterClass',
      name: 'ci-default',
      namespace: 'default',
    },
    field: { path: 'spec.patches[6].definitions[0].jsonPatches[0]' },
  });
  const none = loadCrds([]).crds;

  it('without the AWSClusterTemplate CRD: explains that live templates are patched as stored, and says to pass the CRD', () => {
    for (const path of [
      '/spec/template/spec/network/vpc/availabilityZoneUsageLimit',
      '/spec/template/spec/bastion/instanceType',
    ]) {
      const r = failure('AWSClusterTemplate', path);
      const out = withStoredTemplateHint(r, none);
      expect(out.message.startsWith(r.message)).toBe(true);
      expect(out.message).toContain(
        "live, the AWSClusterTemplate is patched as stored: CAPA's defaulting webhook writes network.vpc",
      );
      expect(out.message).toContain('its CRD defaults network.vpc.availabilityZoneUsageLimit to 3');
      expect(out.message).toContain('pass the AWSClusterTemplate CRD (--crds DIR, or as an input item)');
      expect(out).toMatchObject({ severity: 'error', field: r.field, resourceRef: r.resourceRef });
    }
  });

  it.skipIf(fixtureCrdsMissing())(
    'with the CRD given, the template was read as stored: a missing path is a real failure, no hint',
    () => {
      const r = failure('AWSClusterTemplate', '/spec/template/spec/network/vpc/availabilityZoneUsageLimit');
      expect(withStoredTemplateHint(r, loadCrds(loadFixtureCrds()).crds)).toBe(r);
    },
  );

  it('leaves other kinds, other paths and other results alone', () => {
    for (const r of [
      failure('AzureClusterTemplate', '/spec/template/spec/network/vpc/x'),
      failure('AWSClusterTemplate', '/spec/template/spec/region'),
      { severity: 'error', message: 'variable "logLevel" does not exist' } as Result,
    ]) {
      expect(withStoredTemplateHint(r, none)).toBe(r);
    }
  });
});
