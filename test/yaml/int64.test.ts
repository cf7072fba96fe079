/**
 * Integers beyond ±2^53 through the real CLI. Kubernetes stores a number as an int64 where it fits,
 * else as a float64 (apimachinery util/json `convertNumber`); CAPI keeps an int64 exactly in
 * templates, inline patch values and Go-template output, and passes Cluster variable values
 * through float64s (encoding/json in cluster_variable_defaulting.go `defaultValue`). The expected
 * values are what the CAPI v1.14 oracle answers for test/yaml/fixtures/int64.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath } from '../helpers/tools.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'int64');
const FILES = ['clusterclass.yaml', 'cluster.yaml'].map((f) => join(FIXTURE, f));

interface Rendered {
  status: number | null;
  stdout: string;
  stderr: string;
}

const render = (args: string[], input?: string): Rendered =>
  spawnSync(
    process.execPath,
    [binPath, 'render', ...args, '--format', 'resourcelist', '--set', 'outputApiVersion=v1beta2'],
    {
      input,
      encoding: 'utf8',
    },
  );

type Doc = { kind?: string; spec?: Record<string, unknown> } & Record<string, unknown>;
/** The output's items, every integer a bigint (so none is rounded by reading it here). */
const itemsOf = (stdout: string): Doc[] => (YAML.parse(stdout, { intAsBigInt: true }) as { items: Doc[] }).items;

describe('integers beyond ±2^53', () => {
  it('keeps int64s exactly where CAPI does, and rounds variable values through float64 as CAPI does', () => {
    const r = render(FILES);
    expect(r.stderr).not.toMatch(/warning|error/);
    expect(r.status).toBe(0);
    const cluster = itemsOf(r.stdout).find((o) => o.kind === 'VSphereCluster');
    expect(cluster?.spec).toEqual(
      expect.objectContaining({
        // Copied from the template: int64s exactly; a uint64 beyond int64 is stored as a float64.
        inTemplate: 9223372036854775807n,
        inTemplateNeg: -9007199254740993n,
        inTemplateU: 9223372036854776000n,
        // An inline patch's value, and a Go template's literal output.
        lit: 9223372036854775806n,
        tmpl: { a: 9007199254740992n, b: -9007199254740992n, c: 9223372036854775805n, d: 9223372036854776000n },
        // Variable values (typed integer, a default, untyped) come through float64s.
        fromVar: 9007199254740992n,
        fromNeg: -9007199254740992n,
        fromAny: { list: [9007199254740996n, 18446744073709552000n], x: 9223372036854776000n },
      }),
    );
  });

  it('refuses a typed integer variable whose value CAPI reads as a float64 beyond int64', () => {
    const input = readFileSync(FILES[1]!, 'utf8').replace('value: -9007199254740993', 'value: 9223372036854775807');
    const r = render([FILES[0]!, '-'], input);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'spec.topology.variables[neg].value: Invalid value: "9223372036854776000": must be of type integer: "number"',
    );
    expect(r.stderr).toContain('Checked value must be of type integer (default format) in');
  });

  // Big integers put in random places of the fixture (any value replaced, or added to any map or
  // list): the CLI never fails internally, and every integer beyond ±2^53 it writes is one it was
  // given or the float64 Kubernetes stores for one (no other number appears).
  const BIG = [
    9223372036854775807n,
    -9223372036854775808n,
    9007199254740993n,
    -9007199254740993n,
    1152921504606846977n,
    9223372036854775808n,
    18446744073709551615n,
    100000000000000000001n,
  ];
  const SEED = 20261127;
  const docs = FILES.flatMap((f) =>
    YAML.parseAllDocuments(readFileSync(f, 'utf8'), { intAsBigInt: true }).map((d) => d.toJS() as unknown),
  );
  const json = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `\u0000${x}` : x)).replace(
      /"\\u0000(-?\d+)"/g,
      '$1',
    );
  /** Each place a value can be replaced or added to, as a path. */
  const places = (v: unknown, at: (string | number)[] = []): (string | number)[][] =>
    v !== null && typeof v === 'object'
      ? [at, ...Object.entries(v).flatMap(([k, x]) => places(x, [...at, Array.isArray(v) ? Number(k) : k]))]
      : [at];
  const all = docs.flatMap((d, i) => places(d, [i]));
  /** Go's float64 text of an integer, as JavaScript writes the same double (below 1e21). */
  const stored = (n: bigint): string => String(Number(n));

  it(`never fails internally and writes no integer it was not given (fast-check seed ${SEED})`, () => {
    const change = fc.record({ place: fc.nat(all.length - 1), value: fc.constantFrom(...BIG), add: fc.boolean() });
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 6 }), (changes) => {
        const copy = structuredClone(docs) as unknown[];
        for (const { place, value, add } of changes) {
          const path = all[place]!;
          const parent = path
            .slice(1, -1)
            .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], copy[path[0] as number]);
          const here =
            path.length > 1
              ? (parent as Record<string | number, unknown> | undefined)?.[path.at(-1)!]
              : copy[path[0] as number];
          if (add && Array.isArray(here)) here.push(value);
          else if (add && here !== null && typeof here === 'object')
            (here as Record<string, unknown>)[`big${place}`] = value;
          else if (path.length > 1 && parent !== null && typeof parent === 'object')
            (parent as Record<string | number, unknown>)[path.at(-1)!] = value;
        }
        const r = render(['-'], copy.map(json).join('\n---\n'));
        expect([0, 1]).toContain(r.status);
        expect(r.stderr).not.toMatch(/internal error|TypeError|at .*\.js:\d+/);
        const given = new Set(
          [...BIG, ...docs.flatMap((d) => json(d).match(/-?\d{16,}/g) ?? []).map(BigInt)].flatMap((n) => [
            `${n}`,
            stored(n),
          ]),
        );
        const written = r.stdout.match(/(?<![\w.])-?\d{16,}(?![\w.])/g) ?? [];
        expect(written.filter((n) => !given.has(n))).toEqual([]);
      }),
      { numRuns: 30, seed: SEED, endOnFailure: true },
    );
  });
});
