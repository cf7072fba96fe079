/**
 * The Runtime SDK hooks this renderer calls, as wire types: CAPI's
 * `api/runtime/hooks/v1alpha1` (common_types.go, discovery_types.go, topologymutation_types.go)
 * with their JSON names and `omitempty` rules, and the decoding of answers the way Go's
 * `json.Decoder` fills those structs (httpCall in internal/runtime/client/client.go): unknown
 * fields ignored, keys matched case-insensitively, a wrong type or bad base64 is an error.
 */
import { isObject } from '../core/json.js';
import type { Json, JsonObject, ObjectRef } from '../core/model.js';

export const HOOKS_API_VERSION = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';

export type HookName = 'Discovery' | 'GeneratePatches' | 'ValidateTopology' | 'DiscoverVariables';

/** catalog.GVHToPath: `/<group>/<version>/<hook lowercased>[/<handler lowercased>]`. */
export function hookPath(hook: HookName, handler?: string): string {
  const base = `/${HOOKS_API_VERSION}/${hook.toLowerCase()}`;
  return handler ? `${base}/${handler.toLowerCase()}` : base;
}

/** runtimehooksv1.Variable (value: apiextensionsv1.JSON). */
export interface HookVariable {
  name: string;
  value: Json;
}

/** runtimehooksv1.HolderReference: every field required. */
export interface HolderReference {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  fieldPath: string;
}

/**
 * GeneratePatchesRequest: `settings` and `variables` are omitempty, `items` is not. Requests are
 * built in Go's field order: metav1.TypeMeta (`kind` before `apiVersion`), CommonRequest, then
 * the hook's fields.
 */
export interface GeneratePatchesRequest {
  apiVersion: string;
  kind: 'GeneratePatchesRequest';
  settings?: Record<string, string>;
  variables?: HookVariable[];
  items: { uid: string; holderReference: HolderReference; object: JsonObject; variables?: HookVariable[] }[];
}

/** ValidateTopologyRequest: like GeneratePatchesRequest without uids. */
export interface ValidateTopologyRequest {
  apiVersion: string;
  kind: 'ValidateTopologyRequest';
  settings?: Record<string, string>;
  variables?: HookVariable[];
  items: { holderReference: HolderReference; object: JsonObject; variables?: HookVariable[] }[];
}

export interface DiscoverVariablesRequest {
  apiVersion: string;
  kind: 'DiscoverVariablesRequest';
  settings?: Record<string, string>;
}

interface DiscoveryRequest {
  apiVersion: string;
  kind: 'DiscoveryRequest';
}

export type HookRequest =
  DiscoveryRequest | GeneratePatchesRequest | ValidateTopologyRequest | DiscoverVariablesRequest;

/** CommonResponse. */
export interface CommonResponse {
  status: string;
  message: string;
}

/** GeneratePatchesResponseItem; `patch` holds the decoded bytes as text. */
interface GeneratedPatch {
  uid: string;
  patchType: string;
  patch: string;
}

export interface GeneratePatchesResponse extends CommonResponse {
  items: GeneratedPatch[];
}

/** DiscoveryResponse handler (ExtensionHandler): `timeoutSeconds` and `failurePolicy` optional. */
export interface DiscoveredHandler {
  name: string;
  requestHook: { apiVersion: string; hook: string };
  timeoutSeconds?: number;
  failurePolicy?: string;
}

export interface DiscoveryResponse extends CommonResponse {
  handlers: DiscoveredHandler[];
}

/** DiscoverVariablesResponse: the ClusterClassVariable objects, read later like spec.variables. */
export interface DiscoverVariablesResponse extends CommonResponse {
  variables: JsonObject[];
}

export interface ResponseOf {
  Discovery: DiscoveryResponse;
  GeneratePatches: GeneratePatchesResponse;
  ValidateTopology: CommonResponse;
  DiscoverVariables: DiscoverVariablesResponse;
}

