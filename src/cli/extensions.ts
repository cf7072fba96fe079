/**
 * The file side of Runtime SDK extensions for every command: ExtensionConfigs from
 * `extensions` (a file or directory), recordings to replay from `replayExtensions`, and, in
 * record mode, writing what was answered to `recordExtensions` once the command is done (each
 * file written whole, then renamed into place).
 */
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderConfig } from '../krm/config.js';
import type { Result } from '../krm/result.js';
import type { ExtensionInputs } from '../extensions/client.js';
import { indexRecordings, recordingFileName, recordingText, type Recording } from '../extensions/recordings.js';
import { isExtensionConfig } from '../extensions/registry.js';
import type { CliIO } from './io.js';
import { linkNotFollowed, readSideObjects } from './inputs.js';

export interface PreparedExtensions {
  inputs?: ExtensionInputs;
  /** Links not followed in the directories read. */
  results: Result[];
  /** Writes the recordings (record mode); a no-op otherwise. */
  save(): Promise<void>;
}

export async function prepareExtensions(config: RenderConfig, io: CliIO): Promise<{ ok: true; value: PreparedExtensions } | { ok: false; message: string }> {
  const configs = await readSideObjects(config.extensions, io, (i) => isExtensionConfig(i.value));
  if (!configs.ok) return { ok: false, message: `extensions: ${configs.message}` };
  const results: Result[] = [...configs.links];
  const urls = config.extensionURLs;
  const noop = async () => undefined;
  if (config.replayExtensions) {
    const dir = config.replayExtensions;
    let names: string[];
    try {
      // Recordings are regular files; a link (to a file outside, to itself) is never opened.
      const entries = await readdir(dir, { withFileTypes: true });
      for (const e of entries.filter((e) => e.isSymbolicLink() && e.name.endsWith('.json'))) results.push(linkNotFollowed(join(dir, e.name)));
      names = entries.filter((e) => e.isFile() && e.name.endsWith('.json')).map((e) => e.name).sort();
    } catch (e) {
      return { ok: false, message: `replayExtensions: ${(e as Error).message}` };
    }
    const files = await Promise.all(names.map(async (name) => ({ name, text: await readFile(join(dir, name), 'utf8') })));
    const index = indexRecordings(files);
    if (!index.ok) return { ok: false, message: `replayExtensions: ${index.error}` };
    return { ok: true, value: { inputs: { configs: configs.objects, urls, mode: { kind: 'replay', recordings: index.index, dir } }, results, save: noop } };
  }
  const hasConfig = configs.objects.length > 0 || Object.keys(urls).length > 0 || config.recordExtensions !== undefined;
  if (!hasConfig) return { ok: true, value: { results, save: noop } };
  const recordInto = config.recordExtensions ? new Map<string, Recording>() : undefined;
  const inputs: ExtensionInputs = { configs: configs.objects, urls, mode: { kind: 'live' }, ...(recordInto ? { recordInto } : {}) };
  const save = async () => {
    if (!recordInto || !config.recordExtensions) return;
    const dir = config.recordExtensions;
    await mkdir(dir, { recursive: true });
    for (const [key, recording] of [...recordInto].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const target = join(dir, recordingFileName(recording, key));
      await writeFile(`${target}.tmp`, recordingText(recording));
      await rename(`${target}.tmp`, target);
    }
  };
  return { ok: true, value: { inputs, results, save } };
}
