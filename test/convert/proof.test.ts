/**
 * The proof finds what differs and says where it came from: a converted estate edited by hand (a
 * patch reading another variable) is not equivalent, and each difference names the rendered
 * object, the field, both values and the patch operation that set it (the provenance report).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertSources } from '../../src/convert/index.js';
import { proofResults, proveEquivalent } from '../../src/convert/proof.js';
import { readYamlStream } from '../../src/krm/read.js';
import { FIXTURE_DIR, fixtureMissing } from '../realworld/helpers.js';

const FIXTURE = 'capz-ci-default-v1beta1.yaml';

describe.skipIf(fixtureMissing(FIXTURE))('proof of equivalence', () => {
  it('lists each difference with the template field or patch operation behind it', () => {
    const text = readFileSync(join(FIXTURE_DIR, FIXTURE), 'utf8');
    const converted = convertSources([{ path: FIXTURE, text }]).files[0]!.after;
    // By hand: the logLevel patch reads another variable.
    const edited = converted.replace('          variable: logLevel', '          variable: location');
    expect(edited).not.toBe(converted);
    const before = readYamlStream(text, FIXTURE);
    const after = readYamlStream(edited, FIXTURE);
    if (!before.ok || !after.ok) throw new Error('unreadable');
    const proof = proveEquivalent(before.items, after.items);
    expect(proof.equivalent).toBe(false);
    expect(proof.clusters.find((c) => c.cluster === 'default/capz-ci')?.verdict).toBe('different');
    const kcp = proof.differences.filter(
      (d) => d.cluster === 'default/capz-ci' && d.object.startsWith('KubeadmControlPlane '),
    );
    expect(kcp.map((d) => [d.path, d.before, d.after])).toEqual([
      ['spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs[3].value', '4', 'westeurope'],
    ]);
    expect(kcp[0]!.cause).toMatch(
      /^patch "logLevel" \(spec\.patches\[8\]\.definitions\[0\]\.jsonPatches\[1\]: add \/spec\/template\/spec\/kubeadmConfigSpec\/clusterConfiguration\/controllerManager\/extraArgs\/0\/value\); valueFrom\.variable location/,
    );
    // capz-ci-win failed before (logLevel unset) and now renders: a difference too.
    expect(proof.clusters.find((c) => c.cluster === 'default/capz-ci-win')?.verdict).toBe('different');
    const results = proofResults(proof);
    expect(results.filter((r) => r.severity === 'error').length).toBe(proof.differences.length);
    expect(results.find((r) => r.message.startsWith('KubeadmControlPlane '))?.message).toMatch(
      / differs: before "4", after "westeurope" \(patch "logLevel"/,
    );
  });
});
