/**
 * `render-clusterclass template`: evaluates a Go template (text/template + sprig, as Cluster API does)
 * against data, for patch authors debugging `valueFrom.template` / `enabledIf`.
 *
 *   render-clusterclass template TEMPLATE [--data FILE] [--set a.b.c=value ...] [--missingkey default|error]
 *                                         [--functions sprig-hermetic|builtins] [--yaml]
 *   render-clusterclass template --jsonl      (gotmpl-oracle protocol on stdin/stdout)
 *
 * `--set` values: `true`/`false` become booleans, `null` becomes null, anything that is a number in
 * JSON syntax (e.g. `3`, `-1.5`, `1e6`) becomes a float64 number, everything else is a string
 * (`--set v=v1.29.0` is the string "v1.29.0"). Keys are split on `.`; `--set a.b=1` creates `{a: {b: 1}}`.
 * `--data` reads JSON or YAML as Kubernetes reads a Cluster's variable values (sigs.k8s.io/yaml over
 * go-yaml v2); numbers become float64 as they would after CAPI's JSON round trip.
 * `--yaml` additionally parses the output the way CAPI does and prints the resulting JSON value.
 */
import { readFile } from 'node:fs/promises';
import type { Json } from '../core/model.js';
import { executeTemplate, parseTemplate, parseTemplateOutput, type FunctionSet } from '../gotemplate/index.js';
import { ExitCode, type CliIO } from './io.js';
import { closestMatches, didYouMean } from '../core/suggest.js';
import { COMMANDS } from './commands.js';
import { jsonString } from '../core/json.js';

export const TEMPLATE_HELP = `Usage: render-clusterclass template TEMPLATE [options]
       render-clusterclass template --jsonl

Evaluates a Go template as Cluster API evaluates ClusterClass patch templates (valueFrom.template,
enabledIf): Go text/template with sprig's hermetic functions, numbers as float64 (JSON), and
prints the output.

Options:
  --data FILE, -f FILE   template data as JSON or YAML (- for stdin); YAML numbers become float64
  --set KEY=VALUE        set a data field (repeatable); KEY is dotted (builtin.cluster.name);
                         true/false/null and JSON numbers are typed, anything else is a string
  --missingkey MODE      default (missing keys print "<no value>", as CAPI) | error
  --functions SET        sprig-hermetic (default, as CAPI) | builtins (Go's built-ins only)
  --yaml                 parse the output as CAPI does and print the resulting JSON value
  --jsonl                batch mode: JSON Lines {id, template, data} on stdin, one
                         {id, output} or {id, error, phase} per line on stdout
  -h, --help             this help
Exit codes: 0 ok, 1 the template fails to parse or execute (or its output is not YAML with
--yaml), 3 bad usage.
`;

class UsageError extends Error {}

