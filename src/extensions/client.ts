/**
 * The Runtime SDK client (internal/runtime/client/client.go): discovery of each ExtensionConfig,
 * then `CallExtension` — registry lookup by `<handler>.<extensionconfig>`, hook check,
 * namespaceSelector, ExtensionConfig settings under the request's own, the handler's timeout,
 * the HTTP exchange, `failurePolicy`, the answer's status — with CAPI's error texts. Answers come
 * from the network (live, optionally recorded) or from recordings only (replay: no network).
 */
import type { JsonObject, ObjectRef } from '../core/model.js';
import { goQuote } from '../gotemplate/fmt.js';
import {
  ExternalHooks,
  HOOKS_API_VERSION,
  HookOutcome,
  decodeResponse,
  hookPath,
  type CommonResponse,
  type DiscoverVariablesRequest,
  type DiscoverVariablesResponse,
  type GeneratePatchesRequest,
  type GeneratePatchesResponse,
  type HookName,
  type HookRequest,
  type ResponseOf,
  type ValidateTopologyRequest,
} from './hooks.js';
import { recordingKey, type Recording } from './recordings.js';
import type { Result } from '../core/result.js';
import { toResult } from '../core/fielderror.js';
import {
  callUrl,
  endpointFor,
  isExtensionConfig,
  validateExtensionConfig,
  matchNamespace,
  namespaceLabels,
  readExtensionConfig,
  registrationsFrom,
  type ExtensionConfig,
  type Registration,
} from './registry.js';
import { postSync, type HttpPost } from './transport.js';
import { jsonString } from '../core/json.js';

/** client.go `defaultDiscoveryTimeout` and `DefaultHandlersTimeoutSeconds`. */
const DISCOVERY_TIMEOUT_SECONDS = 10;
const DEFAULT_HANDLER_TIMEOUT_SECONDS = 10;

type ExtensionMode =
  | { kind: 'live' }
  /** Answers only from recordings (`dir` is named in errors). */
  | { kind: 'replay'; recordings: ReadonlyMap<string, Recording>; dir: string };

/**
 * What a front end prepares for the Runtime SDK (shared by every render of one command, e.g.
 * plan's two). The operator is whoever runs the renderer (command-line flags, environment); the
 * package is what the repository holds (input items, function config documents). A package alone
 * never makes the renderer connect anywhere: its ExtensionConfigs are called only when the
 * operator allows it.
 */
export interface ExtensionInputs {
  /** The operator's ExtensionConfig objects (`--extensions`): called, and they win over a package's of the same name. */
  configs: readonly JsonObject[];
  /** The package's ExtensionConfigs besides its items (a function config's `extensions`). */
  packageConfigs?: readonly JsonObject[];
  /** The operator's opt-in to call the package's ExtensionConfigs too. */
  allowPackage?: boolean;
  /** `--extension NAME=URL`: where to reach an ExtensionConfig instead of its clientConfig (the package's only with the opt-in). */
  urls: Readonly<Record<string, string>>;
  mode: ExtensionMode;
  /** Record mode: every answer received is put here, by key (the front end writes the files). */
  recordInto?: Map<string, Recording>;
}

export interface ExtensionSetup extends Omit<ExtensionInputs, 'configs' | 'packageConfigs' | 'allowPackage'> {
  /** The ExtensionConfigs that may be called. */
  configs: readonly ExtensionConfig[];
  /** Names of the package's ExtensionConfigs the operator did not allow: calls to them say how to. */
  refused?: ReadonlySet<string>;
  /** Labels of the Namespace objects among the inputs (namespaceSelector). */
  namespaces: ReadonlyMap<string, Record<string, string>>;
  /** ExtensionConfigs the webhook would refuse (reported on them): never called. */
  invalid?: ReadonlySet<ExtensionConfig>;
}

/**
 * The client of one render — none when nothing configures the Runtime SDK (then external
 * patches fail the Cluster with a hint, as before): ExtensionConfigs among the items or given,
 * or recordings to replay — and the errors of ExtensionConfigs the webhook would refuse.
 */
