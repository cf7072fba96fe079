/**
 * Issue 27: `render PATH -o DIR` run again reuses an unchanged Cluster's files instead of rendering
 * it again (pipeline/reuse.ts, the KRM function's rule; the marks live in DIR's outputs list,
 * cli/outdir.ts). Everything through the built CLI. What is observed: the inputs mark of each
 * Cluster's files in the list (the digest of what its render reads), the summary line's count of
 * reused files, the files' inode and mtime, and a fresh render (`--no-reuse`, an empty DIR).
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { classObjects, clusterObject } from '../../bench/fleet.mjs';
import { binPath, run } from '../helpers/tools.js';
import { tree } from '../helpers/tree.js';

const LIST = '.render-clusterclass-outputs';
const SEED = 2727;

/** Whether the state of each input a test toggles is the edited one. */
const TOGGLES = [
  'clusterA1', // Cluster a1 itself
  'classA', // ClusterClass a (a1, a2)
  'templateA', // a template class a references
  'templateB', // a template class b references (b1 only)
  'spare', // a template no class references
  'a3', // another Cluster of class a, added or removed
  'crd', // a CRD (--crds): every render reads them
  'config', // a function-config key (--config)
  'capi', // the CAPI version
  'gate', // a feature gate
  'build', // the renderer's build
] as const;
type Toggle = (typeof TOGGLES)[number];
type State = Record<Toggle, boolean>;
const EVERY_RENDER: Toggle[] = ['crd', 'config', 'capi', 'gate', 'build'];
/** The toggles each tracked Cluster's render reads. */
const READS: Record<string, Toggle[]> = {
  'fleet/a1': [...EVERY_RENDER, 'clusterA1', 'classA', 'templateA'],
  'fleet/a2': [...EVERY_RENDER, 'classA', 'templateA'],
  'fleet/b1': [...EVERY_RENDER, 'templateB'],
};

const yaml = (objects: unknown[]) => objects.map((o) => YAML.stringify(o)).join('---\n');
type Obj = { kind: string; metadata: { name: string; labels?: Record<string, string> }; spec: Record<string, unknown> };

/** The fleet class as class `name`: its templates renamed after it, so that each class has its own. */
function fleetClass(name: string, edited: { cls: boolean; template: boolean }): Obj[] {
  const text = yaml(classObjects()).replace(/\bname: fleet(-[a-z-]+)?\b/g, `name: ${name}$1`);
  const objects = YAML.parseAllDocuments(text).map((d) => d.toJS() as Obj);
  const label = (o: Obj | undefined, on: boolean) => {
    if (o && on) o.metadata.labels = { ...o.metadata.labels, 'example.com/revision': '2' };
  };
  label(
    objects.find((o) => o.kind === 'ClusterClass'),
    edited.cls,
  );
  label(
    objects.find((o) => o.metadata.name === `${name}-gpu`),
    edited.template,
  );
  return objects;
}

function cluster(name: string, i: number, cls: string, edited = false): Obj {
  const c = clusterObject(i) as Obj & { spec: { topology: { classRef: { name: string } } } };
  c.metadata.name = name;
  c.spec.topology.classRef.name = cls;
  if (edited) c.metadata.labels = { ...c.metadata.labels, 'example.com/revision': '2' };
  return c;
}

const CRD = (edited: boolean) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: edited ? 'edited' : 'a widget',
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
    ],
  },
});

/** A copy of the built CLI whose build differs (the bundle's only 16-hex-digit literal besides the hex alphabet). */
function otherBuild(ws: string): string {
  const bundle = readFileSync(join(binPath, '..', '..', 'dist', 'render-clusterclass.cjs'), 'utf8');
  const builds = [...bundle.matchAll(/"([0-9a-f]{16})"/g)].map((m) => m[1]).filter((b) => b !== '0123456789abcdef');
  expect(builds).toHaveLength(1);
  mkdirSync(join(ws, 'other', 'bin'), { recursive: true });
  mkdirSync(join(ws, 'other', 'dist'));
  copyFileSync(binPath, join(ws, 'other', 'bin', 'render-clusterclass'));
  writeFileSync(
    join(ws, 'other', 'dist', 'render-clusterclass.cjs'),
    bundle.replace(`"${builds[0]}"`, '"0000000000000000"'),
  );
  return join(ws, 'other', 'bin', 'render-clusterclass');
}

