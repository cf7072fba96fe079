/**
 * Directory trees as they are on disk, links included (never followed), for "nothing changed"
 * and "nothing outside DIR changed" checks of the commands that write.
 */
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry below `dir`: a file's text, `-> target` for a link, `/` for a directory, with mode and owner. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      const meta = `[${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}]`;
      if (st.isSymbolicLink()) out[path] = `-> ${readlinkSync(join(dir, path))}`;
      else if (st.isDirectory()) {
        out[path] = `/ ${meta}`;
        walk(path);
      } else out[path] = `${meta} ${readFileSync(join(dir, path), 'utf8')}`;
    }
  };
  walk('');
  return out;
}

/** What this tool may leave behind only while it runs: its lock, staging directories and temporary files. */
export const litter = (dir: string): string[] =>
  Object.keys(tree(dir)).filter((p) => /(^|\/)\.render-clusterclass-(lock|tmp-)/.test(p));
