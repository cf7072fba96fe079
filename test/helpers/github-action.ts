/**
 * Runs a composite GitHub Action (action.yml) the way a runner does, for end-to-end tests: inputs
 * with their defaults, `if:` conditions, `${{ }}` expressions, each `run:` in bash with GitHub's
 * flags, `GITHUB_OUTPUT`/`GITHUB_STEP_SUMMARY` files, and a stop at the first failing step. Only
 * the expressions action.yml uses are modelled; any other fails the test rather than being guessed.
 * Also a local server for the GitHub REST calls the action makes (issue comments, the SARIF
 * upload of code scanning), so nothing reaches the network.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';

interface Step {
  name: string;
  id?: string;
  if?: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export interface ActionRun {
  /** The step that failed, with its exit code; undefined when every step passed. */
  failed?: { step: string; code: number };
  outputs: Record<string, string>;
  log: string;
  summary: string;
}

export interface ActionContext {
  actionPath: string;
  workspace: string;
  inputs: Record<string, string>;
  event: object;
  env: Record<string, string>;
}

/** Runs a step's script with the shell GitHub uses for `shell: bash`; its exit status and output. Asynchronous, so a server in this process can answer it. */
function bash(
  script: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ status: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], options);
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.on('error', fail);
    child.on('close', (status) => done({ status, output }));
  });
}

const parseOutputs = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .flatMap((l) => (l.includes('=') ? [[l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]] : [])),
  );

export async function runAction(ctx: ActionContext): Promise<ActionRun> {
  const action = YAML.parse(readFileSync(join(ctx.actionPath, 'action.yml'), 'utf8')) as Action;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  const temp = mkdtempSync(join(tmpdir(), 'rcc-runner-'));
  const eventPath = join(temp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(ctx.event));
  const summaryFile = join(temp, 'summary.md');
  writeFileSync(summaryFile, '');
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const github: Record<string, unknown> = {
    action_path: ctx.actionPath,
    token: ctx.env.GITHUB_TOKEN,
    event: ctx.event,
  };
  const inputs: Record<string, string> = {};
  const expression = (expr: string): string => {
    const [root, ...rest] = expr.trim().split('.');
    let value: unknown = root === 'inputs' ? inputs : root === 'github' ? github : root === 'steps' ? steps : undefined;
    for (const key of rest) value = (value as Record<string, unknown> | undefined)?.[key];
    // A step's output that was never set is empty, as on a runner; anything else unknown is a gap of this runner.
    if (value === undefined && root !== 'steps') throw new Error(`the test runner does not model \${{ ${expr} }}`);
    return value === undefined ? '' : String(value);
  };
  const substitute = (text: string): string => text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => expression(e));
  for (const [name, input] of Object.entries(action.inputs))
    inputs[name] = ctx.inputs[name] ?? substitute(input.default ?? '');
  let log = '';
  for (const step of action.runs.steps) {
    if (step.if !== undefined) {
      const m = /^inputs\.([\w-]+) == '([^']*)'$/.exec(step.if.trim());
      if (!m) throw new Error(`the test runner does not model if: ${step.if}`);
      if (inputs[m[1]!] !== m[2]) continue;
    }
    if (step.shell !== 'bash') throw new Error(`the test runner models bash steps only, not ${step.shell}`);
    const outputFile = join(temp, `output-${step.id ?? 'step'}`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v))]));
    const result = await bash(substitute(step.run), {
      cwd: step['working-directory'] ? substitute(step['working-directory']) : ctx.workspace,
      env: {
        ...process.env,
        ...ctx.env,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_WORKSPACE: ctx.workspace,
        RUNNER_TEMP: temp,
        ...env,
      },
    });
    log += `## ${step.name}\n${result.output}`;
    if (step.id) steps[step.id] = { outputs: parseOutputs(readFileSync(outputFile, 'utf8')) };
    if (result.status !== 0)
      return {
        failed: { step: step.name, code: result.status ?? -1 },
        outputs: {},
        log,
        summary: readFileSync(summaryFile, 'utf8'),
      };
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value)]));
  return { outputs, log, summary: readFileSync(summaryFile, 'utf8') };
}

interface Comment {
  id: number;
  body: string;
}

/** A SARIF upload as code scanning received it, its log decoded (base64, then gzip). */
interface SarifUpload {
  commit_sha: string;
  ref: string;
  tool_name?: string;
  /** The SARIF file's text. */
  log: string;
}

/** The issue-comment and SARIF-upload endpoints of GitHub's REST API for one repository, in memory. */
export interface FakeGitHub {
  url: string;
  comments: Map<number, Comment[]>;
  sarifs: SarifUpload[];
  /** Answer SARIF uploads with 403, as for a repository without code scanning. */
  refuseSarif: boolean;
  /** Every request, as `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

export async function fakeGitHub(repository: string, token: string): Promise<FakeGitHub> {
  const comments = new Map<number, Comment[]>();
  const requests: string[] = [];
  const sarifs: SarifUpload[] = [];
  const state = { refuseSarif: false };
  let nextId = 1000;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return answer(401, { message: 'Bad credentials' });
      const list = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
      const one = /^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (url.pathname === `/repos/${repository}/code-scanning/sarifs` && req.method === 'POST') {
        if (state.refuseSarif) return answer(403, { message: 'Code scanning is not enabled for this repository' });
        const body = JSON.parse(text) as Omit<SarifUpload, 'log'> & { sarif: string };
        // GitHub's contract: `sarif` is the file gzip-compressed, then base64-encoded.
        const { sarif, ...upload } = body;
        sarifs.push({ ...upload, log: gunzipSync(Buffer.from(sarif, 'base64')).toString('utf8') });
        return answer(202, { id: `sarif-${sarifs.length}`, url: `${url.origin}/sarifs/${sarifs.length}` });
      }
      if (list && list[1] === repository) {
        const number = Number(list[2]);
        const all = comments.get(number) ?? [];
        if (req.method === 'GET') {
          const perPage = Number(url.searchParams.get('per_page') ?? 30);
          const page = Number(url.searchParams.get('page') ?? 1);
          return answer(200, all.slice((page - 1) * perPage, page * perPage));
        }
        if (req.method === 'POST') {
          const created = { id: nextId++, body: (JSON.parse(text) as { body: string }).body };
          comments.set(number, [...all, created]);
          return answer(201, created);
        }
      }
      if (one && one[1] === repository && req.method === 'PATCH') {
        const found = [...comments.values()].flat().find((c) => c.id === Number(one[2]));
        if (!found) return answer(404, { message: 'Not Found' });
        found.body = (JSON.parse(text) as { body: string }).body;
        return answer(200, found);
      }
      return answer(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    comments,
    sarifs,
    get refuseSarif() {
      return state.refuseSarif;
    },
    set refuseSarif(refuse: boolean) {
      state.refuseSarif = refuse;
    },
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
