/**
 * A class change that reaches a 2,000-Cluster fleet (bench/fleet.mjs): the Markdown plan leads
 * with the fleet summary and the gates, groups the one change, folds each Cluster, and stays
 * within GitHub's 65,536-character comment limit by leaving Clusters out, counted, with a pointer
 * to the full report. Through the real CLI.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetStream } from '../../bench/fleet.mjs';
import { binPath, run } from '../helpers/tools.js';

const CLUSTERS = 2000;
const WORKER =
  'kind: DevMachineTemplate\nmetadata:\n  name: fleet-worker\n  namespace: fleet\nspec:\n  template:\n    spec:\n      backend:\n        docker: {}';

function fleet(dir: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'fleet.yaml'), text);
  return dir;
}

describe('the Markdown plan of a 2,000-Cluster class change', () => {
  it('leads with the fleet and its gates, groups the change and stays under 65,536 characters', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-plan-fleet-'));
    const text = fleetStream(CLUSTERS);
    expect(text).toContain(WORKER);
    const base = fleet(join(dir, 'base'), text);
    // The class's general worker template gets a mount: every Cluster's md-general rolls.
    const head = fleet(
      join(dir, 'head'),
      text.replace(
        WORKER,
        WORKER.replace('docker: {}', 'docker: {extraMounts: [{containerPath: /data, hostPath: /data}]}'),
      ),
    );
    const r = run(process.execPath, [
      binPath,
      'plan',
      '--base',
      base,
      head,
      '--format',
      'markdown',
      '--max-rolling-clusters',
      '100',
    ]);
    expect(r.code).toBe(7);
    const md = r.stdout;
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md.split('\n').slice(0, 6)).toEqual([
      '## ClusterClass render plan',
      '',
      '**2,000 of 2,000 Clusters change, 2,000 roll out replacing 12,001 Machines, 0 newly fail validation.**',
      '',
      '- ❌ `--max-rolling-clusters 100 breached: 2,000 Cluster(s) roll out (exit 7)`',
      '',
    ]);
    expect(md).toContain('| `fleet/fleet` | 2,000 | 2,000 | 2,000 | 12,001 | 0 | 0 | 0 |');
    expect(md).toContain(
      '- 2,000 Clusters: DevMachineTemplate fleet-worker (new clone) gets `spec.template.spec.backend.docker.extraMounts` = `[{"containerPath":"/data","hostPath":"/data"}]`; rolls 2,000 MachineDeployments, replacing 12,001 Machines\n',
    );
    const folded = md.match(/<details><summary>/g)?.length ?? 0;
    expect(md.match(/<\/details>/g)?.length).toBe(folded);
    expect(folded).toBeGreaterThan(10);
    expect(md).toContain(
      `> **Not shown: ${String(CLUSTERS - folded).replace(/\B(?=(\d{3})+$)/, ',')} of 2,000 Clusters**, to stay within GitHub's 65,536-character comment limit. The full report: \`render-clusterclass plan --format json\``,
    );
  });
});
