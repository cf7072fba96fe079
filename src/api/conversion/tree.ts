/**
 * What the v1beta1 → v1beta2 conversion rules read and edit: a document addressed by paths.
 * Two implementations exist — plain JSON here (normalisation, rendered objects, the symbolic
 * templates of patch rewriting) and YAML text that keeps comments and layout
 * (src/convert/yamltree.ts) — so every rule is written once and applied to both.
 *
 * Placement: a key created by `move` or `set` goes before the key through which the move's
 * source was reached in the same map (so `template.bootstrap` moved up lands where `template`
 * was, and a rename stays in place); otherwise at the end of the map.
 */
import type { Json, JsonObject } from '../../core/model.js';
import { defineKey, isObject } from '../../core/json.js';

import type { Path, Seg as Segment } from '../../core/path.js';

export type { Path, Segment };

/**
 * A value the rules may move but not look into: a patch value from a variable or a template
 * (`strict`: a rule that needs its content fails the conversion), or a part of a template whose
 * content is not known (an earlier conditional patch may have changed it): rules leave that part
 * as it is.
 */
export class Opaque {
  constructor(
    readonly why: string,
    public strict = true,
  ) {}
}

/** Thrown when a rule would have to look into a strict opaque value: the conversion is not mechanical. */
export class NotMechanical extends Error {
  constructor(
    readonly why: string,
    readonly suggestion?: string,
  ) {
    super(why);
  }
}

/** Thrown when a rule meets a part whose content is not known; the rule skips that part. */
export class Unknown extends Error {}

const opaqueError = (o: Opaque): Error => (o.strict ? new NotMechanical(o.why) : new Unknown(o.why));

export interface Tree {
  /** The value at `path`; undefined when absent. Throws NotMechanical when the path enters an opaque value. */
  get(path: Path): Json | undefined;
  /** Moves the value at `from` to `to` (parents created as maps). */
  move(from: Path, to: Path): void;
  /** Sets the value at `path`, creating missing parents as maps; an existing key keeps its place. */
  set(path: Path, value: Json, anchor?: Path): void;
  /** Removes a map key or a list item; absent paths are ignored. */
  remove(path: Path): void;
  /** Replaces the map at `path` by the list `[{name, value}]` of its entries, in `order` (ConvertToArgs). */
  mapToArgs(path: Path, order: readonly string[]): void;
  /** Inserts `value` into the list at `path` at `index`. */
  insert(path: Path, index: number, value: Json): void;
  /** True for text the rules must not interpret (a Go template action in a patch value). */
  opaqueText(text: string): boolean;
  /** Every key in the document, if cheap to know: steps needing an absent key are skipped. */
  presentKeys?(): Set<string> | undefined;
}

/** Dotted path text as the rest of the code base prints it: `a.b[2].c`. */
export function pathText(path: Path): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : /[.[\]']/.test(s) ? `['${s}']` : `.${s}`;
  }
  return out;
}

export const parentOf = (path: Path): Path => path.slice(0, -1);
// eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- moves and inserts name a field, never the root
export const lastOf = (path: Path): Segment => path[path.length - 1]!;

/** The key of `map` through which `from` is reached, when `from` lies below `map`. */
export function anchorKey(map: Path, from: Path | undefined): string | undefined {
  if (!from || from.length <= map.length) return undefined;
  for (let i = 0; i < map.length; i++) if (from[i] !== map[i]) return undefined;
  const key = from[map.length];
  return typeof key === 'string' ? key : undefined;
}

const isOpaqueValue = (v: unknown): boolean => v instanceof Opaque;

/** Inserts `key: value` into `obj` before `before` (or at the end), keeping the other keys' order. */
function insertKey(obj: Record<string, unknown>, key: string, value: unknown, before: string | undefined): void {
  if (before === undefined || !Object.prototype.hasOwnProperty.call(obj, before) || before === key) {
    defineKey(obj as JsonObject, key, value as Json);
    return;
  }
  const entries = Object.entries(obj);
  for (const k of Object.keys(obj)) delete obj[k];
  for (const [k, v] of entries) {
    if (k === before) defineKey(obj as JsonObject, key, value as Json);
    if (k !== key) defineKey(obj as JsonObject, k, v as Json);
  }
}

