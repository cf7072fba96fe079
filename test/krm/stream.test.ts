/**
 * The KRM function writes its ResourceList in pieces while Clusters are serialised one at a time
 * (krm/write.ts `resourceListWriter`): the bytes must be exactly what the collected form
 * (`runPipeline` + `writeResourceList`) gives, and a failing Cluster must not cost the others.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { clusterName, fleetResourceList, NAMESPACE } from '../../bench/fleet.mjs';
import { runFunction } from '../../src/cli/render.js';
import type { CliIO } from '../../src/cli/io.js';
import { parseFunctionConfig } from '../../src/krm/config.js';
import { readResourceList } from '../../src/krm/read.js';
import { writeResourceList } from '../../src/output/write.js';
import { runPipeline } from '../../src/pipeline/run.js';

/** A stdout that makes the writer wait (a promise) on every other piece, as a full pipe would. */
function pipeIO(stdin: string): CliIO & { pieces: string[]; err: string } {
  const io = {
    pieces: [] as string[],
    err: '',
    readStdin: async () => stdin,
    stdout(text: string) {
      io.pieces.push(text);
      return io.pieces.length % 2 === 0 ? new Promise<void>((resolve) => setTimeout(resolve, 0)) : undefined;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}

async function streamed(input: string): Promise<{ out: string; code: number; pieces: number }> {
  const io = pipeIO(input);
  const code = await runFunction(io);
  return { out: io.pieces.join(''), code, pieces: io.pieces.length };
}

function collected(input: string): string {
  const read = readResourceList(input);
  if (!read.ok) throw new Error(read.message);
  const cfg = parseFunctionConfig(read.input.functionConfig);
  if (!cfg.ok) throw new Error(cfg.message);
  return writeResourceList(
    read.input.doc!,
    runPipeline(
      read.input.items,
      cfg.config,
      read.input.results,
      read.input.earlier ? { earlier: read.input.earlier } : {},
    ),
  );
}

/** A fleet ResourceList with its Clusters in reverse order (so the output order is not the input order). */
function reversedFleet(count: number): string {
  const doc = YAML.parseDocument(fleetResourceList(count), { version: '1.1' });
  const items = doc.get('items') as YAML.YAMLSeq;
  const isCluster = (n: unknown) => (n as YAML.YAMLMap).get('kind') === 'Cluster';
  items.items = [...items.items.filter((n) => !isCluster(n)), ...items.items.filter(isCluster).reverse()];
  return doc.toString({ lineWidth: 0 });
}

/** The next run's input: an output with its results dropped and `edit` applied to its items. */
function nextInput(output: string, edit: (items: YAML.YAMLSeq) => void): string {
  const doc = YAML.parseDocument(output, { version: '1.1' });
  doc.delete('results');
  edit(doc.get('items') as YAML.YAMLSeq);
  return doc.toString({ lineWidth: 0 });
}

const clusterItem = (items: YAML.YAMLSeq, name: string) =>
  items.items.find((n) => {
    const m = n as YAML.YAMLMap;
    return (
      m.get('kind') === 'Cluster' &&
      m.getIn(['metadata', 'name']) === name &&
      m.getIn(['spec', 'topology']) !== undefined
    );
  }) as YAML.YAMLMap;

const ownedBy = (items: unknown[], key: string) =>
  items.filter(
    (i) =>
      (i as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations?.[
        'render-clusterclass.dev/cluster'
      ] === key,
  );

/** A ResourceList text in the format of the run: as it is, or as JSON (issue #13: JSON in gives the same answer). */
const inFormat = (text: string, format: string): string =>
  format === 'json' ? JSON.stringify(YAML.parse(text, { version: '1.1' })) : text;

describe.each(['yaml', 'json'])('streamed KRM function output (%s in)', (format) => {
  const first = inFormat(reversedFleet(5), format);

  it('is byte-identical to the collected output, first run and re-run with earlier outputs', async () => {
    const run1 = await streamed(first);
    expect(run1.code).toBe(0);
    expect(run1.pieces).toBeGreaterThan(1);
    expect(run1.out).toBe(collected(first));

    const second = inFormat(
      nextInput(run1.out, (items) => clusterItem(items, clusterName(2)).setIn(['metadata', 'labels', 'edited'], 'yes')),
      format,
    );
    const run2 = await streamed(second);
    expect(run2.code).toBe(0);
    expect(run2.out).toBe(collected(second));
  });

  it('a failing Cluster among others still gives a complete, parseable ResourceList', async () => {
    const run1 = await streamed(first);
    const broken = clusterName(3);
    const input = inFormat(
      nextInput(run1.out, (items) => {
        // The fleet's Clusters are v1beta2: the class is named by classRef (a v1beta1 `class` field
        // would be an unknown field, rejected before the class is looked up).
        clusterItem(items, broken).setIn(['spec', 'topology', 'classRef', 'name'], 'no-such-class');
      }),
      format,
    );
    const run2 = await streamed(input);
    expect(run2.code).toBe(1);
    expect(run2.out).toBe(collected(input));
    const list = YAML.parse(run2.out, { version: '1.1' }) as {
      kind: string;
      items: unknown[];
      results: { severity: string; message: string }[];
    };
    expect(list.kind).toBe('ResourceList');
    expect(list.results.some((r) => r.severity === 'error' && r.message.includes('no-such-class'))).toBe(true);
    const before = YAML.parse(run1.out, { version: '1.1' }) as { items: unknown[] };
    for (let i = 0; i < 5; i++) {
      const key = `${NAMESPACE}/${clusterName(i)}`;
      // Every Cluster keeps a full set of outputs: the broken one its earlier outputs, the others new ones.
      expect(ownedBy(list.items, key).length, key).toBe(ownedBy(before.items, key).length);
      expect(ownedBy(list.items, key).length, key).toBeGreaterThan(0);
    }
    expect(list.items.length).toBe(before.items.length);
  });
});
