import { describe, expect, it } from 'vitest';
import type { PatchSelector } from '../../src/api/model.js';
import { compileSelector, matchesSelector } from '../../src/patches/selector.js';
import { BOOT_API, CP_API, INFRA_API, cpItem, cpMachineItem, infraItem, mdItems, mpItems } from './fixtures.js';

const sel = (apiVersion: string, kind: string, matchResources: PatchSelector['matchResources']) =>
  compileSelector({ apiVersion, kind, matchResources });

describe('selector matching', () => {
  it('requires exact apiVersion and kind', () => {
    const item = infraItem();
    expect(matchesSelector(item, sel(INFRA_API, 'DevClusterTemplate', { infrastructureCluster: true }))).toBe(true);
    expect(matchesSelector(item, sel('infrastructure.cluster.x-k8s.io/v1beta2', 'DevClusterTemplate', { infrastructureCluster: true }))).toBe(false);
    expect(matchesSelector(item, sel(INFRA_API, 'DevMachineTemplate', { infrastructureCluster: true }))).toBe(false);
  });

  it('infrastructureCluster matches only the Cluster spec.infrastructureRef holder', () => {
    const s = sel(INFRA_API, 'DevClusterTemplate', { infrastructureCluster: true });
    expect(matchesSelector(infraItem(), s)).toBe(true);
    const other = { ...infraItem(), holder: { ...infraItem().holder, fieldPath: 'spec.controlPlaneRef' } };
    expect(matchesSelector(other, s)).toBe(false);
    expect(matchesSelector(infraItem(), sel(INFRA_API, 'DevClusterTemplate', { controlPlane: true }))).toBe(false);
    expect(matchesSelector(infraItem(), sel(INFRA_API, 'DevClusterTemplate', {}))).toBe(false);
  });

  it('controlPlane matches the CP template and the CP machine template (both contract field paths)', () => {
    expect(matchesSelector(cpItem(), sel(CP_API, 'KubeadmControlPlaneTemplate', { controlPlane: true }))).toBe(true);
    const s = sel(INFRA_API, 'DevMachineTemplate', { controlPlane: true });
    expect(matchesSelector(cpMachineItem('spec.machineTemplate.spec.infrastructureRef'), s)).toBe(true);
    expect(matchesSelector(cpMachineItem('spec.machineTemplate.infrastructureRef'), s)).toBe(true);
    // The same kind used by an MD is not matched by controlPlane alone.
    expect(matchesSelector(mdItems('md-0', 'default-worker')[1]!, s)).toBe(false);
  });

  it('machineDeploymentClass matches by class name with wildcards', () => {
    const [boot, infra] = mdItems('md-0', 'default-worker');
    const s = (names: string[]) => sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names } });
    expect(matchesSelector(infra!, s(['default-worker']))).toBe(true);
    expect(matchesSelector(infra!, s(['*']))).toBe(true);
    expect(matchesSelector(infra!, s(['default-*']))).toBe(true);
    expect(matchesSelector(infra!, s(['*-worker']))).toBe(true);
    expect(matchesSelector(infra!, s(['other', '*worker']))).toBe(true);
    expect(matchesSelector(infra!, s(['other']))).toBe(false);
    expect(matchesSelector(infra!, s(['*-other']))).toBe(false);
    expect(matchesSelector(infra!, s(['x*']))).toBe(false);
    expect(matchesSelector(infra!, s(['default*worker']))).toBe(false); // no infix wildcard
    expect(matchesSelector(infra!, s([]))).toBe(false);
    // Bootstrap template of the same MD: kind differs.
    expect(matchesSelector(boot!, s(['*']))).toBe(false);
    expect(matchesSelector(boot!, sel(BOOT_API, 'KubeadmConfigTemplate', { machineDeploymentClass: { names: ['*'] } }))).toBe(true);
  });

  it('falls back to builtin.machineDeployment.class when className is not given', () => {
    const [, infra] = mdItems('md-0', 'default-worker', {}, false);
    expect(infra!.className).toBeUndefined();
    expect(matchesSelector(infra!, sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names: ['default-worker'] } }))).toBe(true);
    const noBuiltin = { ...infra!, variables: {} };
    expect(matchesSelector(noBuiltin, sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names: ['*'] } }))).toBe(false);
  });

  it('machineDeploymentClass requires a MachineDeployment holder with an MD field path', () => {
    const [, infra] = mdItems('md-0', 'default-worker');
    const s = sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names: ['*'] } });
    expect(matchesSelector({ ...infra!, holder: { ...infra!.holder, kind: 'MachinePool' } }, s)).toBe(false);
    expect(matchesSelector({ ...infra!, holder: { ...infra!.holder, fieldPath: 'spec.infrastructureRef' } }, s)).toBe(false);
  });

  it('machinePoolClass matches MachinePool items only', () => {
    const [mpBoot, mpInfra] = mpItems('mp-0', 'default-pool');
    const s = sel(INFRA_API, 'DevMachinePoolTemplate', { machinePoolClass: { names: ['default-*'] } });
    expect(matchesSelector(mpInfra!, s)).toBe(true);
    expect(matchesSelector(mpInfra!, sel(INFRA_API, 'DevMachinePoolTemplate', { machineDeploymentClass: { names: ['*'] } }))).toBe(false);
    expect(matchesSelector(mpBoot!, sel(BOOT_API, 'KubeadmConfigTemplate', { machinePoolClass: { names: ['*-pool'] } }))).toBe(true);
    const [mdBoot] = mdItems('md-0', 'default-pool');
    expect(matchesSelector(mdBoot!, sel(BOOT_API, 'KubeadmConfigTemplate', { machinePoolClass: { names: ['*'] } }))).toBe(false);
  });

  it('one selector can combine controlPlane and machineDeploymentClass', () => {
    const s = sel(INFRA_API, 'DevMachineTemplate', { controlPlane: true, machineDeploymentClass: { names: ['default-worker'] } });
    expect(matchesSelector(cpMachineItem(), s)).toBe(true);
    expect(matchesSelector(mdItems('md-0', 'default-worker')[1]!, s)).toBe(true);
    expect(matchesSelector(mdItems('md-1', 'other')[1]!, s)).toBe(false);
  });
});
