/**
 * JSON → CEL value conversion guided by the structural schema, like Kubernetes'
 * `UnstructuredToVal`: `integer` values are CEL ints, `number` values CEL doubles (even when
 * integral), int-or-string and untyped values keep their JSON kind, objects with declared
 * properties expose those properties under their CEL-escaped names, and maps/lists convert
 * their elements with the additionalProperties/items schema.
 */
import type { CelInput } from '@bufbuild/cel';
import type { Json } from '../../core/model.js';
import { isObject } from '../../core/json.js';
import type { SchemaNode } from '../schema.js';

const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

/**
 * Kubernetes' property-name escaping for CEL (`__underscores__`, `__dot__`, `__dash__`,
 * `__slash__`, `__{keyword}__`); undefined when the name cannot be accessed from CEL.
 */
export function escapeCelPropertyName(name: string): string | undefined {
  if (CEL_RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name
    .replace(/__/g, '__underscores__')
    .replace(/\./g, '__dot__')
    .replace(/-/g, '__dash__')
    .replace(/\//g, '__slash__');
}

/**
 * The runtime cost budget of one rule evaluation (Kubernetes cancels a rule past its cost limit
 * with "operation cancelled: actual cost limit exceeded"). Every element a comprehension visits
 * in a value list is charged, so nested `all`/`exists`/`map` over large lists stop early.
 */
export class CostBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  reset(): void {
    this.used = 0;
  }
  charge(): void {
    if (++this.used > this.limit) throw new CostLimitExceeded();
  }
}

class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** A value list that charges the budget for each element iterated. */
class MeteredList<T> extends Array<T> {
  budget!: CostBudget;
  static override get [Symbol.species]() {
    return Array;
  }
  override *values(): ArrayIterator<T> {
    for (let i = 0; i < this.length; i++) {
      this.budget.charge();
      yield this[i] as T;
    }
    return undefined;
  }
}

function metered(items: CelInput[], budget: CostBudget): CelInput[] {
  const list = new MeteredList<CelInput>();
  list.budget = budget;
  for (const item of items) list.push(item);
  return list;
}

export function toCel(value: Json, s: SchemaNode | undefined, budget?: CostBudget): CelInput {
  if (value === null) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  // An int64 beyond ±2^53: a CEL int, or a double where the schema says number.
  if (typeof value === 'bigint') return s?.type === 'number' ? Number(value) : value;
  if (typeof value === 'number') {
    if (s && s.type === 'number') return value;
    if (s && (s.type === 'integer' || s.intOrString)) return Number.isInteger(value) ? BigInt(value) : value;
    return Number.isInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) {
    const items = value.map((v) => toCel(v, s?.items, budget));
    return budget ? metered(items, budget) : items;
  }
  if (!isObject(value)) return null;
  const out = new Map<string, CelInput>();
  for (const k of Object.keys(value)) {
    const v = value[k] as Json;
    const prop = s?.properties?.get(k);
    if (prop) {
      const escaped = escapeCelPropertyName(k);
      if (escaped !== undefined) out.set(escaped, toCel(v, prop, budget));
    } else if (s?.additionalProperties) {
      out.set(k, toCel(v, s.additionalProperties, budget));
    } else {
      // Unknown fields under x-kubernetes-preserve-unknown-fields: untyped (dyn) conversion.
      out.set(k, toCel(v, undefined, budget));
    }
  }
  return out;
}
