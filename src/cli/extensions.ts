/**
 * The file side of Runtime SDK extensions for every command: ExtensionConfigs from `extensions`
 * (a file or directory), recordings to replay from `replayExtensions`, and, in record mode,
 * writing what was answered to `recordExtensions` once the command is done: under the
 * directory's lock, each file created exclusively in a staging directory and renamed into place,
 * never through a link (safefs.ts).
 *
 * Who gave what decides what may connect (src/extensions/client.ts): the operator is the command
 * line (`--extensions`, `--extension`, `--set`) and the environment; a function config document
 * (`--config FILE`, a ResourceList's functionConfig, a kustomize transformer config) and the input
 * items are the package's, and a package alone never makes the renderer connect anywhere.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderConfig } from '../krm/config.js';
import type { Result } from '../core/result.js';
import { ALLOW_PACKAGE_EXTENSIONS_ENV, packageExtensionHint, type ExtensionInputs } from '../extensions/client.js';
import { indexRecordings, recordingFileName, recordingText, type Recording } from '../extensions/recordings.js';
import { isExtensionConfig } from '../extensions/registry.js';
import type { CliIO } from './io.js';
import { ExtensionSources, linkNotFollowed, readSideObjects } from './inputs.js';
import { SafeDir, UnsafePath } from './safefs.js';

/** Whether the environment allows the package's ExtensionConfigs (`1` or `true`). */
const packageExtensionsAllowed = (env: NodeJS.ProcessEnv): boolean =>
  env[ALLOW_PACKAGE_EXTENSIONS_ENV] === '1' || env[ALLOW_PACKAGE_EXTENSIONS_ENV] === 'true';

/** The KRM function's: everything in its function config is the package's (a Kptfile, a kustomization). */
export const functionConfigSources = (config: RenderConfig, env: NodeJS.ProcessEnv): ExtensionSources => ({
  operator: { urls: {} },
  package: { ...(config.extensions ? { extensions: config.extensions } : {}), urls: config.extensionURLs },
  allowPackage: packageExtensionsAllowed(env),
});

export interface PreparedExtensions {
  inputs: ExtensionInputs;
  /** Links not followed in the directories read, URL overrides not used. */
  results: Result[];
  /** Writes the recordings (record mode; a no-op otherwise); why it could not, if it could not. */
  save(): Promise<string | undefined>;
}

/**
 * `pathsFromPackage`: the paths come from a package's function config (the KRM function), so not
 * even the recordings directory itself may be reached through a link; a path typed on the command
 * line may (the user chose it).
 */
export async function prepareExtensions(
  config: RenderConfig,
  io: CliIO,
  sources: ExtensionSources,
  pathsFromPackage = false,
): Promise<{ ok: true; value: PreparedExtensions } | { ok: false; message: string }> {
  const operator = await readSideObjects(sources.operator.extensions, io, (i) => isExtensionConfig(i.value));
  if (!operator.ok) return { ok: false, message: `extensions: ${operator.message}` };
  const fromPackage = await readSideObjects(sources.package.extensions, io, (i) => isExtensionConfig(i.value));
  if (!fromPackage.ok) return { ok: false, message: `extensions: ${fromPackage.message}` };
  const results: Result[] = [...operator.links, ...fromPackage.links];
  // URL overrides redirect connections: the package's count only with the opt-in, and never over the operator's.
  const packageUrls = Object.entries(sources.package.urls).filter(([name]) => !(name in sources.operator.urls));
  if (!sources.allowPackage && packageUrls.length > 0) {
    const names = packageUrls.map(([name]) => name).join(', ');
    results.push({
      severity: 'warning',
      message: `extensionURLs of the function config not used (${names}): ${packageExtensionHint('give them with --extension NAME=URL')}`,
      tags: { rule: 'extensionconfig' },
    });
  }
  const urls = { ...(sources.allowPackage ? Object.fromEntries(packageUrls) : {}), ...sources.operator.urls };
  const base = {
    configs: operator.objects,
    packageConfigs: fromPackage.objects,
    allowPackage: sources.allowPackage,
    urls,
  };
  const noop = (): Promise<string | undefined> => Promise.resolve(undefined);
  if (config.replayExtensions) {
    const dir = config.replayExtensions;
    let names: string[];
    try {
      // Recordings are regular files; a link (to a file outside, to itself) is never opened.
      const entries = await readdir(dir, { withFileTypes: true });
      for (const e of entries.filter((e) => e.isSymbolicLink() && e.name.endsWith('.json')))
        results.push(linkNotFollowed(join(dir, e.name)));
      names = entries
        .filter((e) => e.isFile() && e.name.endsWith('.json'))
        .map((e) => e.name)
        .sort();
    } catch (e) {
      return { ok: false, message: `replayExtensions: ${(e as Error).message}` };
    }
    const files = await Promise.all(
      names.map(async (name) => ({ name, text: await readFile(join(dir, name), 'utf8') })),
    );
    const index = indexRecordings(files);
    if (!index.ok) return { ok: false, message: `replayExtensions: ${index.error}` };
    return {
      ok: true,
      value: { inputs: { ...base, mode: { kind: 'replay', recordings: index.index, dir } }, results, save: noop },
    };
  }
  const recordInto = config.recordExtensions ? new Map<string, Recording>() : undefined;
  const inputs: ExtensionInputs = { ...base, mode: { kind: 'live' }, ...(recordInto ? { recordInto } : {}) };
  const save = async () => {
    if (!recordInto || !config.recordExtensions) return undefined;
    try {
      await saveRecordings(config.recordExtensions, recordInto, pathsFromPackage);
      return undefined;
    } catch (e) {
      if (!(e instanceof UnsafePath) && !(e as { code?: string }).code) throw e;
      return `recordExtensions: cannot write ${config.recordExtensions}: ${(e as Error).message}`;
    }
  };
  return { ok: true, value: { inputs, results, save } };
}

/** Writes each recording whose file is missing or differs, holding the directory's lock; every file is checked before the first write. */
async function saveRecordings(
  path: string,
  recordings: ReadonlyMap<string, Recording>,
  fromPackage: boolean,
): Promise<void> {
  const dir = await SafeDir.openPresent(path, { create: true, followNamed: !fromPackage });
  const run = await dir.lock();
  try {
    const changed: { name: string; text: string }[] = [];
    for (const [key, recording] of [...recordings].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const name = recordingFileName(recording, key);
      const text = recordingText(recording);
      if ((await dir.read(name)) !== text) changed.push({ name, text });
    }
    await run.sweep();
    for (const { name, text } of changed) await run.install(await run.stage(text), name);
  } finally {
    await run.release();
  }
}

/** A command's sources: its command line split from its `--config` file, with the opt-in of its flag or the environment. */
export const commandSources = (
  split: Omit<ExtensionSources, 'allowPackage'>,
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): ExtensionSources => ({
  ...split,
  allowPackage: flags['allow-package-extensions'] === true || packageExtensionsAllowed(env),
});
