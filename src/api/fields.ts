/**
 * Typed field access for normalisation: every wrong shape becomes an error result at the exact
 * input field path instead of an exception, so one malformed object never stops the others.
 */
import type { Result, ResourceRef } from '../core/result.js';
import type { Json, JsonObject, Metadata } from '../core/model.js';
import { asStringMap, isObject, jsonString } from '../core/json.js';

export class FieldReader {
  readonly results: Result[] = [];
  /**
   * `inputPath` maps a path of the document read to the path the user wrote (a v1beta1 input is
   * read after conversion to v1beta2); results are reported there.
   */
  constructor(
    readonly ref: ResourceRef,
    readonly inputPath: (path: string) => string = (path) => path,
  ) {}

  error(path: string, message: string): void {
    this.results.push({ severity: 'error', message, resourceRef: this.ref, field: { path: this.inputPath(path) } });
  }

  warning(path: string, message: string): void {
    this.results.push({ severity: 'warning', message, resourceRef: this.ref, field: { path: this.inputPath(path) } });
  }

  private typed<T>(
    obj: JsonObject | undefined,
    key: string,
    path: string,
    required: boolean,
    typeName: string,
    check: (v: unknown) => v is T,
  ): T | undefined {
    const v = obj && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
    if (v === undefined || v === null) {
      if (required) this.error(path, 'Required value');
      return undefined;
    }
    if (!check(v)) {
      this.error(path, `Invalid value: ${jsonString(v)}: must be of type ${typeName}`);
      return undefined;
    }
    return v;
  }

  object(obj: JsonObject | undefined, key: string, path: string, required = false): JsonObject | undefined {
    return this.typed(obj, key, path, required, 'object', isObject);
  }

  array(obj: JsonObject | undefined, key: string, path: string, required = false): Json[] | undefined {
    return this.typed(obj, key, path, required, 'array', (v): v is Json[] => Array.isArray(v));
  }

  /** An array of objects; non-object entries are reported and skipped. */
  objects(obj: JsonObject | undefined, key: string, path: string): { item: JsonObject; path: string }[] {
    const arr = this.array(obj, key, path) ?? [];
    const out: { item: JsonObject; path: string }[] = [];
    arr.forEach((item, i) => {
      if (isObject(item)) out.push({ item, path: `${path}[${i}]` });
      else this.error(`${path}[${i}]`, `Invalid value: ${jsonString(item)}: must be of type object`);
    });
    return out;
  }

  string(obj: JsonObject | undefined, key: string, path: string, required = false): string | undefined {
    const v = this.typed(obj, key, path, required, 'string', (x): x is string => typeof x === 'string');
    if (required && v === '') this.error(path, 'Required value: must not be empty');
    return v;
  }

  number(obj: JsonObject | undefined, key: string, path: string, required = false): number | undefined {
    return this.typed(
      obj,
      key,
      path,
      required,
      'integer',
      (x): x is number => typeof x === 'number' && Number.isInteger(x),
    );
  }

  boolean(obj: JsonObject | undefined, key: string, path: string): boolean | undefined {
    return this.typed(obj, key, path, false, 'boolean', (x): x is boolean => typeof x === 'boolean');
  }

  stringList(obj: JsonObject | undefined, key: string, path: string): string[] | undefined {
    const arr = this.array(obj, key, path);
    if (!arr) return undefined;
    return arr.filter((v, i) => {
      if (typeof v === 'string') return true;
      this.error(`${path}[${i}]`, `Invalid value: ${jsonString(v)}: must be of type string`);
      return false;
    }) as string[];
  }

  stringMap(obj: JsonObject | undefined, key: string, path: string): Record<string, string> | undefined {
    const m = this.object(obj, key, path);
    if (!m) return undefined;
    for (const [k, v] of Object.entries(m)) {
      if (typeof v !== 'string') this.error(`${path}.${k}`, `Invalid value: ${jsonString(v)}: must be of type string`);
    }
    return asStringMap(m);
  }

  /** `{labels, annotations}` or undefined when neither is present. */
  metadata(obj: JsonObject | undefined, key: string, path: string): Metadata | undefined {
    const m = this.object(obj, key, path);
    if (!m) return undefined;
    return metadataOf(
      this.stringMap(m, 'labels', `${path}.labels`),
      this.stringMap(m, 'annotations', `${path}.annotations`),
    );
  }
}

export function metadataOf(
  labels: Record<string, string> | undefined,
  annotations: Record<string, string> | undefined,
): Metadata | undefined {
  if (!labels && !annotations) return undefined;
  const md: Metadata = {};
  if (labels) md.labels = labels;
  if (annotations) md.annotations = annotations;
  return md;
}
