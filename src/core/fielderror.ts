/**
 * Kubernetes field errors (`k8s.io/apimachinery/pkg/util/validation/field`) rendered the way
 * `(*field.Error).ErrorBody()` does, so messages match the API server's text.
 */
import type { ObjectRef } from './model.js';
import { goQuote } from '../gotemplate/fmt.js';
import { resultAt, type Result, type Severity } from './result.js';

/** Go `strconv.Quote` (`%q`), as field error texts print strings. */
export { goQuote };

export type FieldErrorType =
  | 'Required value'
  | 'Forbidden'
  | 'Too long'
  | 'Too many'
  | 'Internal error'
  | 'Invalid value'
  | 'Unsupported value'
  | 'Duplicate value'
  | 'Not found';

/**
 * A bad value as Go would print it: strings are `%q`-quoted, numbers/booleans printed bare,
 * `{ go: text }` is already-rendered Go syntax (e.g. a struct printed with `%#v`).
 */
export type BadValue = string | number | bigint | boolean | null | { go: string };

export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** Omitted for types whose body never shows the value. */
  badValue?: BadValue;
  detail: string;
}

const NO_VALUE_TYPES: ReadonlySet<FieldErrorType> = new Set([
  'Required value',
  'Forbidden',
  'Too long',
  'Internal error',
]);

export function fieldError(type: FieldErrorType, field: string, detail: string, badValue?: BadValue): FieldError {
  const e: FieldError = { type, field, detail };
  if (badValue !== undefined) e.badValue = badValue;
  return e;
}

export const invalid = (field: string, value: BadValue, detail: string) =>
  fieldError('Invalid value', field, detail, value);
export const required = (field: string, detail: string) => fieldError('Required value', field, detail);
export const forbidden = (field: string, detail: string) => fieldError('Forbidden', field, detail);
export function notSupported(field: string, value: BadValue, valid: readonly string[]): FieldError {
  const detail = valid.length > 0 ? 'supported values: ' + valid.map(goQuote).join(', ') : '';
  return fieldError('Unsupported value', field, detail, value);
}

/**
 * Bad values longer than this are cut in messages. CAPI prints the whole variable value in each
 * of its schema errors, so 200 errors about a 1 MB list would print 200 MB.
 */
const MAX_SHOWN_VALUE = 4096;

const cut = (text: string, show: (s: string) => string): string =>
  text.length <= MAX_SHOWN_VALUE ? show(text) : `${show(text.slice(0, MAX_SHOWN_VALUE))}… (${text.length} characters)`;

/** `ErrorBody()`: type, then the value unless the type hides it, then `: detail`. */
export function errorBody(e: FieldError): string {
  let s: string = e.type;
  if (!NO_VALUE_TYPES.has(e.type) && e.badValue !== undefined) {
    const v = e.badValue;
    if (v === null) s += ': "null"';
    else if (typeof v === 'string') s += ': ' + cut(v, goQuote);
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') s += ': ' + String(v);
    else s += ': ' + cut(v.go, (t) => t);
  }
  if (e.detail.length > 0) s += ': ' + e.detail;
  return s;
}

export const errorString = (e: FieldError): string => `${e.field}: ${errorBody(e)}`;

export function toResult(e: FieldError, ref: ObjectRef, severity: Severity = 'error'): Result {
  return resultAt(severity, ref, e.field, errorBody(e));
}

/** Removes exact duplicates (same path and message), as `ErrorList.ToAggregate` does. */
export function dedupeResults(results: Result[]): Result[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    const key = `${r.severity}\u0000${r.field?.path ?? ''}\u0000${r.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ------------------------------------------------------------ field paths (field.Path.String())

export const child = (base: string, name: string): string => (base === '' ? name : `${base}.${name}`);
export const key = (base: string, k: string): string => `${base}[${k}]`;
export const index = (base: string, i: number): string => `${base}[${i}]`;
