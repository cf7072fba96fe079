/**
 * The GitHub Action (action.yml) end to end: its steps run as a runner runs them (test/helpers/
 * github-action.ts) in a git repository holding the bundled example, against a local server for
 * GitHub's REST API. The first run on a pull request creates the plan comment, a later run updates
 * that one comment (found by its marker among more than a page of other comments), and a run
 * outside a pull request posts nothing. The SARIF plan is uploaded to code scanning for the commit
 * and ref analysed, decodes to a valid SARIF 2.1.0 log whose findings sit on the edited lines, and
 * a refused upload only warns.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGitHub, runAction, type FakeGitHub } from '../helpers/github-action.js';
import { lineAt, validSarif } from '../helpers/sarif.js';
import { repoRoot, skipUnless } from '../helpers/tools.js';

const REPOSITORY = 'platform/fleet';
const TOKEN = 'test-token';
const PR = 7;
const MARKER = '<!-- render-clusterclass plan -->';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

describe.skipIf(skipUnless('git'))('the GitHub Action', () => {
  let github: FakeGitHub;
  let workspace: string;
  let base: string;
  const classFile = () => join(workspace, 'clusterclass.yaml');
  const edit = (from: string, to: string) =>
    writeFileSync(classFile(), readFileSync(classFile(), 'utf8').replace(from, to));
  const action = (event: object, inputs: Record<string, string> = {}) =>
    runAction({
      actionPath: repoRoot,
      workspace,
      inputs,
      event,
      env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: REPOSITORY, GITHUB_TOKEN: TOKEN },
    });
  const pullRequest = () => ({ pull_request: { number: PR, base: { sha: base } } });
  const planComments = () => (github.comments.get(PR) ?? []).filter((c) => c.body.startsWith(MARKER));

  beforeAll(async () => {
    github = await fakeGitHub(REPOSITORY, TOKEN);
    // More than a page of other comments: the action must find its own on the second page.
    github.comments.set(
      PR,
      Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `review comment ${i}` })),
    );
    workspace = mkdtempSync(join(tmpdir(), 'rcc-action-'));
    for (const f of ['clusterclass.yaml', 'cluster-foo.yaml'])
      cpSync(join(repoRoot, 'examples', 'basic', f), join(workspace, f));
    git(workspace, 'init', '-q');
    git(workspace, 'add', '.');
    git(workspace, 'commit', '-q', '-m', 'base');
    base = git(workspace, 'rev-parse', 'HEAD');
  });
  afterAll(async () => {
    await github.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('creates the plan comment on the first run, then updates that one comment', async () => {
    edit('numCPUs: 2', 'numCPUs: 4');
    const first = await action(pullRequest());
    expect(first.failed, first.log).toBeUndefined();
    expect(first.outputs['exit-code']).toBe('1'); // something changes: not a failure of the job
    expect(planComments()).toHaveLength(1);
    const [created] = planComments();
    expect(created!.body).toContain('numCPUs');
    expect(first.summary).toContain('numCPUs');
    expect(github.requests.filter((r) => r.startsWith('POST') && r.includes('/issues/'))).toHaveLength(1);

    edit('diskGiB: 25', 'diskGiB: 50');
    const second = await action(pullRequest());
    expect(second.failed, second.log).toBeUndefined();
    expect(planComments()).toHaveLength(1);
    expect(planComments()[0]!.id).toBe(created!.id);
    expect(planComments()[0]!.body).toContain('diskGiB');
    expect(github.requests.filter((r) => r.startsWith('POST') && r.includes('/issues/'))).toHaveLength(1);
    expect(github.requests.filter((r) => r.startsWith('PATCH'))).toEqual([
      `PATCH /repos/${REPOSITORY}/issues/comments/${created!.id}`,
    ]);
    expect(github.comments.get(PR)).toHaveLength(121);
  });

  it('fails the job with the exit code of a breached gate, and still updates the comment', async () => {
    edit('memoryMiB: 8192', 'memoryMiB: 16384');
    const gated = await action(pullRequest(), { args: '--fail-on rollout' });
    expect(gated.failed, gated.log).toEqual({ step: 'Gates', code: 8 });
    expect(planComments()).toHaveLength(1);
    expect(planComments()[0]!.body).toContain('memoryMiB');
  });

  it('posts nothing outside a pull request, or when asked not to comment', async () => {
    const commentRequests = () => github.requests.filter((r) => r.includes('/issues/')).length;
    const before = commentRequests();
    const push = await action({}, { base });
    expect(push.failed, push.log).toBeUndefined();
    expect(push.log).toContain('not a pull request event');
    const quiet = await action(pullRequest(), { comment: 'false' });
    expect(quiet.failed, quiet.log).toBeUndefined();
    expect(commentRequests()).toBe(before);
  });

  it('uploads the SARIF plan for the commit analysed, its findings on the edited lines', async () => {
    const head = git(workspace, 'rev-parse', 'HEAD');
    const run = await action({ pull_request: { number: PR, base: { sha: base }, head: { sha: head } } });
    expect(run.failed, run.log).toBeUndefined();
    const upload = github.sarifs.at(-1)!;
    expect(upload).toMatchObject({ commit_sha: head, ref: `refs/pull/${PR}/head`, tool_name: 'render-clusterclass' });
    expect(upload.log).toBe(readFileSync(run.outputs['sarif-file']!, 'utf8'));
    const rollouts = validSarif(upload.log).runs[0]!.results.filter((r) => r.ruleId === 'rollout');
    const lines = rollouts.flatMap((r) => r.locations!.map((l) => lineAt(workspace, l)));
    expect(lines).toEqual(expect.arrayContaining(['      numCPUs: 4', '      diskGiB: 50', '      memoryMiB: 16384']));
    // actions/checkout checks out a pull request's merge commit: the analysis is of that ref.
    const merge = await action({ pull_request: { number: PR, base: { sha: base }, head: { sha: 'f'.repeat(40) } } });
    expect(merge.failed, merge.log).toBeUndefined();
    expect(github.sarifs.at(-1)).toMatchObject({ commit_sha: head, ref: `refs/pull/${PR}/merge` });
  });

  it('warns when code scanning refuses the upload, and uploads nothing when asked not to', async () => {
    github.refuseSarif = true;
    const refused = await action(pullRequest());
    github.refuseSarif = false;
    expect(refused.failed, refused.log).toBeUndefined();
    expect(refused.log).toMatch(/::warning title=render-clusterclass SARIF upload::.*403/);
    const uploads = github.sarifs.length;
    const off = await action(pullRequest(), { sarif: 'false' });
    expect(off.failed, off.log).toBeUndefined();
    expect(off.outputs['sarif-file']).toBe('');
    expect(github.sarifs.length).toBe(uploads);
  });

  it('fails the job when no plan can be made, and still says why', async () => {
    const broken = await action(pullRequest(), { base: 'no-such-revision' });
    expect(broken.failed).toEqual({ step: 'Gates', code: 1 });
    expect(broken.log).toContain('no-such-revision');
  });
});