/** `--set` value parsing (see the module comment). */
export function parseSetValue(raw: string): Json {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

function applySet(data: { [k: string]: Json }, assignment: string): void {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set expects key=value, got ${JSON.stringify(assignment)}`);
  const path = assignment.slice(0, eq).split('.');
  const key = path.at(-1);
  if (key === undefined || path.some((p) => p === ''))
    throw new UsageError(`--set: invalid key ${JSON.stringify(assignment.slice(0, eq))}`);
  let cur: { [k: string]: Json } = data;
  for (const seg of path.slice(0, -1)) {
    const next = cur[seg];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[seg] = {};
    cur = cur[seg] as { [k: string]: Json };
  }
  cur[key] = parseSetValue(assignment.slice(eq + 1));
}

interface Options {
  template?: string;
  dataFile?: string;
  sets: string[];
  missingKey: 'default' | 'error';
  functions: FunctionSet;
  jsonl: boolean;
  yaml: boolean;
  help: boolean;
}

function parseArgs(args: string[]): Options {
  const o: Options = {
    sets: [],
    missingKey: 'default',
    functions: 'sprig-hermetic',
    jsonl: false,
    yaml: false,
    help: false,
  };
  const value = (v: string | undefined, flag: string): string => {
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  // One iterator: an option's value is the argument after it.
  const rest = args.values();
  for (const arg of rest) {
    let a = arg;
    let inline: string | undefined;
    if (a.startsWith('--') && a.includes('=')) {
      inline = a.slice(a.indexOf('=') + 1);
      a = a.slice(0, a.indexOf('='));
    }
    const take = (): string => inline ?? value(rest.next().value, a);
    switch (a) {
      case '--data':
      case '-f':
        o.dataFile = take();
        break;
      case '--set':
        o.sets.push(take());
        break;
      case '--missingkey': {
        const v = take();
        if (v !== 'default' && v !== 'error' && v !== 'invalid')
          throw new UsageError(`--missingkey must be default or error`);
        o.missingKey = v === 'error' ? 'error' : 'default';
        break;
      }
      case '--functions': {
        const v = take();
        if (v !== 'sprig-hermetic' && v !== 'builtins')
          throw new UsageError(`--functions must be sprig-hermetic or builtins`);
        o.functions = v;
        break;
      }
      case '--jsonl':
        o.jsonl = true;
        break;
      case '--yaml':
        o.yaml = true;
        break;
      case '-h':
      case '--help':
        o.help = true;
        break;
      default:
        if (a.startsWith('-') && a.length > 1) {
          const long = Object.keys(COMMANDS.template.flags).filter((f) => f.length > 1);
          const hint = didYouMean(closestMatches(a.replace(/^--?/, ''), long, 3), (f) => `--${f}`);
          throw new UsageError(`unknown option ${a}${hint ? `; ${hint}` : ''}`);
        }
        if (o.template !== undefined) throw new UsageError('only one TEMPLATE argument is allowed');
        o.template = arg;
    }
  }
  return o;
}

function evaluate(
  template: string,
  data: Json,
  o: Pick<Options, 'missingKey' | 'functions'>,
): { output: string; warnings: string[] } | { error: string; phase: 'parse' | 'exec' } {
  const p = parseTemplate(template, { name: 'tpl', functions: o.functions });
  if (!p.ok) return { error: p.error, phase: 'parse' };
  const r = executeTemplate(p.template, data, { missingKey: o.missingKey });
  if (!r.ok) return { error: r.error, phase: 'exec' };
  return { output: r.output, warnings: r.warnings };
}

async function runJsonl(io: CliIO, o: Options): Promise<number> {
  const input = await io.readStdin();
  for (const line of input.split('\n')) {
    if (line.trim() === '') continue;
    let req: { id?: unknown; template?: unknown; data?: unknown; options?: unknown };
    try {
      req = JSON.parse(line) as typeof req;
      if (req === null || typeof req !== 'object' || Array.isArray(req)) throw new Error('not an object');
    } catch (e) {
      await io.stdout(
        JSON.stringify({ id: null, error: `bad request line: ${(e as Error).message}`, phase: 'input' }) + '\n',
      );
      continue;
    }
    const id = req.id === undefined ? null : req.id;
    if (typeof req.template !== 'string') {
      await io.stdout(JSON.stringify({ id, error: 'request has no "template" string', phase: 'input' }) + '\n');
      continue;
    }
    let missingKey = o.missingKey;
    if (Array.isArray(req.options)) {
      for (const opt of req.options) {
        if (opt === 'missingkey=error') missingKey = 'error';
        else if (opt === 'missingkey=default' || opt === 'missingkey=invalid') missingKey = 'default';
        else {
          await io.stdout(
            JSON.stringify({ id, error: `bad option: unrecognized option ${JSON.stringify(opt)}`, phase: 'input' }) +
              '\n',
          );
          missingKey = 'invalid' as never;
        }
      }
      if ((missingKey as string) === 'invalid') continue;
    }
    const data = req.data === undefined || req.data === null ? {} : (req.data as Json);
    const r = evaluate(req.template, data, { missingKey, functions: o.functions });
    await io.stdout(
      jsonString('output' in r ? { id, output: r.output } : { id, error: r.error, phase: r.phase }) + '\n',
    );
  }
  return ExitCode.ok;
}

function usageError(io: CliIO, message: string): number {
  io.stderr(`render-clusterclass template: ${message} (see render-clusterclass template --help)\n`);
  return ExitCode.functionConfig;
}

export async function runTemplateCommand(args: string[], io: CliIO): Promise<number> {
  let o: Options;
  try {
    o = parseArgs(args);
  } catch (e) {
    if (e instanceof UsageError) return usageError(io, e.message);
    throw e;
  }
  if (o.help) {
    await io.stdout(TEMPLATE_HELP);
    return ExitCode.ok;
  }
  try {
    if (o.jsonl) return await runJsonl(io, o);
    if (o.template === undefined) return usageError(io, 'missing TEMPLATE argument');
    let data: Json = {};
    if (o.dataFile !== undefined) {
      const text =
        o.dataFile === '-'
          ? await io.readStdin()
          : await readFile(o.dataFile, 'utf8').catch(() =>
              Promise.reject(new Error(`--data ${o.dataFile}: no such file or directory`)),
            );
      const parsed = parseTemplateOutput(text);
      // Data that cannot be read is unreadable input (exit 1), not a usage error.
      if (!parsed.ok) throw new Error(`cannot parse --data ${o.dataFile}: ${parsed.error}`);
      data = parsed.value ?? {};
    }
    if (o.sets.length > 0) {
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        throw new UsageError('--set needs the data to be an object');
      }
      for (const s of o.sets) applySet(data, s);
    }
    const r = evaluate(o.template, data, o);
    if ('error' in r) {
      io.stderr(`${r.phase} error: ${r.error}\n`);
      return ExitCode.errorResults;
    }
    for (const w of r.warnings) io.stderr(`warning: ${w}\n`);
    if (o.yaml) {
      const y = parseTemplateOutput(r.output);
      if (!y.ok) {
        io.stderr(`yaml error: ${y.error}\n`);
        return ExitCode.errorResults;
      }
      await io.stdout(jsonString(y.value) + '\n');
      return ExitCode.ok;
    }
    await io.stdout(r.output.endsWith('\n') || r.output === '' ? r.output : r.output + '\n');
    return ExitCode.ok;
  } catch (e) {
    if (e instanceof UsageError) return usageError(io, e.message);
    io.stderr(`render-clusterclass template: ${(e as Error)?.message ?? String(e)}\n`);
    return ExitCode.errorResults;
  }
}
