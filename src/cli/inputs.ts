/**
 * What the commands read: YAML files and directories as users keep them (a ClusterClass, Cluster
 * files, a kustomization, Helm values, docs), stdin, and the function config from flags.
 *
 * Directories are read recursively in a stable order: `.yaml`, `.yml` and `.json` files, not
 * hidden ones nor `node_modules`, honouring `.krmignore` as kpt does (krmignore.ts), and never a
 * directory this tool writes its output to (`-o DIR`, or any directory holding an outputs list,
 * outdir.ts). Documents that are not Kubernetes objects are skipped with an `info` result.
 */
import { CAPI_VERSIONS, DEFAULT_CAPI_VERSION } from '../core/capi-release.js';
import { existsSync } from 'node:fs';
import { lstat, readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { JsonObject } from '../core/model.js';
import { compareText } from '../core/json.js';
import { DEFAULT_CONFIG, applySettings, parseFunctionConfig, type RenderConfig } from '../krm/config.js';
import type { Result } from '../core/result.js';
import { readYamlStream } from '../krm/read.js';
import { DEFAULT_READ_LIMITS } from '../yaml/decode.js';
import type { CliIO } from './io.js';
import { KRMIGNORE, NO_RULES, parseKrmignore, type IgnoreRules } from './krmignore.js';
import { OUTPUTS_LIST } from './outdir.js';
import type { InputItem } from '../krm/item.js';

/** One file read: its path as the user would type it, its path below the argument it came from, its text. */
export interface InputFile {
  path: string;
  rel: string;
  text: string;
}

/** A file that could not be read or parsed, and where it broke when that is known. */
export interface UnreadableFile {
  path: string;
  line?: number;
  column?: number;
}

/** `links`: the symbolic links not followed (also among `readResults`). */
export type InputsOutcome =
  | {
      ok: true;
      items: InputItem[];
      readResults: Result[];
      files: InputFile[];
      links: Result[];
      unreadable: UnreadableFile[];
    }
  | { ok: false; message: string };

const YAML_FILE = /\.(ya?ml|json)$/i;

/** The reason a path cannot be read, in the words of `ls`. */
function unreadable(path: string, e: unknown): Error {
  const code = (e as { code?: string }).code;
  const reason =
    code === 'ENOENT' || code === 'ENOTDIR'
      ? 'no such file or directory'
      : code === 'EACCES'
        ? 'permission denied'
        : (e as Error).message;
  return new Error(`${path}: ${reason}`);
}

interface Package {
  root: string;
  rules: IgnoreRules;
}

/** A package's `.krmignore`: read only when it is a regular file (a link or a pipe is never opened). */
async function packageAt(root: string): Promise<Package> {
  const file = join(root, KRMIGNORE);
  const st = await lstat(file).catch(() => undefined);
  const text = st?.isFile() ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
  return { root, rules: text === undefined ? NO_RULES : parseKrmignore(text) };
}

const posix = (p: string) => p.split(sep).join('/');

/** A file found under the paths given: its absolute path, its path as the user would type it, its path below the argument. */
export interface FoundFile {
  abs: string;
  path: string;
  rel: string;
}

/**
 * A symbolic link met inside a directory: never followed, as kpt never descends into a linked
 * directory — and unlike kpt, a linked file is not read either, so nothing outside the tree the
 * user named (a Secret, /dev/zero, a link loop) is ever read, printed or copied.
 */
export function linkNotFollowed(path: string): Result {
  return {
    severity: 'warning',
    message:
      'symbolic link not followed: inputs are read only from the files and directories below the paths given (name the target to read it)',
    file: { path },
    tags: { rule: 'symlink' },
  };
}

/**
 * Files under the given paths (as typed), in a stable order; `exclude` are files and
 * directories never read (absolute, as the walk reaches them). A path given may be a link (the user named it); below it, links are not followed, and
 * each one that could hold inputs (a directory, a YAML or JSON name) is reported in `links`.
 */
export async function collectFiles(
  paths: readonly string[],
  exclude: readonly string[] = [],
): Promise<{ files: FoundFile[]; links: Result[] }> {
  const files: FoundFile[] = [];
  const links: Result[] = [];
  const skipped = new Set(exclude.map((d) => resolve(d)));
  const walk = async (dir: string, shown: string, top: string, pkg: Package): Promise<void> => {
    // Dirent types are the entries' own (lstat), never their targets'.
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => compareText(a.name, b.name));
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith('.') || name === 'node_modules') continue;
      const abs = join(dir, name);
      if (skipped.has(abs)) continue;
      const inPackage = posix(relative(pkg.root, abs));
      if (entry.isSymbolicLink()) {
        // Only to say so: whether it points at a directory (a stat of the target, never a read).
        const toDirectory = (await stat(abs).catch(() => undefined))?.isDirectory() === true;
        if ((toDirectory || YAML_FILE.test(name)) && !pkg.rules.ignores(inPackage, toDirectory))
          links.push(linkNotFollowed(join(shown, name)));
      } else if (entry.isDirectory()) {
        if (existsSync(join(abs, OUTPUTS_LIST))) continue;
        if (pkg.rules.ignores(inPackage, true)) continue;
        // A subpackage has its own .krmignore, and the parent's patterns do not reach inside it.
        const sub = existsSync(join(abs, 'Kptfile')) ? await packageAt(abs) : undefined;
        await walk(abs, join(shown, name), top, sub ?? pkg);
      } else if (entry.isFile() && YAML_FILE.test(name) && !pkg.rules.ignores(inPackage, false)) {
        files.push({ abs, path: join(shown, name), rel: posix(relative(top, abs)) });
      }
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    if (skipped.has(abs)) continue;
    const st = await stat(abs).catch((e: unknown) => {
      throw unreadable(p, e);
    });
    if (st.isDirectory()) await walk(abs, p, abs, await packageAt(abs));
    else files.push({ abs, path: p, rel: basename(p) });
  }
  return { files, links };
}

