/** The path rules of the commands that write (outdir.ts, safefs.ts): which paths a run may write, and which collide. */
import { describe, expect, it } from 'vitest';
import { outputPathProblems } from '../../src/cli/outdir.js';
import { relativePathProblem } from '../../src/cli/safefs.js';

describe('relativePathProblem', () => {
  it('accepts clean relative paths and refuses the rest, saying why', () => {
    expect(
      ['a.yaml', 'ns/c.yaml', 'ns/c.provenance.yaml', 'ns/c_provenance.yaml', '.hidden/x'].map(relativePathProblem),
    ).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(
      [
        '',
        '/etc/passwd',
        'a//b',
        './a',
        'a/.',
        '../x',
        'a/../../x',
        'a\tb',
        'a\nb',
        '.render-clusterclass-outputs',
        'ns/.render-clusterclass-lock',
      ].map(relativePathProblem),
    ).toEqual([
      'an empty path',
      'an absolute path',
      'not a normalised path',
      'not a normalised path',
      'not a normalised path',
      'a path that leaves the directory (..)',
      'a path that leaves the directory (..)',
      'a path with a control character',
      'a path with a control character',
      'a name this tool keeps for itself (.render-clusterclass*)',
      'a name this tool keeps for itself (.render-clusterclass*)',
    ]);
  });
});

describe('outputPathProblems', () => {
  const files = (...paths: string[]) => paths.map((path, i) => ({ path, owner: `Cluster ns/c${i}` }));

  it('no problem when every path is its own', () => {
    expect(
      outputPathProblems(files('ns/a.yaml', 'ns/a_provenance.yaml', 'ns/a.provenance.yaml', 'other/a.yaml')),
    ).toEqual(new Map());
  });

  it('two files on one path, also differing only in case or Unicode normalisation: both refused, naming each other', () => {
    const problems = outputPathProblems(
      files('ns/a.yaml', 'ns/b.yaml', 'ns/A.yaml', 'ns/\u00e9.yaml', 'ns/e\u0301.yaml'),
    );
    expect(problems).toEqual(
      new Map([
        [0, 'Cluster ns/c0 (ns/a.yaml) and Cluster ns/c2 (ns/A.yaml) would write the same path'],
        [2, 'Cluster ns/c0 (ns/a.yaml) and Cluster ns/c2 (ns/A.yaml) would write the same path'],
        [3, 'Cluster ns/c3 (ns/\u00e9.yaml) and Cluster ns/c4 (ns/e\u0301.yaml) would write the same path'],
        [4, 'Cluster ns/c3 (ns/\u00e9.yaml) and Cluster ns/c4 (ns/e\u0301.yaml) would write the same path'],
      ]),
    );
  });

  it('a file where another needs a directory', () => {
    expect([...outputPathProblems(files('ns/a.yaml', 'ns/a.yaml/b.yaml')).values()]).toEqual([
      'Cluster ns/c0 (ns/a.yaml) and Cluster ns/c1 (ns/a.yaml/b.yaml) would write the same path',
      'Cluster ns/c0 (ns/a.yaml) and Cluster ns/c1 (ns/a.yaml/b.yaml) would write the same path',
    ]);
  });

  it('a path that leaves the directory, or replaces an input of the run', () => {
    expect(
      outputPathProblems(files('ns/../../etc/x.yaml', 'ns/in.yaml', 'ns/ok.yaml'), new Set(['ns/IN.yaml'])),
    ).toEqual(
      new Map([
        [0, 'Cluster ns/c0 (ns/../../etc/x.yaml): a path that leaves the directory (..)'],
        [1, 'Cluster ns/c1 (ns/in.yaml) would replace an input of this run'],
      ]),
    );
  });
});
