/** Types shared by the topology stage's modules, so none imports another for a type. */
import type { JsonObject, MachineDeploymentTopology, MachinePoolTopology } from '../core/model.js';
import type { MachineDeploymentBlueprint, MachinePoolBlueprint } from '../blueprint/blueprint.js';

export type CoreVersion = 'v1beta1' | 'v1beta2';

export interface DesiredMachineDeployment {
  topology: MachineDeploymentTopology;
  blueprint: MachineDeploymentBlueprint;
  bootstrapTemplate: JsonObject;
  infrastructureTemplate: JsonObject;
  machineDeployment: JsonObject;
  healthCheck?: JsonObject;
}

export interface DesiredMachinePool {
  topology: MachinePoolTopology;
  blueprint: MachinePoolBlueprint;
  bootstrapObject: JsonObject;
  infrastructureObject: JsonObject;
  machinePool: JsonObject;
}

/** Names of everything generated for one Cluster (CAPI internal/topology/names/names.go). */
export interface TopologyNames {
  infrastructureCluster?: string;
  controlPlane: string;
  controlPlaneMachineTemplate?: string;
  machineDeployments: Map<
    string,
    { machineDeployment: string; bootstrapTemplate: string; infrastructureTemplate: string }
  >;
  machinePools: Map<string, { machinePool: string; bootstrapObject: string; infrastructureObject: string }>;
}