/** The rule of a result about a file that could not be read or parsed. */
export const UNREADABLE_FILE = 'unreadable-file';

/** Where the reader's message says a file broke (`at line L, column C`, `(line L, column C)`). */
const POSITION = /(?:at line (\d+), column (\d+)|\(line (\d+), column (\d+)\))/;

/**
 * An unreadable file as an error result about that file, with its position out of the message
 * (the locator prints it as `path:line:column`; the message keeps it for a ResourceList's results).
 */
function unreadableFile(path: string, message: string): { file: UnreadableFile; result: Result } {
  const m = POSITION.exec(message);
  const file: UnreadableFile = m ? { path, line: Number(m[1] ?? m[3]), column: Number(m[2] ?? m[4]) } : { path };
  const reason = message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
  return {
    file,
    result: {
      severity: 'error',
      message: `${reason}; this file is skipped, and nothing is pruned in a run that cannot read every input`,
      file: { path },
      tags: { rule: UNREADABLE_FILE },
    },
  };
}

/**
 * Reads YAML files and directories (and `-` for stdin) into input items, in a stable order. A
 * file that cannot be read or parsed ends the read with its message, or, with `partial` (render:
 * one bad file must not stop a fleet), is an error result about that file and listed in
 * `unreadable`, and the other files are read.
 */
export async function readInputs(
  paths: readonly string[],
  io: CliIO,
  options: { exclude?: readonly string[]; partial?: boolean } = {},
): Promise<InputsOutcome> {
  const sources: { path: string; rel: string; text: () => Promise<string> }[] = [];
  let links: Result[];
  try {
    const found = await collectFiles(
      paths.filter((p) => p !== '-'),
      options.exclude ?? [],
    );
    for (const f of found.files) {
      sources.push({
        path: f.path,
        rel: f.rel,
        text: () => readFile(f.abs, 'utf8').catch((e: unknown) => Promise.reject(unreadable(f.path, e))),
      });
    }
    links = found.links;
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  if (paths.includes('-')) sources.unshift({ path: '<stdin>', rel: 'stdin.yaml', text: () => io.readStdin() });
  const items: InputItem[] = [];
  const readResults: Result[] = [...links];
  const files: InputFile[] = [];
  const unreadableFiles: UnreadableFile[] = [];
  for (const f of sources) {
    const read = await f.text().then(
      (text) => ({ text, ...readYamlStream(text, f.path, DEFAULT_READ_LIMITS, { skipNonObjects: true }) }),
      (e: unknown) => ({ ok: false as const, message: (e as Error).message }),
    );
    if (!read.ok) {
      if (!options.partial) return { ok: false, message: read.message };
      const broken = unreadableFile(f.path, read.message);
      unreadableFiles.push(broken.file);
      readResults.push(broken.result);
      continue;
    }
    const { text } = read;
    items.push(...read.items);
    readResults.push(...read.results);
    files.push({ path: f.path, rel: f.rel, text });
  }
  return { ok: true, items, readResults, files, links, unreadable: unreadableFiles };
}

/**
 * The function config of a command: `--config FILE`, then `--set KEY=VALUE` and shorthand flags on
 * top; `extensionSources` tells the Runtime SDK settings of the command line (the operator's)
 * from those of the file (the package's, cli/extensions.ts).
 */
export async function configFromFlags(
  flags: Record<string, string | boolean | string[]>,
): Promise<
  | { ok: true; config: RenderConfig; extensionSources: Omit<ExtensionSources, 'allowPackage'> }
  | { ok: false; message: string; field?: string }
> {
  let fc: JsonObject | undefined;
  const configFile = flags.config as string | undefined;
  if (configFile) {
    let text: string;
    try {
      text = await readFile(configFile, 'utf8');
    } catch (e) {
      return { ok: false, message: `--config ${unreadable(configFile, e).message}` };
    }
    const read = readYamlStream(text, configFile);
    const only = read.ok && read.items.length === 1 ? read.items[0] : undefined;
    if (!only) return { ok: false, message: `--config ${configFile}: expected a file with one YAML object` };
    fc = only.value;
  }
  const cfg = parseFunctionConfig(fc);
  if (!cfg.ok) return cfg;
  const settings: Record<string, string> = {};
  for (const kv of (flags.set as string[] | undefined) ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) return { ok: false, message: `--set expects KEY=VALUE, got "${kv}"` };
    settings[kv.slice(0, i)] = kv.slice(i + 1);
  }
  for (const [flag, key] of [
    ['mode', 'mode'],
    ['fail-on', 'failOn'],
    ['shard', 'shard'],
    ['upgrade', 'upgrade'],
    ['extensions', 'extensions'],
    ['record-extensions', 'recordExtensions'],
    ['replay-extensions', 'replayExtensions'],
    ['capi-version', 'capiVersion'],
    ['feature-gates', 'featureGates'],
  ] as const) {
    const v = flags[flag];
    if (typeof v === 'string') settings[key] = v;
  }
  const urls = flags.extension as string[] | undefined;
  if (urls && urls.length > 0) settings.extensionURLs = urls.join(',');
  if (flags.strict === true) settings.strict = 'true';
  if (flags['no-reuse'] === true) settings.reuse = 'false';
  const merged = applySettings(cfg.config, settings, true);
  if (!merged.ok) return merged;
  const { extensions, extensionURLs } = settings;
  const operator = applySettings(DEFAULT_CONFIG, extensionURLs ? { extensionURLs } : {}, true);
  if (!operator.ok) return operator;
  const file = cfg.config;
  return {
    ...merged,
    extensionSources: {
      operator: { ...(extensions ? { extensions } : {}), urls: operator.config.extensionURLs },
      // A path on the command line replaces the file's.
      package: { ...(file.extensions && !extensions ? { extensions: file.extensions } : {}), urls: file.extensionURLs },
    },
  };
}