// ------------------------------------------------------------------ decoding like encoding/json

type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

const goKind = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object'
        ? 'object'
        : typeof v === 'boolean'
          ? 'bool'
          : typeof v;

/** A struct field lookup as Go does it: the exact key, else a case-insensitive match. */
function field(obj: JsonObject, name: string): Json | undefined {
  if (Object.hasOwn(obj, name)) return obj[name];
  const lower = name.toLowerCase();
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : obj[key];
}

/** A Go decoding error (type mismatch, bad base64): ends the decoding with its text. */
class DecodeError extends Error {}

/** The reader of one struct level: `json: cannot unmarshal X into Go struct field S.path of type T`. */
class StructReader {
  constructor(
    private readonly obj: JsonObject,
    private readonly struct: string,
    private readonly path: string,
  ) {}

  private fail(name: string, value: unknown, goType: string): never {
    const at = this.path ? `${this.path}.${name}` : name;
    throw new DecodeError(
      `json: cannot unmarshal ${goKind(value)} into Go struct field ${this.struct}.${at} of type ${goType}`,
    );
  }

  string(name: string, goType = 'string'): string {
    const v = field(this.obj, name);
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') this.fail(name, v, goType);
    return v;
  }

  optionalString(name: string, goType: string): string | undefined {
    const v = field(this.obj, name);
    return v === undefined || v === null ? undefined : this.string(name, goType);
  }

  int32(name: string): number | undefined {
    const v = field(this.obj, name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) {
      if (typeof v === 'number')
        throw new DecodeError(
          `json: cannot unmarshal number ${v} into Go struct field ${this.struct}.${this.at(name)} of type int32`,
        );
      this.fail(name, v, 'int32');
    }
    return v;
  }

  /** A []T field: each element read by `item` with the element's struct name. */
  list<T>(name: string, elemStruct: string, item: (r: StructReader, raw: Json) => T): T[] {
    const v = field(this.obj, name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) this.fail(name, v, `[]v1alpha1.${elemStruct}`);
    return v.map((raw) => {
      if (raw === null) return item(new StructReader({}, elemStruct, this.at(name)), raw);
      if (!isObject(raw)) this.fail(name, raw, `v1alpha1.${elemStruct}`);
      return item(new StructReader(raw, elemStruct, this.at(name)), raw);
    });
  }

  object(name: string, struct: string): StructReader {
    const v = field(this.obj, name);
    if (v !== undefined && v !== null && !isObject(v)) this.fail(name, v, `v1alpha1.${struct}`);
    return new StructReader(isObject(v) ? v : {}, struct, this.at(name));
  }

  /** []byte: a base64 (standard, padded) string. */
  bytes(name: string): string {
    const v = field(this.obj, name);
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') this.fail(name, v, '[]uint8');
    const bad = base64Error(v);
    if (bad !== undefined) throw new DecodeError(`illegal base64 data at input byte ${bad}`);
    return Buffer.from(v.replace(/[\r\n]/g, ''), 'base64').toString('utf8');
  }

  private at(name: string): string {
    return this.path ? `${this.path}.${name}` : name;
  }
}

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;

/**
 * Where base64.StdEncoding.Decode reports a CorruptInputError (encoding/base64 `decodeQuantum`:
 * quanta of four, CR and LF skipped, `=` only as final padding), or undefined when valid.
 */
function base64Error(s: string): number | undefined {
  let si = 0;
  for (;;) {
    for (let j = 0; j < 4; j++) {
      if (si === s.length) {
        if (j === 0) return undefined;
        return si - j;
      }
      const c = s.charAt(si++);
      if (BASE64_ALPHABET.test(c)) continue;
      if (c === '\n' || c === '\r') {
        j--;
        continue;
      }
      if (c !== '=' || j < 2) return si - 1;
      if (j === 2) {
        while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
        if (si === s.length) return s.length;
        if (s[si] !== '=') return si - 1;
        si++;
      }
      while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
      return si < s.length ? si : undefined;
    }
  }
}

