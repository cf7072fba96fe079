/**
 * Messages that lead to the fix (issue 28), through the real CLI: the closest name for a
 * misspelled variable, class, Cluster, config field or option; the required-variable errors
 * that only follow from an earlier one; values quoted once. CAPI's own text stays verbatim in
 * front of every hint (users search for it).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { fleetCluster, fleetDocs, type Obj } from '../helpers/scenario.js';
import { binPath, run } from '../helpers/tools.js';

/** The fleet class (namespace `fleet`) with three more variables: one optional, one required without a default. */
function classDocs(): Obj[] {
  const docs = fleetDocs();
  docs[0].spec.variables.push(
    { name: 'kubeletLogLevel', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
    { name: 'region', required: true, schema: { openAPIV3Schema: { type: 'string' } } },
    {
      name: 'zone',
      required: false,
      schema: {
        openAPIV3Schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.?x == optional.of("y")' }] },
      },
    },
  );
  return docs;
}

/** A directory holding `files` (name → documents). */
function repo(files: Record<string, Obj[]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-messages-'));
  for (const [name, docs] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), docs.map((d) => YAML.stringify(d)).join('---\n'));
  }
  return dir;
}

const cli = (args: string[], cwd?: string) => run(binPath, args, cwd ? { cwd } : {});
/** The message part of each result line (`path:line:col: severity: object field: message`). */
const lines = (stderr: string) => stderr.split('\n').filter((l) => / (error|warning): /.test(l));

describe('a misspelled variable', () => {
  const dir = repo({
    'classes.yaml': classDocs(),
    'cluster.yaml': [
      fleetCluster(
        'c1',
        (t) =>
          (t.variables = [
            { name: 'kubeletLogLevl', value: '5' },
            { name: 'region', value: 'eu' },
          ]),
      ),
    ],
  });
  const out = cli(['render', dir]);

  it("keeps CAPI's text and path, and names the closest defined variable", () => {
    expect(out.code).toBe(1);
    expect(lines(out.stderr)).toContain(
      `${join(dir, 'cluster.yaml')}:16:9: error: Cluster fleet/c1 spec.topology.variables[kubeletLogLevl]: Invalid value: "\\"5\\"": variable is not defined; did you mean "kubeletLogLevel"? Otherwise define it in ClusterClass "fleet" spec.variables, or remove it from the Cluster`,
    );
  });

  it('says that a required variable with a default is missing only because defaulting stopped', () => {
    expect(lines(out.stderr).filter((l) => l.includes('must be set'))).toEqual([
      `${join(dir, 'cluster.yaml')}:15:5: error: Cluster fleet/c1 spec.topology.variables: Required value: required variable "imageRepository" must be set; this follows from the error at spec.topology.variables[kubeletLogLevl]: while it stands, Cluster API defaults none of the variables, and this one has a default (fixing that error sets it)`,
    ]);
  });

  it('says nothing more about a required variable without a default, which the Cluster must set', () => {
    const missing = repo({
      'classes.yaml': classDocs(),
      'cluster.yaml': [fleetCluster('c1', (t) => (t.variables = [{ name: 'kubeletLogLevl', value: '5' }]))],
    });
    const required = lines(cli(['render', missing]).stderr).filter((l) => l.includes('must be set'));
    expect(required.map((l) => l.replace(/^.*?Required value: /, ''))).toEqual([
      'required variable "imageRepository" must be set; this follows from the error at spec.topology.variables[kubeletLogLevl]: while it stands, Cluster API defaults none of the variables, and this one has a default (fixing that error sets it)',
      'required variable "region" must be set',
    ]);
  });

  it('suggests nothing when no defined name is close', () => {
    const far = repo({
      'classes.yaml': classDocs(),
      'cluster.yaml': [
        fleetCluster(
          'c1',
          (t) =>
            (t.variables = [
              { name: 'location', value: 'x' },
              { name: 'region', value: 'eu' },
            ]),
        ),
      ],
    });
    const [line] = lines(cli(['render', far]).stderr).filter((l) => l.includes('[location]'));
    expect(line).toMatch(
      /variable is not defined; define it in ClusterClass "fleet" spec\.variables, or remove it from the Cluster$/,
    );
  });
});

describe('a misspelled class', () => {
  it('suggests the closest class of the input, in another namespace too, and the field that names the namespace', () => {
    const dir = repo({
      'classes.yaml': classDocs(),
      'team-a.yaml': [
        fleetCluster(
          'c1',
          (t, c) => (
            (c.metadata.namespace = 'team-a'),
            (t.classRef = { name: 'flete' }),
            (t.variables = [{ name: 'region', value: 'eu' }])
          ),
        ),
      ],
    });
    const out = cli(['render', dir]);
    expect(out.code).toBe(1);
    // The class no Cluster uses is judged too: its warning (a rule it cannot evaluate offline) is not this test's.
    const errors = lines(out.stderr).filter((l) => l.includes(': error: '));
    expect(errors.map((l) => l.replace(/^.*?: error: /, ''))).toEqual([
      'Cluster team-a/c1 spec.topology.classRef.name: ClusterClass "team-a/flete" not found: did you mean ClusterClass "fleet/fleet" (another namespace: set spec.topology.classRef.namespace)? Otherwise add it (and its templates) to the input, or fix the class reference',
    ]);
  });
});

