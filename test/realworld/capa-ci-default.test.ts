/**
 * capa-ci-default.yaml — CAPA e2e class `ci-default` (v1beta2): enabledIf on string variables,
 * templates rendering integers and lists. Cluster capa-ci-selfhosted's `limitAZ` patch replaces
 * `network.vpc.availabilityZoneUsageLimit`, which the AWSClusterTemplate has only as stored (§1.1):
 * CAPA's defaulting webhook writes `network.vpc` and the CRD defaults the limit to 3. With the
 * fixture CRDs, templates are read as stored and it renders as live; without them, templates are
 * used as written and the patch fails with the RFC 6902 "missing path" error (§7.5), whose message
 * says to pass the CRD.
 */
import { describe, expect, it } from 'vitest';
import { fixtureCrdsMissing, loadFixtureCrds } from '../helpers/fixture-crds.js';
import {
  clusterOf,
  errorsFor,
  fixedLabels,
  fixtureMissing,
  nameRe,
  renderFixture,
  type FixtureRender,
} from './helpers.js';

const FILE = 'capa-ci-default.yaml';
const SSH = 'cluster-api-provider-aws-sigs-k8s-io';
const IMAGE = 'gcr.io/k8s-staging-cluster-api/capa-manager:v2.9.0-e2e';
const KUBEADM_CONFIG_SPEC = {
  verbosity: 5,
  clusterConfiguration: { controllerManager: { extraArgs: [{ name: 'cloud-provider', value: 'external' }] } },
  initConfiguration: {
    nodeRegistration: {
      name: '{{ ds.meta_data.local_hostname }}',
      kubeletExtraArgs: [{ name: 'cloud-provider', value: 'external' }],
    },
  },
  joinConfiguration: {
    nodeRegistration: {
      name: '{{ ds.meta_data.local_hostname }}',
      kubeletExtraArgs: [{ name: 'cloud-provider', value: 'external' }],
    },
  },
};

/** The stored AWSClusterTemplate as the live controller reads it: AWS webhook default availabilityZoneUsageLimit: 3. */
const preDefaulted = (docs: { kind: string; spec: { template: { spec: Record<string, unknown> } } }[]) => {
  const t = docs.find((d) => d.kind === 'AWSClusterTemplate')!;
  t.spec.template.spec.network = { vpc: { availabilityZoneUsageLimit: 3 } };
};

