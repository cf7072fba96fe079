/** The ClusterClass templates the desired-state tests render from: one of each kind a class references. */
export const TEMPLATES = `
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: {name: boot, namespace: ns}
spec: {template: {spec: {}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevMachinePoolTemplate
metadata: {name: pool, namespace: ns}
spec: {template: {spec: {}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevClusterTemplate
metadata: {name: infra, namespace: ns}
spec: {template: {spec: {backend: {docker: {}}}}}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {name: cp, namespace: ns}
spec: {template: {spec: {kubeadmConfigSpec: {clusterConfiguration: {}}}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevMachineTemplate
metadata: {name: machine, namespace: ns}
spec: {template: {spec: {backend: {docker: {}}}}}
`;