describe('explain of an unknown Cluster', () => {
  const names = Array.from({ length: 40 }, (_, i) => `cluster-${String(i).padStart(3, '0')}`);
  const dir = repo({
    'classes.yaml': classDocs(),
    ...Object.fromEntries(
      names.map((n) => [`${n}.yaml`, [fleetCluster(n, (t) => (t.variables = [{ name: 'region', value: 'eu' }]))]]),
    ),
  });

  it('names at most five closest Clusters, closest first, not all of them', () => {
    const out = cli(['explain', 'clustr-012', '-f', dir]);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      'render-clusterclass explain: Cluster "clustr-012" not found among the input\'s 40 topology Clusters; did you mean "fleet/cluster-012", "fleet/cluster-002", "fleet/cluster-010", "fleet/cluster-011" or "fleet/cluster-013"?\n',
    );
    const many = cli(['explain', 'cluster-01', '-f', dir]);
    expect(many.stderr).toBe(
      'render-clusterclass explain: Cluster "cluster-01" not found among the input\'s 40 topology Clusters; did you mean "fleet/cluster-010", "fleet/cluster-011", "fleet/cluster-012", "fleet/cluster-013" or "fleet/cluster-014"?\n',
    );
  });

  it('says how many there are when none is close', () => {
    expect(cli(['explain', 'kubernetes', '-f', dir]).stderr).toBe(
      'render-clusterclass explain: Cluster "kubernetes" not found among the input\'s 40 topology Clusters\n',
    );
  });
});

describe('function config fields and options', () => {
  const dir = repo({ 'classes.yaml': classDocs() });

  it('suggests the field for --set and for a config file, instead of listing every field', () => {
    expect(cli(['render', dir, '--set', 'mdoe=preview']).stderr).toBe(
      'render-clusterclass render: unknown function config field "mdoe"; did you mean "mode"?\n',
    );
    const config = join(dir, '..', `${dir.split('/').pop()}-config.yaml`);
    writeFileSync(
      config,
      'apiVersion: fn.render-clusterclass.dev/v1alpha1\nkind: RenderClusterClass\nmetadata: {name: c}\nspec:\n  failon: warning\n',
    );
    expect(cli(['render', dir, '--config', config]).stderr).toContain(
      'unknown function config field "failon"; did you mean "failOn"?',
    );
    writeFileSync(
      config,
      'apiVersion: fn.render-clusterclass.dev/v1alpha1\nkind: RenderClusterClass\nmetadata: {name: c}\nsepc:\n  mode: preview\n',
    );
    expect(cli(['render', dir, '--config', config]).stderr).toContain(
      'unknown field "sepc" in the RenderClusterClass function config; did you mean "spec"?',
    );
  });

  it('hints --version for -v and the closest long options', () => {
    const short = cli(['-v']);
    expect([short.code, short.stderr]).toEqual([
      3,
      'render-clusterclass: unknown option "-v"; did you mean --version? (see render-clusterclass help)\n',
    ]);
    expect(cli(['--verison']).stderr).toBe(
      'render-clusterclass: unknown option "--verison"; did you mean --version? (see render-clusterclass help)\n',
    );
    expect(cli(['render', dir, '--fromat', 'json']).stderr).toBe(
      'render-clusterclass render: unknown option --fromat; did you mean --format? (see render-clusterclass render --help)\n',
    );
    expect(cli(['render', dir, '--f']).stderr).toBe(
      'render-clusterclass render: unknown option --f; did you mean --fail-on, --feature-gates or --format? (see render-clusterclass render --help)\n',
    );
    expect(cli(['template', '--jsnol']).stderr).toContain('unknown option --jsnol; did you mean --jsonl?');
  });
});

describe('values quoted once', () => {
  it('a rule that cannot be evaluated offline is shown once, as the value', () => {
    const dir = repo({
      'classes.yaml': classDocs(),
      'cluster.yaml': [fleetCluster('c1', (t) => (t.variables = [{ name: 'region', value: 'eu' }]))],
    });
    const [warning] = lines(cli(['render', dir]).stderr).filter((l) => l.includes('x-kubernetes-validations[0].rule'));
    expect(warning).toMatch(
      /: Invalid value: "self\.\?x == optional\.of\(\\"y\\"\)": this x-kubernetes-validations rule cannot be evaluated offline: optional field selection syntax is not supported; values are not checked against it$/,
    );
  });
});