export function extensionClientFor(
  items: readonly JsonObject[],
  inputs: ExtensionInputs | undefined,
): { client?: ExtensionClient; results: Result[] } {
  const read = (objects: readonly JsonObject[]) => objects.flatMap((o) => readExtensionConfig(o) ?? []);
  const operator = read(inputs?.configs ?? []);
  const fromPackage = read([...items.filter(isExtensionConfig), ...(inputs?.packageConfigs ?? [])]);
  const all = [...operator, ...fromPackage];
  if (inputs?.mode.kind !== 'replay' && all.length === 0) return { results: [] };
  // An ExtensionConfig the API server would refuse is reported on it; calls to it say why they fail.
  const invalid = new Map(
    all.map((c) => [c, validateExtensionConfig(c)] as const).filter(([, errs]) => errs.length > 0),
  );
  const results: Result[] = [...invalid].flatMap(([c, errs]) =>
    errs.map((e) => ({ ...toResult(e, c.ref), tags: { rule: 'extensionconfig' } })),
  );
  // The operator's ExtensionConfig wins over the package's of the same name, and says so.
  const operatorNames = new Set(operator.map((c) => c.name));
  for (const c of fromPackage.filter((p) => operatorNames.has(p.name))) {
    results.push({
      severity: 'info',
      message: `not used: the operator's ExtensionConfig ${goQuote(c.name)} (--extensions) has the same name and is called instead`,
      resourceRef: c.ref,
      tags: { rule: 'extensionconfig' },
    });
  }
  const ownPackage = fromPackage.filter((c) => !operatorNames.has(c.name));
  const allowed = inputs?.allowPackage === true;
  const client = new ExtensionClient({
    ...(inputs ?? { urls: {}, mode: { kind: 'live' } }),
    configs: allowed ? [...operator, ...ownPackage] : operator,
    refused: new Set(allowed ? [] : ownPackage.map((c) => c.name)),
    namespaces: namespaceLabels(items),
    invalid: new Set(invalid.keys()),
  });
  return { client, results };
}

/** The operator's opt-in, from outside the package, to call the ExtensionConfigs a package brings (or `--allow-package-extensions`). */
export const ALLOW_PACKAGE_EXTENSIONS_ENV = 'RENDER_CLUSTERCLASS_ALLOW_PACKAGE_EXTENSIONS';

/** Why something of the package's is not used for a call, and the ways on: `give` says how the operator gives it instead. */
export const packageExtensionHint = (give: string): string =>
  `the package alone may not make the renderer connect anywhere: ${give}, allow the package's ExtensionConfigs (--allow-package-extensions, or ${ALLOW_PACKAGE_EXTENSIONS_ENV}=1 in the renderer's environment), or replay recorded answers (--replay-extensions)`;

/** errCallingExtensionHandler: the failures `failurePolicy: Ignore` may ignore. */
type Exchange =
  { ok: true; response: CommonResponse; body: JsonObject } | { ok: false; error: string; calling: boolean };

/** validateResponseStatus. */
function statusError(response: CommonResponse, operation: string, target: string): string | undefined {
  if (response.status === 'Success') return undefined;
  if (response.status === 'Failure')
    return `failed to ${operation} ${goQuote(target)}: got failure response with message: ${response.message}`;
  return `failed to ${operation} ${goQuote(target)}: got unknown response status ${goQuote(response.status)} with message: ${response.message}`;
}

export class ExtensionClient implements ExternalHooks {
  private readonly registries = new Map<
    string,
    { ok: true; registrations: Registration[] } | { ok: false; error: string }
  >();

  constructor(private readonly setup: ExtensionSetup) {}

  generatePatches(
    extension: string,
    request: GeneratePatchesRequest,
    forObject: ObjectRef,
  ): HookOutcome<GeneratePatchesResponse> {
    return this.call('GeneratePatches', extension, request, forObject);
  }

  validateTopology(
    extension: string,
    request: ValidateTopologyRequest,
    forObject: ObjectRef,
  ): HookOutcome<CommonResponse> {
    return this.call('ValidateTopology', extension, request, forObject);
  }

  /** Called by the ClusterClass reconciler for the class itself (`forObject` is the ClusterClass). */
  discoverVariables(
    extension: string,
    settings: Record<string, string> | undefined,
    forObject: ObjectRef,
  ): HookOutcome<DiscoverVariablesResponse> {
    const request: DiscoverVariablesRequest = {
      kind: 'DiscoverVariablesRequest',
      apiVersion: HOOKS_API_VERSION,
      ...(settings && Object.keys(settings).length > 0 ? { settings } : {}),
    };
    return this.call('DiscoverVariables', extension, request, forObject);
  }

