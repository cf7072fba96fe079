import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';

const realWorld = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'real-world');

/** Whether the shared real-world fixtures are there. */
export const haveRealWorldFixtures = existsSync(realWorld);

/** Each real-world fixture as the ResourceList kpt would hand the function for a package of that file (a ConfigMap function config with `data`). */
export function realWorldResourceLists(data: Record<string, string>): { file: string; text: string }[] {
  return readdirSync(realWorld)
    .filter((f) => f.endsWith('.yaml'))
    .map((file) => {
      const items = YAML.parseAllDocuments(readFileSync(join(realWorld, file), 'utf8'))
        .map((d) => d.toJS())
        .filter(Boolean);
      const list = {
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items,
        functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data },
      };
      return { file, text: YAML.stringify(list, { lineWidth: 0 }) };
    });
}