/** Writes the repository (`repo/`), the CRDs and the config as `s` says; the command line that renders it into `out`. */
function setUp(ws: string, s: State, other: string): (out: string, ...extra: string[]) => string[] {
  rmSync(join(ws, 'repo'), { recursive: true, force: true });
  mkdirSync(join(ws, 'repo'));
  mkdirSync(join(ws, 'crds'), { recursive: true });
  const write = (path: string, objects: unknown[]) => writeFileSync(join(ws, path), yaml(objects));
  write('repo/class-a.yaml', fleetClass('a', { cls: s.classA, template: s.templateA }));
  write('repo/class-b.yaml', fleetClass('b', { cls: false, template: s.templateB }));
  const spare = fleetClass('spare', { cls: false, template: s.spare }).filter((o) => o.metadata.name === 'spare-gpu');
  write('repo/spare.yaml', spare);
  write('repo/a1.yaml', [cluster('a1', 1, 'a', s.clusterA1)]);
  write('repo/a2.yaml', [cluster('a2', 2, 'a')]);
  write('repo/b1.yaml', [cluster('b1', 3, 'b')]);
  if (s.a3) write('repo/a3.yaml', [cluster('a3', 4, 'a')]);
  write('crds/widget.yaml', [CRD(s.crd)]);
  const data = s.config ? { upgrade: 'all-at-once' } : { upgrade: 'control-plane-first' };
  write('config.yaml', [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'render' }, data }]);
  return (out, ...extra) => [
    s.build ? other : binPath,
    'render',
    'repo',
    '-o',
    out,
    '--crds',
    'crds',
    '--config',
    'config.yaml',
    '--capi-version',
    s.capi ? '1.13' : '1.14',
    ...(s.gate ? ['--feature-gates', 'MachineTaintPropagation=true'] : []),
    ...extra,
  ];
}

/** Each Cluster's inputs marks in DIR's outputs list (third column of its lines). */
function marks(dir: string): Map<string, string> {
  const byCluster = new Map<string, string>();
  for (const line of readFileSync(join(dir, LIST), 'utf8').split('\n')) {
    const [path, owner, inputs] = line.split('\t');
    if (line.startsWith('#') || !path || !owner) continue;
    byCluster.set(owner, `${byCluster.get(owner) ?? ''}${inputs ?? '(none)'} `);
  }
  return byCluster;
}

const reusedFiles = (stderr: string) => Number(/ unchanged \((\d+) reused: inputs unchanged\)/.exec(stderr)?.[1] ?? 0);
/** Each file's identity and mtime: a file rewritten gets a new inode (renamed into place). */
const stamps = (dir: string, files: readonly string[]) =>
  files.map((f) => {
    const st = statSync(join(dir, f));
    return `${f} ${st.ino} ${st.mtimeMs}`;
  });
const outputs = (dir: string) => {
  const { [LIST]: _list, ...files } = tree(dir);
  return files;
};
const cli = (args: string[], cwd: string) => {
  const [bin = '', ...rest] = args;
  return run('node', [bin, ...rest], { cwd });
};