  /** CallExtension. */
  private call<H extends HookName>(
    hook: H,
    name: string,
    request: HookRequest,
    forObject: ObjectRef,
  ): HookOutcome<ResponseOf[H]> {
    const fail = (detail: string): HookOutcome<ResponseOf[H]> => ({
      ok: false,
      error: `failed to call extension handler ${goQuote(name)}: ${detail}`,
    });
    const mode = this.setup.mode;
    const key = recordingKey(hook, name, request);
    if (mode.kind === 'replay') {
      const recorded = mode.recordings.get(key);
      if (!recorded) {
        return fail(
          `no recorded answer for this ${hook} request in ${mode.dir} (key ${key.slice(0, 24)}); record the extension's answers again (--record-extensions)`,
        );
      }
      if (recorded.ignored !== undefined) return { ok: true, response: emptyResponse(hook), ignored: recorded.ignored };
      const decoded = decodeResponse(hook, jsonString(recorded.response ?? {}));
      if (!decoded.ok) return fail(`recorded answer ${key.slice(0, 24)} is not a ${hook}Response: ${decoded.error}`);
      const status = statusError(decoded.value, 'call extension handler', name);
      return status ? { ok: false, error: status } : { ok: true, response: decoded.value };
    }

    const registration = this.lookup(name);
    if (!registration.ok) return fail(registration.error);
    const r = registration.registration;
    if (r.hook !== hook || r.apiVersion !== HOOKS_API_VERSION)
      return fail(`handler does not match GroupHook "hooks.runtime.cluster.x-k8s.io/${hook}"`);
    const ns = matchNamespace(r.config.namespaceSelector, forObject.namespace ?? '', this.setup.namespaces);
    if (!ns.ok) return fail(ns.error);
    if (!ns.matches) return fail(`namespaceSelector did not match object ${forObject.namespace}/${forObject.name}`);

    // cloneAndAddSettings: the request's settings win over the ExtensionConfig's.
    const { apiVersion, kind, settings: own, ...rest } = request as HookRequest & { settings?: Record<string, string> };
    const settings = { ...r.config.settings, ...(own ?? {}) };
    const sent =
      Object.keys(settings).length > 0
        ? ({ kind, apiVersion, settings: canonicalSettings(settings), ...rest } as HookRequest)
        : request;
    const timeout = r.timeoutSeconds !== 0 ? r.timeoutSeconds : DEFAULT_HANDLER_TIMEOUT_SECONDS;
    const exchange = this.exchange(hook, r.config, r.handler, sent, timeout);
    if (!exchange.ok) {
      if (exchange.calling && r.failurePolicy === 'Ignore') {
        this.record({ hook, handler: name, request, ignored: exchange.error }, r.config, key);
        return { ok: true, response: emptyResponse(hook), ignored: exchange.error };
      }
      return fail(exchange.error);
    }
    this.record({ hook, handler: name, request, response: exchange.body }, r.config, key);
    const status = statusError(exchange.response, 'call extension handler', name);
    return status ? { ok: false, error: status } : { ok: true, response: exchange.response as ResponseOf[H] };
  }

  /** Keeps an answer in record mode: the request as keyed, the names (only) of the ExtensionConfig settings, the answer as received. */
  private record(recording: Omit<Recording, 'extensionConfigSettings'>, config: ExtensionConfig, key: string): void {
    if (!this.setup.recordInto) return;
    const { hook, handler, request, ...answer } = recording;
    const secretNames = Object.keys(config.settings).sort();
    this.setup.recordInto.set(key, {
      hook,
      handler,
      request,
      ...(secretNames.length > 0 ? { extensionConfigSettings: secretNames } : {}),
      ...answer,
    });
  }

