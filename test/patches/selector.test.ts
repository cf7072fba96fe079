/**
 * Patch selectors, as `matchesSelector` in CAPI's
 * core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go (cases from its
 * TestMatchesSelector where they exist).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, PatchSelector } from '../../src/core/model.js';
import { compileSelector, matchesSelector } from '../../src/patches/selector.js';
import { BOOT_API, CP_API, INFRA_API, cpItem, cpMachineItem, infraItem, mdItems, mpItems } from './fixtures.js';

const sel = (apiVersion: string, kind: string, matchResources: PatchSelector['matchResources']) =>
  compileSelector({ apiVersion, kind, matchResources });

describe('selector matching', () => {
  it('requires exact apiVersion and kind', () => {
    const item = infraItem();
    expect(matchesSelector(item, sel(INFRA_API, 'DevClusterTemplate', { infrastructureCluster: true }))).toBe(true);
    expect(
      matchesSelector(
        item,
        sel('infrastructure.cluster.x-k8s.io/v1beta2', 'DevClusterTemplate', { infrastructureCluster: true }),
      ),
    ).toBe(false);
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
    expect(
      matchesSelector(boot!, sel(BOOT_API, 'KubeadmConfigTemplate', { machineDeploymentClass: { names: ['*'] } })),
    ).toBe(true);
  });

  it('falls back to builtin.machineDeployment.class when className is not given', () => {
    const [, infra] = mdItems('md-0', 'default-worker', {}, false);
    expect(infra!.className).toBeUndefined();
    expect(
      matchesSelector(
        infra!,
        sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names: ['default-worker'] } }),
      ),
    ).toBe(true);
    const noBuiltin = { ...infra!, variables: {} };
    expect(
      matchesSelector(noBuiltin, sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names: ['*'] } })),
    ).toBe(false);
  });

  it('machineDeploymentClass requires a MachineDeployment holder with an MD field path', () => {
    const [, infra] = mdItems('md-0', 'default-worker');
    const s = sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names: ['*'] } });
    expect(matchesSelector({ ...infra!, holder: { ...infra!.holder, kind: 'MachinePool' } }, s)).toBe(false);
    expect(matchesSelector({ ...infra!, holder: { ...infra!.holder, fieldPath: 'spec.infrastructureRef' } }, s)).toBe(
      false,
    );
  });

  it('machinePoolClass matches MachinePool items only', () => {
    const [mpBoot, mpInfra] = mpItems('mp-0', 'default-pool');
    const s = sel(INFRA_API, 'DevMachinePoolTemplate', { machinePoolClass: { names: ['default-*'] } });
    expect(matchesSelector(mpInfra!, s)).toBe(true);
    expect(
      matchesSelector(mpInfra!, sel(INFRA_API, 'DevMachinePoolTemplate', { machineDeploymentClass: { names: ['*'] } })),
    ).toBe(false);
    expect(
      matchesSelector(mpBoot!, sel(BOOT_API, 'KubeadmConfigTemplate', { machinePoolClass: { names: ['*-pool'] } })),
    ).toBe(true);
    const [mdBoot] = mdItems('md-0', 'default-pool');
    expect(
      matchesSelector(mdBoot!, sel(BOOT_API, 'KubeadmConfigTemplate', { machinePoolClass: { names: ['*'] } })),
    ).toBe(false);
  });

  it('one selector can combine controlPlane and machineDeploymentClass', () => {
    const s = sel(INFRA_API, 'DevMachineTemplate', {
      controlPlane: true,
      machineDeploymentClass: { names: ['default-worker'] },
    });
    expect(matchesSelector(cpMachineItem(), s)).toBe(true);
    expect(matchesSelector(mdItems('md-0', 'default-worker')[1]!, s)).toBe(true);
    expect(matchesSelector(mdItems('md-1', 'other')[1]!, s)).toBe(false);
  });
});

describe('class names (matchesSelector: "*", equality, "*suffix", "prefix*")', () => {
  const mdInfra = (cls: string) => mdItems('md-0', cls)[1]!;
  const mpInfra = (cls: string) => mpItems('mp-0', cls)[1]!;
  const mdSel = (names: string[]) => sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names } });
  const mpSel = (names: string[]) => sel(INFRA_API, 'DevMachinePoolTemplate', { machinePoolClass: { names } });

  it('a MachinePool selector picks pools by class name, not every pool with the template kind', () => {
    // TestMatchesSelector "Don't match BootstrapTemplate, .matchResources.machinePoolClass does not match".
    expect(matchesSelector(mpInfra('classA'), mpSel(['classB']))).toBe(false);
    expect(matchesSelector(mpInfra('classA'), mpSel(['classA']))).toBe(true);
    expect(matchesSelector(mpInfra('linux-pool'), mpSel(['windows-*']))).toBe(false);
    expect(matchesSelector(mpInfra('linux-pool'), mpSel(['*-workers']))).toBe(false);
    expect(matchesSelector(mpInfra('linux-pool'), mpSel([]))).toBe(false);
  });

  it('"prefix*" needs the whole prefix: linux-* does not select every class starting with "l"', () => {
    // strings.HasPrefix(class, strings.TrimSuffix(name, "*")).
    expect(matchesSelector(mdInfra('linux-workers'), mdSel(['linux-*']))).toBe(true);
    expect(matchesSelector(mdInfra('linux-'), mdSel(['linux-*']))).toBe(true);
    expect(matchesSelector(mdInfra('large-workers'), mdSel(['linux-*']))).toBe(false);
    expect(matchesSelector(mdInfra('linux'), mdSel(['linux-*']))).toBe(false);
    expect(matchesSelector(mpInfra('lin'), mpSel(['linux-*']))).toBe(false);
  });

  it('"*suffix" needs the whole suffix', () => {
    // strings.HasSuffix(class, strings.TrimPrefix(name, "*")); TestMatchesSelector "*-A".
    expect(matchesSelector(mdInfra('class-A'), mdSel(['*-A']))).toBe(true);
    expect(matchesSelector(mdInfra('class-B'), mdSel(['*-A']))).toBe(false);
    expect(matchesSelector(mdInfra('big-workers'), mdSel(['*-workers']))).toBe(true);
    expect(matchesSelector(mdInfra('big-worker'), mdSel(['*-workers']))).toBe(false);
    expect(matchesSelector(mdInfra('s'), mdSel(['*-workers']))).toBe(false);
  });

  it('a plain name selects only the identical class, never by prefix or suffix (seed 18)', () => {
    expect(matchesSelector(mdInfra('default-worker'), mdSel(['worker']))).toBe(false);
    expect(matchesSelector(mdInfra('default-workers'), mdSel(['default-worker']))).toBe(false);
    expect(matchesSelector(mdInfra('default-worker'), mdSel(['']))).toBe(false);
    const plain = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,12}$/);
    fc.assert(
      fc.property(plain, fc.oneof(plain, fc.constantFrom('undefined', 'x-undefined')), (name, cls) => {
        expect(matchesSelector(mdInfra(cls), mdSel([name]))).toBe(cls === name);
        expect(matchesSelector(mpInfra(cls), mpSel([name]))).toBe(cls === name);
      }),
      { seed: 18 },
    );
  });

  it('"*" selects every class, also one named "*"; any one matching name of the list is enough', () => {
    expect(matchesSelector(mdInfra('anything'), mdSel(['*']))).toBe(true);
    expect(matchesSelector(mpInfra('anything'), mpSel(['nope', '*']))).toBe(true);
    expect(matchesSelector(mpInfra('b'), mpSel(['a', 'b', 'c']))).toBe(true);
  });
});

describe('builtin class fallback (GetVariableValue "builtin.<machineDeployment|machinePool>.class")', () => {
  const mdInfra = (variables: Record<string, Json>) => ({ ...mdItems('md-0', 'x', {}, false)[1]!, variables });
  const mpInfra = (variables: Record<string, Json>) => {
    const { className: _, ...item } = mpItems('mp-0', 'x')[1]!;
    return { ...item, variables };
  };
  const mdSel = (names: string[]) => sel(INFRA_API, 'DevMachineTemplate', { machineDeploymentClass: { names } });
  const mpSel = (names: string[]) => sel(INFRA_API, 'DevMachinePoolTemplate', { machinePoolClass: { names } });

  it('reads the class of its own kind from the item variables', () => {
    // TestMatchesSelector "Match MP BootstrapTemplate": builtin {"machinePool":{"class":"classA"}}.
    expect(matchesSelector(mpInfra({ builtin: { machinePool: { class: 'classA' } } }), mpSel(['classA']))).toBe(true);
    expect(matchesSelector(mpInfra({ builtin: { machinePool: { class: 'classA' } } }), mpSel(['classB']))).toBe(false);
    expect(matchesSelector(mpInfra({ builtin: { machineDeployment: { class: 'classA' } } }), mpSel(['classA']))).toBe(
      false,
    );
    expect(matchesSelector(mdInfra({ builtin: { machineDeployment: { class: 'class-A' } } }), mdSel(['class-*']))).toBe(
      true,
    );
    expect(matchesSelector(mdInfra({ builtin: { machinePool: { class: 'class-A' } } }), mdSel(['*']))).toBe(false);
  });

  it('when the variable cannot be read nothing matches, not even "*"', () => {
    // `if err == nil { ... }`: a missing variable or segment is a notFoundError.
    for (const variables of [
      {},
      { builtin: null },
      { builtin: [] },
      { builtin: 'x' },
      { builtin: {} },
      { builtin: { machinePool: null } },
      { builtin: { machinePool: ['class'] } },
      { builtin: { machinePool: {} } },
    ] as Record<string, Json>[]) {
      expect(matchesSelector(mpInfra(variables), mpSel(['*'])), JSON.stringify(variables)).toBe(false);
    }
    expect(matchesSelector(mdInfra({ builtin: { machineDeployment: null } }), mdSel(['*']))).toBe(false);
  });

  it('a class that is not a JSON string matches "*" only (strconv.Unquote fails and yields "")', () => {
    for (const cls of [5, null, true, { a: 1 }] as Json[]) {
      const variables = { builtin: { machinePool: { class: cls } } };
      expect(matchesSelector(mpInfra(variables), mpSel(['*'])), JSON.stringify(cls)).toBe(true);
      expect(matchesSelector(mpInfra(variables), mpSel(['5', '5*', '*5', 'null'])), JSON.stringify(cls)).toBe(false);
    }
  });
});

describe('holders (matchesSelector field paths)', () => {
  it('infrastructureCluster needs a Cluster holder at spec.infrastructureRef', () => {
    const s = sel(INFRA_API, 'DevClusterTemplate', { infrastructureCluster: true });
    const item = infraItem();
    expect(matchesSelector({ ...item, holder: { ...item.holder, kind: 'MachineDeployment' } }, s)).toBe(false);
  });

  it('controlPlane: a Cluster holder at spec.controlPlaneRef, or any holder at a CP machine template path', () => {
    const s = sel(CP_API, 'KubeadmControlPlaneTemplate', { controlPlane: true });
    const item = cpItem();
    expect(matchesSelector({ ...item, holder: { ...item.holder, kind: 'MachineDeployment' } }, s)).toBe(false);
    expect(matchesSelector({ ...item, holder: { ...item.holder, fieldPath: 'spec.infrastructureRef' } }, s)).toBe(
      false,
    );
    // "Note: this field path is only used in this context": the holder kind is not checked.
    expect(
      matchesSelector(
        {
          ...item,
          holder: { ...item.holder, kind: 'AnyControlPlane', fieldPath: 'spec.machineTemplate.infrastructureRef' },
        },
        s,
      ),
    ).toBe(true);
  });

  it('machinePoolClass needs a MachinePool holder at the bootstrap or infrastructure ref', () => {
    const [boot, infra] = mpItems('mp-0', 'default-pool');
    const s = sel(INFRA_API, 'DevMachinePoolTemplate', { machinePoolClass: { names: ['*'] } });
    expect(matchesSelector(infra!, s)).toBe(true);
    expect(matchesSelector({ ...infra!, holder: { ...infra!.holder, kind: 'MachineDeployment' } }, s)).toBe(false);
    expect(matchesSelector({ ...infra!, holder: { ...infra!.holder, fieldPath: 'spec.infrastructureRef' } }, s)).toBe(
      false,
    );
    expect(matchesSelector(boot!, sel(BOOT_API, 'KubeadmConfigTemplate', { machinePoolClass: { names: ['*'] } }))).toBe(
      true,
    );
  });
});