/** The CAPI release flags every command takes (see configFromFlags, core/capi-release.ts). */
export const CAPI_FLAGS = { 'capi-version': 'string', 'feature-gates': 'string' } as const;

export const CAPI_HELP = `  --capi-version M.N   the CAPI release whose rules to follow: ${CAPI_VERSIONS.join(', ')} (default ${DEFAULT_CAPI_VERSION})
  --feature-gates G=B,...  CAPI feature gates over that release's defaults (MachineTaintPropagation=true)
`;

/** The Runtime SDK flags every command takes (see configFromFlags). */
export const EXTENSION_FLAGS = {
  extensions: 'string',
  extension: 'list',
  'record-extensions': 'string',
  'replay-extensions': 'string',
  'allow-package-extensions': 'boolean',
} as const;

export const EXTENSION_HELP = `  --extensions PATH    ExtensionConfig objects (a file or directory): external patches,
                       variable discovery and topology validation call these Runtime SDK
                       extensions
  --extension NAME=URL reach ExtensionConfig NAME at URL (a local extension or a port-forward);
                       the certificate must still name the host CAPI would call (repeatable)
  --record-extensions DIR  write every extension answer to DIR (one file per request)
  --replay-extensions DIR  answer extension calls from DIR only, without any network
  --allow-package-extensions  also call the ExtensionConfigs among the inputs or named by
                       a --config file, and use that file's extensionURLs (package content:
                       without this flag or RENDER_CLUSTERCLASS_ALLOW_PACKAGE_EXTENSIONS=1
                       they are not used)
`;

/** Objects from a side directory (`--crds`, `--observed`): used by the render, never output; `links` as readInputs says. */
export async function readSideObjects(
  dir: string | undefined,
  io: CliIO,
  keep: (i: InputItem) => boolean,
): Promise<{ ok: true; objects: JsonObject[]; links: Result[] } | { ok: false; message: string }> {
  if (!dir) return { ok: true, objects: [], links: [] };
  const read = await readInputs([dir], io);
  if (!read.ok) return read;
  return { ok: true, objects: read.items.filter(keep).map((i) => i.value), links: read.links };
}

/** CustomResourceDefinitions from `--crds DIR` (used for defaults, contracts and validation). */
export const readCrds = (dir: string | undefined, io: CliIO) =>
  readSideObjects(dir, io, (i) => i.ref?.kind === 'CustomResourceDefinition');

/** Where a command's Runtime SDK settings came from. */
export interface ExtensionSources {
  /** The command line (the operator's). */
  operator: ExtensionSource;
  /** A function config document (the package's). */
  package: ExtensionSource;
  /** The operator allowed the package's ExtensionConfigs and URLs. */
  allowPackage: boolean;
}

/** An ExtensionConfig file or directory and `NAME=URL` overrides, from one side. */
interface ExtensionSource {
  extensions?: string;
  urls: Record<string, string>;
}
