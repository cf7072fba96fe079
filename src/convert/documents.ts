/**
 * A YAML file as the text of its documents, so each document can be edited on its own and the
 * file put back together byte for byte around the edits (separators, comments between
 * documents, a missing final newline).
 */
import YAML, { Parser, isMap } from 'yaml';
import type { JsonObject } from '../core/model.js';
import { isObject } from '../core/json.js';
import { PARSE_OPTIONS } from './yamltree.js';

export interface DocumentText {
  /** The document's text, from its `---` (or the file start) to the next document. */
  text: string;
  /** The document as data, when its root is a mapping. */
  value?: JsonObject;
}

/** Splits a YAML stream at its documents; text before the first document stays with it. */
export function splitDocuments(text: string): DocumentText[] {
  const starts: number[] = [];
  for (const token of new Parser().parse(text)) if (token.type === 'document') starts.push(token.offset);
  if (starts.length === 0) return [{ text }];
  starts[0] = 0;
  return starts.map((start, i) => {
    const chunk = text.slice(start, starts[i + 1] ?? text.length);
    const doc = YAML.parseDocument(chunk, PARSE_OPTIONS);
    const value: unknown = doc.errors.length === 0 && isMap(doc.contents) ? doc.toJS() : undefined;
    return isObject(value) ? { text: chunk, value: value } : { text: chunk };
  });
}