describe.skipIf(fixtureMissing(FILE))('real-world: capa-ci-default', () => {
  let r: FixtureRender;
  const render = () => (r ??= renderFixture(FILE));

  it('without CRDs, the only error is capa-ci-selfhosted: limitAZ `replace` on a path the template has only as stored; the message says to pass the CRD', () => {
    const errors = render().errors;
    expect(errors).toHaveLength(1);
    expect(errorsFor(render(), 'capa-ci-selfhosted')).toEqual(errors);
    const msg = errors[0]!.message;
    expect(msg).toContain('"limitAZ"');
    expect(msg).toContain('AWSClusterTemplate');
    expect(msg).toContain(
      'replace operation does not apply: doc is missing path: /spec/template/spec/network/vpc/availabilityZoneUsageLimit',
    );
    expect(msg).toContain('pass the AWSClusterTemplate CRD (--crds DIR, or as an input item)');
    // Fault isolation: the other Cluster of the same class renders; the failing one emits nothing (§2.1: nothing partial).
    expect([...render().clusters.keys()]).toEqual(['default/capa-ci-1']);
  });

  describe('capa-ci-1', () => {
    const c = () => clusterOf(render(), 'capa-ci-1');

    it('variables: user values, then the seven defaulted optional ones in alphabetical order', () => {
      expect(render().variables.get('default/capa-ci-1')).toEqual([
        { name: 'region', value: 'us-east-2' },
        { name: 'sshKeyName', value: SSH },
        { name: 'controlPlaneMachineType', value: 't3.large' },
        { name: 'workerMachineType', value: 't3.medium' },
        { name: 'secureSecretsBackend', value: 'ssm-parameter-store' },
        { name: 'healthCheckProtocol', value: 'TCP' },
        { name: 'byoInfra', value: 'false' },
        { name: 'fdForBYOSubnets', value: '' },
        { name: 'privateSubnetID', value: '' },
        { name: 'publicSubnetID', value: '' },
        { name: 'selfHosted', value: '' },
        { name: 'vpcAZUsageLimit', value: '' },
        { name: 'vpcID', value: '' },
      ]);
    });

    it('AWSCluster: region/sshKeyName added, healthCheckProtocol HTTPS → TCP; limitAZ and byoInfra disabled (no network)', () => {
      const infra = c().infraCluster;
      expect(infra.kind).toBe('AWSCluster');
      expect(infra.metadata.name).toMatch(nameRe('capa-ci-1-'));
      expect(infra.spec).toEqual({
        controlPlaneLoadBalancer: { loadBalancerType: 'nlb', healthCheckProtocol: 'TCP' },
        region: 'us-east-2',
        sshKeyName: SSH,
      });
    });

    it('AWSMachineTemplates: instance types per role, sshKeyName, secureSecretsBackend into the existing cloudInit {}', () => {
      const cl = c();
      expect(cl.cpMachineTemplate.spec.template.spec).toEqual({
        instanceType: 't3.large',
        iamInstanceProfile: 'control-plane.cluster-api-provider-aws.sigs.k8s.io',
        cloudInit: { secureSecretsBackend: 'ssm-parameter-store' },
        rootVolume: { size: 10 },
        sshKeyName: SSH,
      });
      expect(cl.md['md-0']!.infra.spec.template.spec).toEqual({
        instanceType: 't3.medium',
        iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
        cloudInit: { secureSecretsBackend: 'ssm-parameter-store' },
        rootVolume: { size: 10 },
        sshKeyName: SSH,
      });
    });

    it('KCP (v1beta2 contract) and worker bootstrap: preKubeadmCommands patch disabled (`eq .selfHosted "yes"` with "")', () => {
      const { controlPlane: kcp, cpMachineTemplate, md } = c();
      expect(kcp.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta2');
      expect(kcp.spec.kubeadmConfigSpec).toEqual(KUBEADM_CONFIG_SPEC);
      expect(kcp.spec.machineTemplate.spec.infrastructureRef).toEqual({
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachineTemplate',
        name: cpMachineTemplate.metadata.name,
      });
      expect(kcp.spec.replicas).toBe(3);
      expect(kcp.spec.version).toBe('v1.34.2');
      expect(md['md-0']!.bootstrap.spec.template.spec).toEqual({
        verbosity: 5,
        joinConfiguration: KUBEADM_CONFIG_SPEC.joinConfiguration,
      });
      expect(md['md-0']!.md.spec.replicas).toBe(2);
      expect(c().mhcs).toEqual([]);
    });

    it('classic Cluster keeps its three user labels', () => {
      expect(c().cluster.metadata.labels).toEqual({
        ccm: 'external',
        cni: 'capa-ci-1-crs-0',
        csi: 'external',
        ...fixedLabels('capa-ci-1'),
      });
    });
  });

  /**
   * With the fixture CRDs the AWSClusterTemplate is read as stored: CRD defaults, CAPA's webhook
   * (webhooks/awsclustertemplate_webhook.go → SetObjectDefaults_AWSClusterTemplate, api/v1beta2/
   * defaults.go, plus the Go round trip of AWSClusterSpec's json tags), CRD defaults again
   * (awsclustertemplates.yaml v1beta2: scheme internet-facing, vpc availabilityZoneUsageLimit 3,
   * availabilityZoneSelection Ordered, subnetSchema PreferPrivate). CAPI leaves the zero-valued
   * controlPlaneEndpoint the round trip writes out of what it applies (internal/contract/
   * infrastructure_cluster.go IgnorePaths), so the AWSCluster has none.
   */
  describe.skipIf(fixtureCrdsMissing())('with the fixture CRDs: templates read as stored', () => {
    let withCrds: FixtureRender;
    const rendered = () => (withCrds ??= renderFixture(FILE, { crds: loadFixtureCrds() }));
    const awsClusterSpec = (azLimit: number) => ({
      controlPlaneLoadBalancer: {
        loadBalancerType: 'nlb',
        healthCheckProtocol: 'TCP',
        scheme: 'internet-facing',
        crossZoneLoadBalancing: false,
      },
      identityRef: { kind: 'AWSClusterControllerIdentity', name: 'default' },
      network: {
        cni: {
          cniIngressRules: [
            { description: 'bgp (calico)', protocol: 'tcp', fromPort: 179, toPort: 179 },
            { description: 'IP-in-IP (calico)', protocol: '4', fromPort: -1, toPort: 65535 },
          ],
        },
        vpc: {
          availabilityZoneSelection: 'Ordered',
          availabilityZoneUsageLimit: azLimit,
          subnetSchema: 'PreferPrivate',
        },
      },
      bastion: { allowedCIDRBlocks: ['0.0.0.0/0', '::/0'], enabled: false },
      region: 'us-east-2',
      sshKeyName: SSH,
    });

    it('capa-ci-selfhosted renders with no error result; limitAZ replaces the stored availabilityZoneUsageLimit 3 with 1', () => {
      const out = rendered();
      expect(out.errors).toEqual([]);
      expect([...out.clusters.keys()]).toEqual(['default/capa-ci-1', 'default/capa-ci-selfhosted']);
      expect(clusterOf(out, 'capa-ci-selfhosted').infraCluster.spec).toEqual(awsClusterSpec(1));
      expect(clusterOf(out, 'capa-ci-selfhosted').controlPlane.spec.kubeadmConfigSpec.preKubeadmCommands).toHaveLength(
        3,
      );
    });

    it('capa-ci-1 (limitAZ disabled) keeps the stored default 3: its AWSCluster carries what the live one does', () => {
      expect(clusterOf(rendered(), 'capa-ci-1').infraCluster.spec).toEqual(awsClusterSpec(3));
    });
  });

  describe('capa-ci-selfhosted with a pre-defaulted AWSClusterTemplate (what the live controller reads)', () => {
    const rendered = () => renderFixture(FILE, { mutate: preDefaulted as never });

    it('renders; `"{{ .vpcAZUsageLimit }}"` becomes the integer 1; preKubeadmCommands enabled by `eq .selfHosted "yes"`', () => {
      const out = rendered();
      expect(out.errors).toEqual([]);
      const c = clusterOf(out, 'capa-ci-selfhosted');
      expect(c.infraCluster.spec.network).toEqual({ vpc: { availabilityZoneUsageLimit: 1 } });
      expect(c.controlPlane.spec.kubeadmConfigSpec.preKubeadmCommands).toEqual([
        'mkdir -p /opt/cluster-api',
        `ctr -n k8s.io images pull "${IMAGE}"`,
        `ctr -n k8s.io images tag "${IMAGE}" gcr.io/k8s-staging-cluster-api/capa-manager:e2e`,
      ]);
      expect(c.md['md-0']!.bootstrap.spec.template.spec.preKubeadmCommands).toEqual([
        `ctr -n k8s.io images pull "${IMAGE}"`,
        `ctr -n k8s.io images tag "${IMAGE}" gcr.io/k8s-staging-cluster-api/capa-manager:e2e`,
      ]);
      expect(c.md['md-0']!.infra.spec.template.spec.instanceType).toBe('t3.large');
      // capa-ci-1 keeps the defaulted 3: its limitAZ patch is disabled.
      expect(clusterOf(out, 'capa-ci-1').infraCluster.spec.network).toEqual({ vpc: { availabilityZoneUsageLimit: 3 } });
    });
  });
});
