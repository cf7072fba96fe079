/**
 * CEL types of a variable schema, as the API server declares them for `self`
 * (k8s.io/apiserver pkg/cel/common/schemas.go `SchemaDeclType`): int-or-string is `dyn`; arrays
 * are lists, objects with additionalProperties maps with string keys, other objects have their
 * properties as fields (under their CEL-escaped names); strings of format byte, duration,
 * date and date-time are bytes, duration and timestamp. A schema without a CEL type (no `type`,
 * e.g. preserve-unknown-fields only) has none: the field is left out.
 *
 * `maxElements` and `minSerializedSize` are the declaration's size bounds, which the cost
 * estimator reads (`DeclType.MaxElements`, `MinSerializedSize`).
 */
import type { SchemaNode } from '../schema.js';
import { escapeCelPropertyName } from './values.js';

export type CelType =
  | { kind: 'int' | 'uint' | 'double' | 'bool' | 'null' | 'type' | 'error'; sized?: Sized }
  | { kind: 'string' | 'bytes' | 'duration' | 'timestamp' | 'dyn'; sized?: Sized }
  /** A type this module does not infer (cel-go may know it): never reported, assignable to anything. */
  | { kind: 'unknown'; sized?: Sized }
  | { kind: 'list'; elem: CelType; sized?: Sized }
  | { kind: 'map'; key: CelType; value: CelType; sized?: Sized }
  | { kind: 'object'; name: string; fields: ReadonlyMap<string, CelType>; sized?: Sized }
  /** A Kubernetes library type (`kubernetes.Quantity`, `net.IP`, ...): its members are declared overloads. */
  | { kind: 'opaque'; name: string; sized?: Sized };

/** Size bounds of a declared type (`DeclType.MaxElements`, `DeclType.MinSerializedSize`). */
interface Sized {
  maxElements: number;
  minSerializedSize: number;
}

export const simple = (
  kind:
    | 'int'
    | 'uint'
    | 'double'
    | 'bool'
    | 'null'
    | 'type'
    | 'string'
    | 'bytes'
    | 'duration'
    | 'timestamp'
    | 'dyn'
    | 'unknown'
    | 'error',
): CelType => ({ kind });
export const UNKNOWN: CelType = simple('unknown');
export const DYN: CelType = simple('dyn');
export const listOf = (elem: CelType): CelType => ({ kind: 'list', elem });

/** `apiservercel.DefaultMaxRequestSizeBytes` (k8s.io/apiserver pkg/apis/cel/config.go `MaxRequestSizeBytes`). */
const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
// k8s.io/apiserver pkg/cel/limits.go
const MAX_DURATION_SIZE_JSON = 32;
const JSON_DATE_SIZE = 12;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

const zeroIfNegative = (v: number): number => Math.max(0, v);

