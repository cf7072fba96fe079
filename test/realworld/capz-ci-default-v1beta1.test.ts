/**
 * capz-ci-default-v1beta1.yaml — CAPZ prow class `ci-default` (cluster.x-k8s.io/v1beta1):
 * v1beta1 machineHealthCheck classes, two MD classes (Linux/Windows), patches built from the
 * template-name builtins (§6, resolved with the two-pass naming of §3.3), a map-valued template
 * (`additionalTags`), `enabledIf` on an empty string, and an unquoted timestamp variable that must
 * stay a string (YAML 1.1 without timestamps, §7.4).
 *
 * capz-ci-win does not set the optional `logLevel`, but the `logLevel` patch reads it with
 * `valueFrom.variable` and has no enabledIf: CAPI's inline generator fails with
 * `variable "logLevel" does not exist` (§7.4, value.go). That Cluster must fail; capz-ci must not.
 */
import { describe, expect, it } from 'vitest';
import {
  MD_NAME,
  clusterOf,
  errorsFor,
  fixedLabels,
  fixtureMissing,
  nameRe,
  renderFixture,
  type FixtureRender,
} from './helpers.js';

const FILE = 'capz-ci-default-v1beta1.yaml';
const SSH_B64 =
  'c3NoLWVkMjU1MTkgQUFBQUMzTnphQzFsWkRJMU5URTVBQUFBSUZha2VLZXlGb3JGaXh0dXJlc09ubHkgY2FwekBleGFtcGxlLmNvbQ==';

const withWinLogLevel = (
  docs: { kind: string; metadata: { name: string }; spec: { topology: { variables: unknown[] } } }[],
) => {
  docs
    .find((d) => d.kind === 'Cluster' && d.metadata.name === 'capz-ci-win')!
    .spec.topology.variables.push({ name: 'logLevel', value: '2' });
};

