/**
 * A small class for the extension tests: inline patches before and after two external ones (a
 * JSONPatch from discovered variables and builtins, a JSONMergePatch), so the order CAPI applies
 * them in shows in the rendered list of preKubeadmCommands; a Cluster in namespace `team-a`
 * with a variable, a defaulted discovered variable and an MD override.
 */
export const EXT = 'test-extension';

export interface ClassOptions {
  /** generatePatchesExtension of the first external patch (a handler of the test extension). */
  generate?: string;
  /** validateTopologyExtension on the merge patch. */
  validate?: string;
  /** discoverVariablesExtension of the first external patch (default discover-region). */
  discover?: string;
  /** An inline definition of `region` too (spec.variables). */
  inlineRegion?: boolean;
  /** An exported status.variables defining `region` differently (as `kubectl get -o yaml` would show an older status). */
  exportedStatus?: boolean;
}

export function classYaml(o: ClassOptions = {}): string {
  return `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: ext-class
  namespace: team-a
spec:
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp}
    machineInfrastructure:
      templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevMachineTemplate, name: cp-machine}
  infrastructure:
    templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevClusterTemplate, name: cluster}
${o.inlineRegion ? '  variables:\n  - {name: region, required: false, schema: {openAPIV3Schema: {type: string, default: eu-west-1, enum: [eu-west-1, us-east-2]}}}\n' : ''}  workers:
    machineDeployments:
    - class: worker
      bootstrap:
        templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: worker-bootstrap}
      infrastructure:
        templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevMachineTemplate, name: worker-machine}
  patches:
  - name: inline-first
    definitions:
    - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
      jsonPatches:
      - {op: add, path: /spec/template/spec/kubeadmConfigSpec/preKubeadmCommands, value: [echo inline-first]}
  - name: from-extension
    external:
      generatePatchesExtension: ${o.generate ?? 'builtin-patches'}.${EXT}
      discoverVariablesExtension: ${o.discover ?? 'discover-region'}.${EXT}
      settings: {mode: strict}
  - name: merge
    external:
      generatePatchesExtension: merge-patches.${EXT}
${o.validate ? `      validateTopologyExtension: ${o.validate}.${EXT}\n` : ''}  - name: inline-last
    definitions:
    - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}
      jsonPatches:
      - {op: add, path: /spec/template/spec/kubeadmConfigSpec/preKubeadmCommands/-, value: echo inline-last}
${o.exportedStatus ? 'status:\n  variables:\n  - name: region\n    definitionsConflict: false\n    definitions:\n    - {from: from-extension, required: true, schema: {openAPIV3Schema: {type: string, enum: [mars]}}}\n' : ''}---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {name: cp, namespace: team-a}
spec:
  template:
    spec:
      kubeadmConfigSpec:
        clusterConfiguration: {apiServer: {certSANs: [localhost]}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevMachineTemplate
metadata: {name: cp-machine, namespace: team-a}
spec: {template: {spec: {backend: {docker: {extraMounts: []}}}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevMachineTemplate
metadata: {name: worker-machine, namespace: team-a}
spec: {template: {spec: {backend: {docker: {extraMounts: []}}}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevClusterTemplate
metadata: {name: cluster, namespace: team-a}
spec:
  template:
    spec:
      backend:
        docker:
          failureDomains: [{name: fd1, controlPlane: true}]
          loadBalancer: {imageRepository: kindest}
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: {name: worker-bootstrap, namespace: team-a}
spec: {template: {spec: {joinConfiguration: {nodeRegistration: {}}}}}
`;
}

export function clusterYaml(extraCommand = 'echo from variable', region?: string): string {
  return `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: ext-1, namespace: team-a}
spec:
  topology:
    classRef: {name: ext-class}
    version: v1.34.2
    controlPlane: {replicas: 3}
    variables:
    - {name: extraCommand, value: ${JSON.stringify(extraCommand)}}
${region ? `    - {name: region, value: ${region}}\n` : ''}    workers:
      machineDeployments:
      - class: worker
        name: md-0
        replicas: 2
        variables:
          overrides:
          - {name: region, value: us-east-2}
`;
}

export const namespaceYaml = (labels: Record<string, string>) =>
  `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels: ${JSON.stringify(labels)}\n`;