/** `estimateMaxStringLengthPerRequest`. */
function maxStringLengthPerRequest(n: SchemaNode): number {
  if (n.intOrString) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (n.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

const fromMaxLength = (n: SchemaNode): number => zeroIfNegative(n.maxLength ?? 0) * 4;

/** `estimateMaxStringEnumLength` (UTF-8 byte length of the longest string value). */
function maxEnumLength(n: SchemaNode): number {
  let max = 0;
  for (const v of n.enum ?? []) if (typeof v === 'string') max = Math.max(max, Buffer.byteLength(v, 'utf8'));
  return max;
}

const sized = (t: CelType, maxElements: number, minSerializedSize: number): CelType => ({
  ...t,
  sized: { maxElements, minSerializedSize },
});

/** `model.WithTypeAndObjectMeta`: the fields every resource root has. */
function withTypeAndObjectMeta(fields: Map<string, CelType>): void {
  const str = (): CelType => sized(simple('string'), MAX_REQUEST_SIZE_BYTES - 2, MIN_STRING_SIZE);
  fields.set('kind', str());
  fields.set('apiVersion', str());
  fields.set(
    'metadata',
    sized(
      {
        kind: 'object',
        name: 'metadata',
        fields: new Map([
          ['name', str()],
          ['generateName', str()],
        ]),
      },
      0,
      2,
    ),
  );
}

/**
 * `SchemaDeclType(node, isResourceRoot)`; undefined where it returns nil. A resource root's
 * `WithTypeAndObjectMeta` copy keeps no items, so a root array has no type.
 */
export function schemaDeclType(n: SchemaNode, isResourceRoot = false, name = 'selfType'): CelType | undefined {
  if (n.intOrString) {
    return sized(DYN, n.maxLength !== undefined ? fromMaxLength(n) : maxStringLengthPerRequest(n), 1);
  }
  switch (n.type) {
    case 'array': {
      if (isResourceRoot || !n.items) return undefined;
      const elem = schemaDeclType(n.items, false, `${name}.@idx`);
      if (!elem) return undefined;
      const maxItems =
        n.maxItems !== undefined
          ? zeroIfNegative(n.maxItems)
          : Math.trunc((MAX_REQUEST_SIZE_BYTES - 2) / ((elem.sized?.minSerializedSize ?? 0) + 1));
      return sized(listOf(elem), maxItems, 2);
    }
    case 'object': {
      if (n.additionalProperties) {
        const value = schemaDeclType(n.additionalProperties, false, `${name}.@elem`);
        if (!value) return undefined;
        const maxProperties =
          n.maxProperties !== undefined
            ? zeroIfNegative(n.maxProperties)
            : Math.trunc((MAX_REQUEST_SIZE_BYTES - 2) / ((value.sized?.minSerializedSize ?? 0) + 6));
        const key = sized(simple('string'), 0, MIN_STRING_SIZE);
        return sized({ kind: 'map', key, value }, maxProperties, 2);
      }
      const fields = new Map<string, CelType>();
      const required = new Set(n.required ?? []);
      let minSerializedSize = 2;
      for (const [prop, p] of n.properties ?? []) {
        const escaped = escapeCelPropertyName(prop);
        const t = schemaDeclType(p, false, `${name}.${escaped ?? prop}`);
        if (!t) continue;
        if (escaped !== undefined) fields.set(escaped, t);
        if (required.has(prop) && !p.default)
          minSerializedSize += Buffer.byteLength(prop, 'utf8') + (t.sized?.minSerializedSize ?? 0) + 4;
      }
      if (isResourceRoot) withTypeAndObjectMeta(fields);
      return sized({ kind: 'object', name, fields }, 0, minSerializedSize);
    }
    case 'string':
      switch (n.format) {
        case 'byte':
          return sized(
            simple('bytes'),
            n.maxLength !== undefined ? zeroIfNegative(n.maxLength) : maxStringLengthPerRequest(n),
            MIN_STRING_SIZE,
          );
        case 'duration':
          return sized(simple('duration'), maxStringLengthPerRequest(n), MIN_DURATION_SIZE_JSON);
        case 'date':
          return sized(simple('timestamp'), maxStringLengthPerRequest(n), JSON_DATE_SIZE);
        case 'date-time':
          return sized(simple('timestamp'), maxStringLengthPerRequest(n), MIN_DATETIME_SIZE_JSON);
      }
      return sized(
        simple('string'),
        n.maxLength !== undefined
          ? fromMaxLength(n)
          : (n.enum?.length ?? 0) > 0
            ? maxEnumLength(n)
            : maxStringLengthPerRequest(n),
        MIN_STRING_SIZE,
      );
    case 'boolean':
      return sized(simple('bool'), 0, MIN_BOOL_SIZE);
    case 'number':
      return sized(simple('double'), 0, MIN_NUMBER_SIZE);
    case 'integer':
      return sized(simple('int'), 0, MIN_NUMBER_SIZE);
    default:
      return undefined;
  }
}

/** cel-go `FormatCELType`. Object types are named after their place under `self`, as the API server names them (`selfType<n>...`). */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'object':
    case 'opaque':
      return t.name;
    case 'error':
      return '!error!';
    case 'unknown':
      return 'dyn';
    default:
      return t.kind;
  }
}