  /** registry.Get, with the registry filled by discovering the named ExtensionConfig on first use. */
  private lookup(name: string): { ok: true; registration: Registration } | { ok: false; error: string } {
    const configName = name.slice(name.indexOf('.') + 1);
    const notRegistered = `failed to get extension handler ${goQuote(name)} from registry: handler with name ${goQuote(name)} has not been registered`;
    const config = name.includes('.') ? this.setup.configs.find((c) => c.name === configName) : undefined;
    if (!config && this.setup.refused?.has(configName))
      return {
        ok: false,
        error: `${notRegistered} (ExtensionConfig ${goQuote(configName)} comes with the package: ${packageExtensionHint('give it with --extensions')})`,
      };
    if (!config)
      return {
        ok: false,
        error: `${notRegistered} (no ExtensionConfig ${goQuote(configName)} among the inputs or --extensions)`,
      };
    if (this.setup.invalid?.has(config))
      return {
        ok: false,
        error: `${notRegistered} (ExtensionConfig ${goQuote(config.name)} is invalid, see its results)`,
      };
    let registry = this.registries.get(config.name);
    if (!registry) {
      registry = this.discover(config);
      this.registries.set(config.name, registry);
    }
    if (!registry.ok) return { ok: false, error: `${notRegistered} (${registry.error})` };
    const found = registry.registrations.find((r) => r.name === name);
    return found
      ? { ok: true, registration: found }
      : {
          ok: false,
          error: `${notRegistered} (the discovery of ExtensionConfig ${goQuote(config.name)} lists no such handler)`,
        };
  }

  /** client.Discover. */
  private discover(
    config: ExtensionConfig,
  ): { ok: true; registrations: Registration[] } | { ok: false; error: string } {
    const failed = (detail: string) => ({
      ok: false as const,
      error: `failed to discover extension ${goQuote(config.name)}: ${detail}`,
    });
    const exchange = this.exchange(
      'Discovery',
      config,
      undefined,
      { kind: 'DiscoveryRequest', apiVersion: HOOKS_API_VERSION },
      DISCOVERY_TIMEOUT_SECONDS,
    );
    if (!exchange.ok) return failed(exchange.error);
    const status = statusError(exchange.response, 'discover extension', config.name);
    if (status) return { ok: false, error: status };
    const registrations = registrationsFrom(config, exchange.response as ResponseOf['Discovery']);
    return registrations.ok ? registrations : failed(registrations.error);
  }

  /** httpCall: POST the request, decode a 200 answer; every failure says where it went. */
  private exchange(
    hook: HookName,
    config: ExtensionConfig,
    handler: string | undefined,
    request: HookRequest,
    timeoutSeconds: number,
  ): Exchange {
    const endpoint = endpointFor(config, this.setup.urls[config.name]);
    if (!endpoint.ok) return { ok: false, error: `failed to get http client: ${endpoint.error}`, calling: false };
    const url = callUrl(endpoint.endpoint.url, hookPath(hook, handler), timeoutSeconds);
    const post: HttpPost = {
      url,
      body: jsonString(request),
      verifyHost: endpoint.endpoint.verifyHost,
      timeoutMs: timeoutSeconds * 1000,
    };
    if (config.clientConfig.caBundle) post.caBundle = config.clientConfig.caBundle;
    const answer = postSync(post);
    if (!answer.ok)
      return { ok: false, error: `http call failed: Post ${goQuote(url)}: ${answer.error}`, calling: true };
    if (answer.status !== 200) {
      const body = answer.body.length > 512 ? `${answer.body.slice(0, 512)}...` : answer.body;
      return {
        ok: false,
        error: `http call failed: got response with status code ${answer.status} != 200: response : ${goQuote(body)} (POST ${url})`,
        calling: true,
      };
    }
    const decoded = decodeResponse(hook, answer.body);
    if (!decoded.ok)
      return {
        ok: false,
        error: `http call failed: failed to decode response: ${decoded.error} (POST ${url})`,
        calling: true,
      };
    return { ok: true, response: decoded.value, body: JSON.parse(answer.body) as JsonObject };
  }
}

/** Settings in Go's map order (sorted keys); placed right after the TypeMeta (kind, apiVersion), as CommonRequest is. */
function canonicalSettings(settings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The default success response CallExtension leaves after an ignored failure. */
function emptyResponse<H extends HookName>(hook: H): ResponseOf[H] {
  const base = { status: 'Success', message: '' };
  const extra =
    hook === 'GeneratePatches'
      ? { items: [] }
      : hook === 'DiscoverVariables'
        ? { variables: [] }
        : hook === 'Discovery'
          ? { handlers: [] }
          : {};
  return { ...base, ...extra } as unknown as ResponseOf[H];
}