describe.skipIf(fixtureMissing(FILE))('real-world: capz-ci-default-v1beta1', () => {
  let r: FixtureRender;
  let hub: FixtureRender;
  const render = () => (r ??= renderFixture(FILE));
  const renderHub = () => (hub ??= renderFixture(FILE, { settings: { outputApiVersion: 'v1beta2' } }));

  it('the only error: capz-ci-win, `variable "logLevel" does not exist` from the logLevel patch (CAPI fails the same way)', () => {
    const { errors } = render();
    expect(errors).toHaveLength(1);
    expect(errorsFor(render(), 'capz-ci-win')).toEqual(errors);
    const msg = errors[0]!.message;
    expect(msg).toContain('variable "logLevel" does not exist');
    expect(msg).toContain('"logLevel"');
    expect(msg).toContain('KubeadmControlPlaneTemplate');
    // Fault isolation: capz-ci (same class, same file) renders.
    expect([...render().clusters.keys()]).toEqual(['default/capz-ci']);
  });

  describe('capz-ci', () => {
    const c = () => clusterOf(render(), 'capz-ci');

    it('variables: the unquoted timestamp stays a string; workerMachineTypeWin defaulted and appended', () => {
      const vars = render().variables.get('default/capz-ci')!;
      expect(vars.map((v) => v.name)).toEqual([
        'subscriptionID',
        'controlPlaneMachineType',
        'workerMachineType',
        'sshPublicKey',
        'buildProvenance',
        'timestamp',
        'jobName',
        'clusterIdentityRef',
        'location',
        'k8sFeatureGates',
        'logLevel',
        'workerMachineTypeWin',
      ]);
      expect(vars.find((v) => v.name === 'timestamp')!.value).toBe('2026-08-19T22:21:07Z');
      expect(vars.find((v) => v.name === 'workerMachineTypeWin')!.value).toBe('Standard_B2s');
    });

    it('AzureCluster: additionalTags replaced by the map-valued template (timestamp as string), identity/location/subscription', () => {
      const infra = c().infraCluster;
      expect(infra.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta1');
      expect(infra.kind).toBe('AzureCluster');
      expect(infra.metadata.name).toMatch(nameRe('capz-ci-'));
      expect(infra.spec.additionalTags).toEqual({
        buildProvenance: 'canary',
        creationTimestamp: '2026-08-19T22:21:07Z',
        jobName: 'pull-cluster-api-provider-azure-e2e',
      });
      expect(infra.spec.identityRef).toEqual({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'AzureClusterIdentity',
        name: 'cluster-identity-ci',
      });
      expect(infra.spec.location).toBe('westeurope');
      expect(infra.spec.subscriptionID).toBe('00000000-1111-2222-3333-444444444444');
      expect(infra.spec.networkSpec.subnets).toHaveLength(2);
    });

    it('KCP (v1beta1): azure.json secret named from builtin.controlPlane.machineTemplate.infrastructureRef.name = the real clone name', () => {
      const { controlPlane: kcp, cpMachineTemplate } = c();
      expect(cpMachineTemplate.metadata.name).toMatch(nameRe('capz-ci-'));
      expect(kcp.spec.machineTemplate.infrastructureRef).toEqual({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'AzureMachineTemplate',
        name: cpMachineTemplate.metadata.name,
        namespace: 'default',
      });
      expect(kcp.spec.kubeadmConfigSpec.files).toEqual([
        {
          contentFrom: {
            secret: { key: 'control-plane-azure.json', name: `${cpMachineTemplate.metadata.name}-azure-json` },
          },
          owner: 'root:root',
          path: '/etc/kubernetes/azure.json',
          permissions: '0644',
        },
      ]);
    });

    it('KCP: controllerManager extraArgs get cluster-name (builtin.cluster.name) and v=4; k8sFeatureGates "" disables its patch', () => {
      const cc = c().controlPlane.spec.kubeadmConfigSpec.clusterConfiguration;
      expect(cc.controllerManager.extraArgs).toEqual({
        'allocate-node-cidrs': 'false',
        'cloud-provider': 'external',
        'cluster-name': 'capz-ci',
        v: '4',
      });
      expect(cc.apiServer).toEqual({ extraArgs: {}, timeoutForControlPlane: '20m' });
      expect(c().controlPlane.spec.replicas).toBe(1);
      expect(c().controlPlane.spec.version).toBe('v1.33.4');
    });

    it('AzureMachineTemplates: vmSize per role; sshPublicKey only on workers', () => {
      const { cpMachineTemplate, md } = c();
      expect(cpMachineTemplate.spec.template.spec.vmSize).toBe('Standard_D2s_v3');
      expect(cpMachineTemplate.spec.template.spec.sshPublicKey).toBe('');
      expect(cpMachineTemplate.spec.template.spec.dataDisks).toEqual([
        { diskSizeGB: 256, lun: 0, nameSuffix: 'etcddisk' },
      ]);
      expect(md['md-0']!.infra.spec.template.spec).toEqual({
        osDisk: { diskSizeGB: 128, osType: 'Linux' },
        sshPublicKey: SSH_B64,
        vmSize: 'Standard_D4s_v3',
      });
    });

    it('md-0 bootstrap: azure.json secret named from builtin.machineDeployment.infrastructureRef.name = the real infra clone name', () => {
      const { bootstrap, infra, md } = c().md['md-0']!;
      expect(infra.metadata.name).toMatch(nameRe('capz-ci-md-0-'));
      expect(md.spec.template.spec.infrastructureRef.name).toBe(infra.metadata.name);
      expect(bootstrap.spec.template.spec.files).toEqual([
        {
          contentFrom: { secret: { key: 'worker-node-azure.json', name: `${infra.metadata.name}-azure-json` } },
          owner: 'root:root',
          path: '/etc/kubernetes/azure.json',
          permissions: '0644',
        },
      ]);
      expect(bootstrap.spec.template.spec.preKubeadmCommands).toEqual([]);
      expect(bootstrap.spec.template.spec.users).toBeUndefined();
    });

    it('md-0 MHC from the v1beta1 class machineHealthCheck (maxUnhealthy 100%, timeout 30s, startup defaulted)', () => {
      const { mhc, md } = c().md['md-0']!;
      expect(mhc.metadata.name).toBe(md.metadata.name);
      expect(mhc.spec.maxUnhealthy).toBe('100%');
      expect(mhc.spec.unhealthyConditions).toEqual([{ type: 'E2ENodeUnhealthy', status: 'True', timeout: '30s' }]);
      expect(mhc.spec.nodeStartupTimeout).toBe('10m0s');
      expect(mhc.spec.selector).toEqual({ matchLabels: { 'topology.cluster.x-k8s.io/owned': '', [MD_NAME]: 'md-0' } });
      const hubMhc = clusterOf(renderHub(), 'capz-ci').md['md-0']!.mhc;
      expect(hubMhc.spec.checks).toEqual({
        nodeStartupTimeoutSeconds: 600,
        unhealthyNodeConditions: [{ type: 'E2ENodeUnhealthy', status: 'True', timeoutSeconds: 30 }],
      });
      expect(hubMhc.spec.remediation).toEqual({ triggerIf: { unhealthyLessThanOrEqualTo: '100%' } });
      expect(c().cpHealthCheck).toBeUndefined();
    });

    it('classic Cluster keeps the four user labels', () => {
      expect(c().cluster.metadata.labels).toEqual({
        'cloud-provider': 'azure',
        cni: 'calico',
        'containerd-logger': 'enabled',
        'csi-proxy': 'enabled',
        ...fixedLabels('capz-ci'),
      });
    });

    it('names are deterministic across renders', () => {
      const again = clusterOf(renderFixture(FILE), 'capz-ci');
      expect(again.all.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(
        c().all.map((o: { metadata: { name: string } }) => o.metadata.name),
      );
    });
  });

  describe('capz-ci-win with logLevel set in memory (exercises the Windows patches)', () => {
    let w: FixtureRender;
    const winRender = () => (w ??= renderFixture(FILE, { mutate: withWinLogLevel as never }));
    const win = () => clusterOf(winRender(), 'capz-ci-win');

    it('renders; variables: controlPlaneMachineType and workerMachineType defaulted', () => {
      expect(winRender().errors).toEqual([]);
      expect(win().controlPlane.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs.v).toBe('2');
      expect(
        winRender()
          .variables.get('default/capz-ci-win')!
          .map((v) => v.name),
      ).toEqual([
        'subscriptionID',
        'clusterIdentityRef',
        'location',
        'sshPublicKey',
        'workerMachineTypeWin',
        'k8sFeatureGates',
        'logLevel',
        'controlPlaneMachineType',
        'workerMachineType',
      ]);
    });

    it('k8sFeatureGates set → apiServer.extraArgs replaced by the template map', () => {
      expect(win().controlPlane.spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs).toEqual({
        'feature-gates': 'InPlacePodVerticalScaling=true',
      });
      expect(win().controlPlane.spec.replicas).toBe(3);
    });

    it('md-win bootstrap: Windows azure.json (builtin name), then users (sshPublicKeyWin), then tmpFolder appends a file — patch order', () => {
      const { bootstrap, infra } = win().md['md-win']!;
      const spec = bootstrap.spec.template.spec;
      expect(spec.files).toEqual([
        {
          contentFrom: { secret: { key: 'worker-node-azure.json', name: `${infra.metadata.name}-azure-json` } },
          owner: 'root:root',
          path: 'c:/k/azure.json',
          permissions: '0644',
        },
        {
          path: 'C:/defender-exclude-calico.ps1',
          permissions: '0744',
          content:
            'Add-MpPreference -ExclusionProcess C:/opt/cni/bin/calico.exe\nAdd-MpPreference -ExclusionProcess C:/opt/cni/bin/calico-ipam.exe',
        },
        {
          content:
            '# /tmp is assumed created and required for upstream e2e tests to pass\nNew-Item -ItemType Directory -Force -Path C:\\tmp\\\n',
          path: 'C:/create-temp-folder.ps1',
          permissions: '0744',
        },
      ]);
      expect(spec.users).toEqual([{ name: 'capi', groups: 'Administrators', sshAuthorizedKeys: [SSH_B64] }]);
      expect(spec.preKubeadmCommands).toEqual(['powershell C:/create-temp-folder.ps1']);
      expect(spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.v).toBe('2');
    });

    it('md-win infra: workerMachineTypeWin, sshPublicKey, template object annotation kept; md-0 uses the defaulted Standard_B2s', () => {
      const { infra } = win().md['md-win']!;
      expect(infra.spec.template.spec.vmSize).toBe('Standard_D4s_v3');
      expect(infra.spec.template.spec.sshPublicKey).toBe(SSH_B64);
      expect(infra.metadata.annotations.runtime).toBe('containerd');
      expect(win().md['md-0']!.infra.spec.template.spec.vmSize).toBe('Standard_B2s');
      // md-0 (Linux) is not touched by the *-win patches.
      expect(win().md['md-0']!.bootstrap.spec.template.spec.users).toBeUndefined();
    });

    it('`machineHealthCheck.enable: false` on md-win removes its MHC; md-0 keeps the class one', () => {
      expect(win().md['md-win']!.mhc).toBeUndefined();
      expect(win().md['md-0']!.mhc).toBeDefined();
      expect(win().mhcs).toHaveLength(1);
    });
  });
});