/**
 * The JSON implementation, over a mutable root. Values may contain `Opaque` instances (the
 * symbolic templates of patch rewriting); reading into one throws NotMechanical.
 */
export class JsonTree implements Tree {
  constructor(
    readonly root: JsonObject,
    readonly opaqueText: (text: string) => boolean = () => false,
  ) {}

  private walk(path: Path): unknown {
    let cur: unknown = this.root;
    for (const seg of path) {
      if (isOpaqueValue(cur)) throw opaqueError(cur as Opaque);
      if (typeof seg === 'number') {
        if (!Array.isArray(cur) || seg < 0 || seg >= cur.length) return undefined;
        cur = cur[seg];
      } else {
        if (!isObject(cur) || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
        cur = cur[seg];
      }
    }
    return cur;
  }

  get(path: Path): Json | undefined {
    const v = this.walk(path);
    if (isOpaqueValue(v)) throw opaqueError(v as Opaque);
    return v as Json | undefined;
  }

  /** The raw value (possibly opaque) at `path`, for moves. */
  private raw(path: Path): unknown {
    return this.walk(path);
  }

  /** The map at `path`, created (with its missing parents) when absent. */
  private ensureMap(path: Path, anchor: Path | undefined): Record<string, unknown> {
    let cur: unknown = this.root;
    for (const [i, seg] of path.entries()) {
      if (isOpaqueValue(cur)) throw opaqueError(cur as Opaque);
      if (typeof seg === 'number') {
        cur = (cur as unknown[])[seg];
        continue;
      }
      const obj = cur as Record<string, unknown>;
      const container = isObject(obj[seg]) || Array.isArray(obj[seg]) || isOpaqueValue(obj[seg]);
      if (!container) insertKey(obj, seg, {}, anchorKey(path.slice(0, i), anchor));
      cur = obj[seg];
    }
    if (isOpaqueValue(cur)) throw opaqueError(cur as Opaque);
    return cur as Record<string, unknown>;
  }

  move(from: Path, to: Path): void {
    const value = this.raw(from);
    if (value === undefined) return;
    const parent = this.ensureMap(parentOf(to), from);
    const before = anchorKey(parentOf(to), from);
    const oldParent = this.walk(parentOf(from)) as Record<string, unknown>;
    const oldKey = lastOf(from) as string;
    if (oldParent === parent) {
      insertKey(parent, lastOf(to) as string, value, before);
      if (oldKey !== lastOf(to)) delete parent[oldKey];
      return;
    }
    delete oldParent[oldKey];
    insertKey(parent, lastOf(to) as string, value, before);
  }

  set(path: Path, value: Json, anchor?: Path): void {
    const parentPath = parentOf(path);
    const key = lastOf(path);
    if (typeof key === 'number') {
      (this.walk(parentPath) as unknown[])[key] = value;
      return;
    }
    const parent = this.ensureMap(parentPath, anchor);
    if (Object.prototype.hasOwnProperty.call(parent, key)) parent[key] = value;
    else insertKey(parent, key, value, anchorKey(parentPath, anchor));
  }

  remove(path: Path): void {
    const parent = this.walk(parentOf(path));
    const key = lastOf(path);
    if (typeof key === 'number' && Array.isArray(parent)) parent.splice(key, 1);
    else if (isObject(parent) && typeof key === 'string') delete parent[key];
  }

  /** Undefined when part of the document is opaque: its keys are not known. */
  presentKeys(): Set<string> | undefined {
    const out = new Set<string>();
    let opaque = false;
    const walk = (v: unknown): void => {
      if (isOpaqueValue(v)) opaque = true;
      else if (Array.isArray(v)) v.forEach(walk);
      else if (isObject(v)) {
        for (const k of Object.keys(v)) {
          out.add(k);
          walk(v[k]);
        }
      }
    };
    walk(this.root);
    return opaque ? undefined : out;
  }

  mapToArgs(path: Path, order: readonly string[]): void {
    const map = this.walk(path) as Record<string, unknown>;
    this.set(path, order.map((name) => ({ name, value: map[name] })) as Json);
  }

  insert(path: Path, index: number, value: Json): void {
    (this.walk(path) as unknown[]).splice(index, 0, value);
  }
}