describe('render -o DIR reuses an unchanged Cluster’s files', () => {
  it(`the inputs mark changes exactly when an input the Cluster's render reads changes; only those Clusters are rendered again (seed ${SEED})`, async () => {
    const ws = mkdtempSync(join(tmpdir(), 'rcc-reuse-o-'));
    const other = otherBuild(ws);
    const steps = fc.tuple(
      fc.shuffledSubarray([...TOGGLES], { minLength: TOGGLES.length }),
      fc.array(fc.constantFrom(...TOGGLES), { minLength: 3, maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(steps, async ([all, more]) => {
        const state = Object.fromEntries(TOGGLES.map((t) => [t, false])) as State;
        rmSync(join(ws, 'out'), { recursive: true, force: true });
        let args = setUp(ws, state, other);
        expect(cli(args('out'), ws).code).toBe(0);
        /** Per tracked Cluster: the mark seen for each state of what its render reads. */
        const seen = new Map(Object.keys(READS).map((c) => [c, new Map<string, string>()]));
        const check = (now: Map<string, string>) => {
          for (const [c, reads] of Object.entries(READS)) {
            const key = reads.map((t) => Number(state[t])).join('');
            const mark = now.get(c) ?? '';
            const byState = seen.get(c)!;
            expect(mark, `${c}: a render without its mark`).toMatch(/^[0-9a-f]{32}\/1 $/);
            if (byState.has(key)) expect(mark, `${c}: the same inputs, another mark`).toBe(byState.get(key));
            else expect([...byState.values()], `${c}: other inputs, the same mark`).not.toContain(mark);
            byState.set(key, mark);
          }
        };
        check(marks(join(ws, 'out')));
        for (const toggle of [...all, ...more]) {
          const before = marks(join(ws, 'out'));
          const files = Object.keys(outputs(join(ws, 'out'))).filter((f) => !f.endsWith('/'));
          const stamped = stamps(join(ws, 'out'), files);
          state[toggle] = !state[toggle];
          args = setUp(ws, state, other);
          const r = cli(args('out'), ws);
          expect(r.code, `${toggle}: ${r.stderr}`).toBe(0);
          const after = marks(join(ws, 'out'));
          check(after);
          // Reused: exactly the Clusters (one file each) present before and after whose mark did not change.
          const unchanged = [...after].filter(([c, m]) => before.get(c) === m).map(([c]) => c);
          expect(reusedFiles(r.stderr), `${toggle}: ${r.stderr}`).toBe(unchanged.length);
          const untouched = unchanged.map((c) => `${c}.yaml`);
          expect(stamps(join(ws, 'out'), untouched)).toEqual(
            stamped.filter((s) => untouched.includes(s.split(' ')[0]!)),
          );
          // Whatever was reused or rendered, DIR holds what a fresh render writes.
          rmSync(join(ws, 'fresh'), { recursive: true, force: true });
          expect(cli(args('fresh', '--no-reuse'), ws).code).toBe(0);
          expect(outputs(join(ws, 'out')), toggle).toEqual(outputs(join(ws, 'fresh')));
        }
      }),
      { seed: SEED, numRuns: 1, verbose: true },
    );
    rmSync(ws, { recursive: true, force: true });
  });
});

/** A repository of the fleet class and three Clusters, rendered once into `out`. */
function rendered(): { ws: string; again: (...extra: string[]) => ReturnType<typeof run> } {
  const ws = mkdtempSync(join(tmpdir(), 'rcc-reuse-o-'));
  mkdirSync(join(ws, 'repo'));
  writeFileSync(join(ws, 'repo', 'class.yaml'), yaml(classObjects()));
  for (const i of [1, 2, 3]) writeFileSync(join(ws, 'repo', `c${i}.yaml`), yaml([cluster(`c${i}`, i, 'fleet')]));
  const again = (...extra: string[]) => run('node', [binPath, 'render', 'repo', '-o', 'out', ...extra], { cwd: ws });
  expect(again().code).toBe(0);
  return { ws, again };
}

const SUMMARY_REUSED = (reused: number, written: number) =>
  `out: ${written} written, ${3 - written} unchanged${reused > 0 ? ` (${reused} reused: inputs unchanged)` : ''}, 0 kept, 0 skipped, 0 pruned\n`;

describe('a file that is not as the list says is rendered again', () => {
  it('an unchanged repository: every file reused, untouched, the list unchanged', () => {
    const { ws, again } = rendered();
    const before = tree(join(ws, 'out'));
    const stamped = stamps(join(ws, 'out'), ['fleet/c1.yaml', 'fleet/c2.yaml', 'fleet/c3.yaml']);
    const r = again();
    expect([r.code, r.stderr]).toEqual([0, SUMMARY_REUSED(3, 0)]);
    expect(tree(join(ws, 'out'))).toEqual(before);
    expect(stamps(join(ws, 'out'), ['fleet/c1.yaml', 'fleet/c2.yaml', 'fleet/c3.yaml'])).toEqual(stamped);
    expect(readFileSync(join(ws, 'out', LIST), 'utf8')).toMatch(
      /^fleet\/c1\.yaml\tfleet\/c1\t[0-9a-f]{32}\/1\t[0-9a-f]{64}$/m,
    );
  });

  it('edited by hand, truncated, emptied, deleted: rendered again to what a fresh render writes; a link is refused as before', () => {
    const { ws, again } = rendered();
    const fresh = tree(join(ws, 'out'));
    const c1 = join(ws, 'out', 'fleet', 'c1.yaml');
    const text = readFileSync(c1, 'utf8');
    const damage: [string, () => void][] = [
      ['edited', () => writeFileSync(c1, text.replace('replicas:', 'replicas: 1 #'))],
      ['a comment added', () => writeFileSync(c1, `${text}# mine\n`)],
      ['truncated', () => writeFileSync(c1, text.slice(0, text.length - 40))],
      ['emptied', () => writeFileSync(c1, '')],
      ['deleted', () => rmSync(c1)],
    ];
    for (const [what, act] of damage) {
      act();
      const r = again();
      expect([what, r.code, r.stderr]).toEqual([what, 0, SUMMARY_REUSED(2, 1)]);
      expect(tree(join(ws, 'out')), what).toEqual(fresh);
    }
    const outside = join(ws, 'victim.yaml');
    writeFileSync(outside, text);
    rmSync(c1);
    symlinkSync(outside, c1);
    const r = again();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot write -o out: out/fleet/c1.yaml is a symbolic link');
    expect(readFileSync(outside, 'utf8')).toBe(text);
  });

  it('list lines whose mark or hash is wrong, missing or malformed: those Clusters are rendered again, and the list is written whole', () => {
    const { ws, again } = rendered();
    const fresh = tree(join(ws, 'out'));
    const list = readFileSync(join(ws, 'out', LIST), 'utf8');
    const lines = list.split('\n');
    const edit = (i: number, f: (fields: string[]) => string[]) => {
      const at = lines.findIndex((l) => l.startsWith(`fleet/c${i}.yaml\t`));
      lines[at] = f(lines[at]!.split('\t')).join('\t');
    };
    // A count that says more files than there are; another Cluster's hash; no marks (an old list).
    edit(1, ([p, o, m, h]) => [p!, o!, m!.replace(/\/1$/, '/2'), h!]);
    edit(2, ([p, o, m]) => [p!, o!, m!, '0'.repeat(64)]);
    edit(3, ([p, o]) => [p!, o!]);
    writeFileSync(join(ws, 'out', LIST), lines.join('\n'));
    const r = again();
    expect([r.code, r.stderr]).toEqual([0, SUMMARY_REUSED(0, 0)]);
    expect(tree(join(ws, 'out'))).toEqual(fresh);
    // A mark that is not one, a line of three fields: ignored as before (the second is not the list's).
    writeFileSync(join(ws, 'out', LIST), `${list}fleet/c9.yaml\tfleet/c9\tnot-a-mark\tx\nfleet/c8.yaml\tfleet/c8\tx\n`);
    const hostile = again();
    expect(hostile.code).toBe(0);
    expect(hostile.stderr).toContain(`out/${LIST}:6: ignored: not "path<TAB>Cluster[<TAB>inputs<TAB>sha256]"`);
    expect(hostile.stderr).toContain(SUMMARY_REUSED(3, 0));
    expect(readFileSync(join(ws, 'out', LIST), 'utf8')).toBe(list);
  });
});

describe('what is never reused', () => {
  it('--no-reuse and reuse: false render every Cluster (and write no marks); the next default run marks again and then reuses', () => {
    const { ws, again } = rendered();
    for (const off of [['--no-reuse'], ['--set', 'reuse=false']]) {
      const r = again(...off);
      expect([r.code, r.stderr]).toEqual([0, SUMMARY_REUSED(0, 0)]);
      expect(readFileSync(join(ws, 'out', LIST), 'utf8')).toMatch(/^fleet\/c1\.yaml\tfleet\/c1$/m);
    }
    expect(again().stderr).toBe(SUMMARY_REUSED(0, 0));
    expect(again().stderr).toBe(SUMMARY_REUSED(3, 0));
  });

  it('a render that reads a current state (--previous, --observed) or gives a warning is rendered each time', () => {
    const { ws, again } = rendered();
    const prev = join(ws, 'prev');
    mkdirSync(prev);
    copyFileSync(join(ws, 'repo', 'class.yaml'), join(prev, 'class.yaml'));
    for (const i of [1, 2, 3]) copyFileSync(join(ws, 'repo', `c${i}.yaml`), join(prev, `c${i}.yaml`));
    expect(again('--previous', 'prev').stderr).toBe(SUMMARY_REUSED(0, 0));
    mkdirSync(join(ws, 'observed'));
    writeFileSync(
      join(ws, 'observed', 'none.yaml'),
      yaml([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'fleet' } }]),
    );
    expect(again('--observed', 'observed').stderr).toBe(SUMMARY_REUSED(0, 0));
    // Those renders were not marked: the next one is, and the one after it reuses.
    expect(again().stderr).toBe(SUMMARY_REUSED(0, 0));
    expect(again().stderr).toBe(SUMMARY_REUSED(3, 0));
    // A patch whose template warns (randInt is made deterministic, and says so): every render warns, none is marked.
    const cls = join(ws, 'repo', 'class.yaml');
    const plain = readFileSync(cls, 'utf8');
    writeFileSync(cls, plain.replace('(len .region)', '(randInt 1 2)'));
    for (const run of [1, 2]) {
      const warned = again();
      expect(warned.stderr, `run ${run}`).toContain('template warning: randInt is random by nature');
      expect(warned.stderr, `run ${run}`).toContain(SUMMARY_REUSED(0, run === 1 ? 3 : 0));
      expect([...marks(join(ws, 'out')).values()]).toEqual(['(none) ', '(none) ', '(none) ']);
    }
    writeFileSync(cls, plain);
    expect(again().stderr).toBe(SUMMARY_REUSED(0, 3));
    expect(again().stderr).toBe(SUMMARY_REUSED(3, 0));
  });
});
