/** Reference helpers over the normalized model. */
import type { ClusterClass, TemplateRef } from '../core/model.js';

/** Every template reference of a class. */
export function templateRefsOf(cc: ClusterClass): TemplateRef[] {
  const refs: TemplateRef[] = [cc.controlPlane.templateRef];
  if (cc.infrastructure) refs.push(cc.infrastructure.templateRef);
  if (cc.controlPlane.machineInfrastructure) refs.push(cc.controlPlane.machineInfrastructure.templateRef);
  for (const w of [...cc.workers.machineDeployments, ...cc.workers.machinePools])
    refs.push(w.bootstrap.templateRef, w.infrastructure.templateRef);
  return refs;
}