function common(r: StructReader): CommonResponse {
  return { status: r.string('status', 'v1alpha1.ResponseStatus'), message: r.string('message') };
}

const DECODERS: { [H in HookName]: (r: StructReader) => ResponseOf[H] } = {
  Discovery: (r) => ({
    ...common(r),
    handlers: r.list('handlers', 'ExtensionHandler', (h) => {
      const hook = h.object('requestHook', 'GroupVersionHook');
      const out: DiscoveredHandler = {
        name: h.string('name'),
        requestHook: { apiVersion: hook.string('apiVersion'), hook: hook.string('hook') },
      };
      const timeout = h.int32('timeoutSeconds');
      if (timeout !== undefined) out.timeoutSeconds = timeout;
      const policy = h.optionalString('failurePolicy', 'v1alpha1.FailurePolicy');
      if (policy !== undefined) out.failurePolicy = policy;
      return out;
    }),
  }),
  GeneratePatches: (r) => ({
    ...common(r),
    items: r.list('items', 'GeneratePatchesResponseItem', (i) => ({
      uid: i.string('uid', 'types.UID'),
      patchType: i.string('patchType', 'v1alpha1.PatchType'),
      patch: i.bytes('patch'),
    })),
  }),
  ValidateTopology: common,
  DiscoverVariables: (r) => ({
    ...common(r),
    variables: r.list('variables', 'ClusterClassVariable', (_v, raw) => (isObject(raw) ? raw : {})),
  }),
};

/**
 * The Go text of the first syntax problem json.Decoder reports for the common non-JSON bodies
 * (empty, a bad first character, a misspelt literal); JSON.parse's text otherwise.
 */
function syntaxError(body: string, parseMessage: string): string {
  const trimmed = body.trimStart();
  if (trimmed === '') return 'EOF';
  const quote = (c: string) => `'${c}'`;
  const first = trimmed.charAt(0);
  if (!/[{["\-0-9tfn]/.test(first)) return `invalid character ${quote(first)} looking for beginning of value`;
  const literal = { t: 'true', f: 'false', n: 'null' }[first];
  if (literal) {
    for (let i = 1; i < literal.length; i++) {
      if (trimmed[i] === undefined) return 'unexpected EOF';
      if (trimmed[i] !== literal[i])
        return `invalid character ${quote(trimmed.charAt(i))} in literal ${literal} (expecting ${quote(literal.charAt(i))})`;
    }
  }
  return parseMessage;
}

/** Decodes an HTTP 200 body into the hook's response, or the error `httpCall` would wrap. */
export function decodeResponse<H extends HookName>(hook: H, body: string): Decoded<ResponseOf[H]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    return { ok: false, error: syntaxError(body, (e as Error).message) };
  }
  if (parsed !== null && !isObject(parsed))
    return {
      ok: false,
      error: `json: cannot unmarshal ${goKind(parsed)} into Go value of type v1alpha1.${hook}Response`,
    };
  try {
    return { ok: true, value: DECODERS[hook](new StructReader(parsed ?? {}, `${hook}Response`, '')) };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.message };
    throw e;
  }
}

/** A call's answer; `ignored` holds the error a `failurePolicy: Ignore` handler's call had (CAPI logs it). */
export type HookOutcome<T> = { ok: true; response: T; ignored?: string } | { ok: false; error: string };
/** The Runtime SDK calls the engine makes, for the Cluster `forObject` (the ExtensionConfig namespaceSelector applies to it). */
export interface ExternalHooks {
  generatePatches(
    extension: string,
    request: GeneratePatchesRequest,
    forObject: ObjectRef,
  ): HookOutcome<GeneratePatchesResponse>;
  validateTopology(extension: string, request: ValidateTopologyRequest, forObject: ObjectRef): HookOutcome<unknown>;
}
