/**
 * The shape of src/ as docs/architecture.md declares it: no import cycle between files, no import
 * running back up the layer order except the pairs the document lists with their reasons (at most
 * five, each still in use), comments citing no section of a document outside the repository, the
 * README's folder map naming exactly the folders of src/, and functions short enough to read.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

/** Rows of the markdown table that follows `heading`, as cells. */
function tableAfter(heading: string): string[][] {
  const at = doc.indexOf(`\n## ${heading}\n`);
  expect(at, `docs/architecture.md has a "## ${heading}" section`).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of doc.slice(at).split('\n').slice(2)) {
    if (line.startsWith('|'))
      rows.push(
        line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    else if (rows.length > 0) break;
  }
  return rows.slice(2); // header and separator
}

const layers = tableAfter('Layers').map((r) => r[1]!);
const allowed = tableAfter('Allowed back-up pairs').map((r) => `${r[0]} -> ${r[1]}`);

/** Every import of every .ts file under src/, resolved to src-relative paths (type imports too). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files.map((f) => f.split('\\').join('/'))) {
    const info = ts.preProcessFile(readFileSync(join(src, file), 'utf8'), true, true);
    const targets = info.importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!)); // both set on entry to visit
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!)); // set on entry
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** Most lines a function of src/ may span, nested functions included (the Go template engine aside). */
const MAX_FUNCTION_LINES = 120;

/** Every function of src/ outside src/gotemplate with the lines it spans, as `file:line name`. */
function functionLengths(): { at: string; lines: number }[] {
  const found: { at: string; lines: number }[] = [];
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).map((f) => f.split('\\').join('/'));
  for (const file of files.filter((f) => f.endsWith('.ts') && !f.startsWith('gotemplate/'))) {
    const source = ts.createSourceFile(file, readFileSync(join(src, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = lineOf(node.getStart(source));
        const name =
          node.name?.getText(source) ??
          (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
        found.push({ at: `src/${file}:${start} ${name}`, lines: lineOf(node.end) - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const folderOf = (file: string): string => file.split('/')[0]!; // every src file sits in a folder

describe('the architecture of src/ (docs/architecture.md)', () => {
  const graph = importGraph();

  it('declares every folder of src/ as a layer, once', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect([...layers].sort()).toEqual(folders);
    expect(new Set(layers).size).toBe(layers.length);
  });

  it('has no import cycle between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('imports back up the layers only where the document says why, at most five pairs', () => {
    const backUp = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const from = folderOf(file);
        const to = folderOf(target);
        if (layers.indexOf(to) > layers.indexOf(from))
          backUp.set(`${from} -> ${to}`, [...(backUp.get(`${from} -> ${to}`) ?? []), `${file} -> ${target}`]);
      }
    }
    const undocumented = [...backUp].filter(([pair]) => !allowed.includes(pair));
    expect(
      undocumented,
      'imports running back up the layers (move the code, or name the pair and why in docs/architecture.md)',
    ).toEqual([]);
    expect(
      allowed.filter((pair) => !backUp.has(pair)),
      'documented pairs no longer in use: remove them from docs/architecture.md',
    ).toEqual([]);
    expect(allowed.length).toBeLessThanOrEqual(5);
  });

  it('cites CAPI files and functions or the repository, never a section of a document outside it', () => {
    const outside = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(join(src, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ at: `src/${f}:${i + 1}`, line })),
      )
      .filter(({ line }) => /§|topology-semantics|krm-integration/.test(line))
      .map(({ at }) => at);
    expect(outside).toEqual([]);
  });

  it(`keeps every function outside src/gotemplate within ${MAX_FUNCTION_LINES} lines, and pipeline/run.ts a short recipe`, () => {
    const lengths = functionLengths();
    expect(
      lengths.find((f) => f.at.startsWith('src/pipeline/run.ts:')),
      'functions are found',
    ).toBeDefined();
    expect(lengths.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) => `${f.at}: ${f.lines} lines`)).toEqual([]);
    expect(
      readFileSync(join(src, 'pipeline', 'run.ts'), 'utf8')
        .trimEnd()
        .split('\n').length,
    ).toBeLessThanOrEqual(MAX_FUNCTION_LINES);
  });

  it("keeps the README's folder map equal to the folders of src/", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const mapped = [...readme.matchAll(/^src\/([a-z]+)\s/gm)].map((m) => m[1]!).sort();
    expect(mapped).toEqual([...layers].sort());
  });
});
