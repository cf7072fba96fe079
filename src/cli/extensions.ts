/**
 * The file side of Runtime SDK extensions for every command: ExtensionConfigs from
 * `extensions` (a file or directory), recordings to replay from `replayExtensions`, and, in
 * record mode, writing what was answered to `recordExtensions` once the command is done: under
 * the directory's lock, each file created exclusively in a staging directory and renamed into
 * place, never through a link (safefs.ts).
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderConfig } from '../krm/config.js';
import type { ExtensionInputs } from '../extensions/client.js';
import { indexRecordings, recordingFileName, recordingText, type Recording } from '../extensions/recordings.js';
import { isExtensionConfig } from '../extensions/registry.js';
import type { CliIO } from './io.js';
import { readSideObjects } from './inputs.js';
import { SafeDir, UnsafePath } from './safefs.js';

export interface PreparedExtensions {
  inputs?: ExtensionInputs;
  /** Writes the recordings (record mode; a no-op otherwise); why it could not, if it could not. */
  save(): Promise<string | undefined>;
}

/**
 * `fromPackage`: the paths come from a package's function config (the KRM function), so not even
 * the recordings directory itself may be reached through a link; a path typed on the command line
 * may (the user chose it).
 */
export async function prepareExtensions(config: RenderConfig, io: CliIO, fromPackage = false): Promise<{ ok: true; value: PreparedExtensions } | { ok: false; message: string }> {
  const configs = await readSideObjects(config.extensions, io, (i) => isExtensionConfig(i.value));
  if (!configs.ok) return { ok: false, message: `extensions: ${configs.message}` };
  const urls = config.extensionURLs;
  const noop = async (): Promise<string | undefined> => undefined;
  if (config.replayExtensions) {
    const dir = config.replayExtensions;
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
    } catch (e) {
      return { ok: false, message: `replayExtensions: ${(e as Error).message}` };
    }
    const files = await Promise.all(names.map(async (name) => ({ name, text: await readFile(join(dir, name), 'utf8') })));
    const index = indexRecordings(files);
    if (!index.ok) return { ok: false, message: `replayExtensions: ${index.error}` };
    return { ok: true, value: { inputs: { configs: configs.objects, urls, mode: { kind: 'replay', recordings: index.index, dir } }, save: noop } };
  }
  const hasConfig = configs.objects.length > 0 || Object.keys(urls).length > 0 || config.recordExtensions !== undefined;
  if (!hasConfig) return { ok: true, value: { save: noop } };
  const recordInto = config.recordExtensions ? new Map<string, Recording>() : undefined;
  const inputs: ExtensionInputs = { configs: configs.objects, urls, mode: { kind: 'live' }, ...(recordInto ? { recordInto } : {}) };
  const save = async () => {
    if (!recordInto || !config.recordExtensions) return undefined;
    try {
      await saveRecordings(config.recordExtensions, recordInto, fromPackage);
      return undefined;
    } catch (e) {
      if (!(e instanceof UnsafePath) && !(e as { code?: string }).code) throw e;
      return `recordExtensions: cannot write ${config.recordExtensions}: ${(e as Error).message}`;
    }
  };
  return { ok: true, value: { inputs, save } };
}

/** Writes each recording whose file is missing or differs, holding the directory's lock; every file is checked before the first write. */
async function saveRecordings(path: string, recordings: ReadonlyMap<string, Recording>, fromPackage: boolean): Promise<void> {
  const dir = (await SafeDir.open(path, { create: true, followNamed: !fromPackage }))!;
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
