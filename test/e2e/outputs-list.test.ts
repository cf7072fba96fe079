/**
 * The outputs list (`DIR/.render-clusterclass-outputs`) is repository content: a line committed to
 * it must never make `-o` delete or hide a file the tool did not write (issue 23, found by the
 * model-based test), and two runs at once on one DIR end in "in use", never a raw error.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot, run, snapshot, tempCopy } from '../helpers/tools.js';

const cli = (args: string[], cwd: string) => run('node', [binPath, ...args], { cwd });
const LIST = '.render-clusterclass-outputs';

/** The example rendered into itself (`render . -o .`), as a package that keeps its output beside its sources. */
function renderedInPlace(): string {
  const dir = tempCopy(join(repoRoot, 'examples', 'basic'));
  rmSync(join(dir, 'rendered'), { recursive: true });
  expect(cli(['render', '.', '-o', '.'], dir).code).toBe(0);
  return dir;
}

describe('a committed outputs-list line', () => {
  const sources = ['cluster-foo.yaml', 'clusterclass.yaml', 'Kptfile'];
  // Every shape of line that names a file this tool did not write: another Cluster's, a copied
  // input's, a Cluster's name that its layout does not give that path.
  const owners = ['bar/gone', 'bar/foo', '-', 'x/cluster-foo'];
  for (const source of sources) {
    for (const owner of owners) {
      it(`${source}<TAB>${owner}: no file changes, the Cluster renders as before`, () => {
        const dir = renderedInPlace();
        const before = snapshot(dir);
        appendFileSync(join(dir, LIST), `${source}\t${owner}\n`);
        const r = cli(['render', '.', '-o', '.'], dir);
        expect(r.code, r.stderr).toBe(0);
        const after = snapshot(dir);
        delete before[LIST];
        delete after[LIST];
        expect(after).toEqual(before);
        expect(r.stderr).toContain('0 pruned');
      });
    }
  }
});

describe('two runs at once on one DIR', () => {
  it('the one that does not get DIR says it is in use (40 pairs)', async () => {
    const dir = tempCopy(join(repoRoot, 'examples', 'basic'));
    const render = () =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [binPath, 'render', '.', '-o', 'out'], { cwd: dir });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const failures: string[] = [];
    for (let i = 0; i < 40; i++) {
      const file = join(dir, 'cluster-foo.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/replicas: \d+/, `replicas: ${i + 1}`));
      for (const r of await Promise.all([render(), render()]))
        if (r.code !== 0 && !r.stderr.includes('is in use by another render-clusterclass run')) failures.push(r.stderr);
    }
    // Before the fix some pairs ended "cannot write -o out: ENOENT ... link '.render-clusterclass-tmp-...'
    // -> '.render-clusterclass-lock'": the holder's sweep had removed the other run's lock draft.
    expect(failures).toEqual([]);
  }, 0);
});
