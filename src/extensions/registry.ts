/**
 * ExtensionConfigs as CAPI's Runtime SDK reads them (api/runtime/v1beta2/extensionconfig_types.go,
 * v1alpha1 too), where to reach them (internal/runtime/client/client.go `urlForExtension`, plus
 * our `--extension NAME=URL` override), what their discovery answers may say
 * (`defaultAndValidateDiscoveryResponse`) and the handler names it yields (`NameForHandler`).
 */
import { asObject, asString } from '../core/json.js';
import type { JsonObject, ObjectRef } from '../core/model.js';
import { refOf } from '../krm/read.js';
import { HOOKS_API_VERSION, type DiscoveredHandler, type DiscoveryResponse } from './hooks.js';
import { matchesLabelSelector } from './labelselector.js';
import { forbidden, invalid, required, type FieldError } from '../core/fielderror.js';

const RUNTIME_GROUP = 'runtime.cluster.x-k8s.io';

export interface ExtensionConfig {
  name: string;
  ref: ObjectRef;
  clientConfig: {
    url?: string;
    service?: { namespace: string; name: string; path?: string; port?: number };
    caBundle?: string;
  };
  namespaceSelector?: JsonObject;
  settings: Record<string, string>;
}

/** A discovered handler as the registry keeps it (ExtensionHandler in the ExtensionConfig status). */
export interface Registration {
  /** `<handler>.<extensionconfig>`. */
  name: string;
  handler: string;
  hook: string;
  apiVersion: string;
  timeoutSeconds: number;
  failurePolicy: 'Ignore' | 'Fail';
  config: ExtensionConfig;
}

export const isExtensionConfig = (o: JsonObject): boolean =>
  o.kind === 'ExtensionConfig' &&
  typeof o.apiVersion === 'string' &&
  (o.apiVersion === `${RUNTIME_GROUP}/v1alpha1` || o.apiVersion === `${RUNTIME_GROUP}/v1beta2`);

/** An ExtensionConfig object as the controller reads it (both versions share these fields). */
export function readExtensionConfig(o: JsonObject): ExtensionConfig | undefined {
  const ref = refOf(o);
  if (!ref || !isExtensionConfig(o)) return undefined;
  const spec = asObject(o.spec) ?? {};
  const cc = asObject(spec.clientConfig) ?? {};
  const clientConfig: ExtensionConfig['clientConfig'] = {};
  const url = asString(cc.url);
  if (url) clientConfig.url = url;
  const svc = asObject(cc.service);
  if (svc && (asString(svc.name) || asString(svc.namespace))) {
    clientConfig.service = { namespace: asString(svc.namespace) ?? '', name: asString(svc.name) ?? '' };
    const path = asString(svc.path);
    if (path) clientConfig.service.path = path;
    // The ExtensionConfig defaulting webhook sets port 443.
    clientConfig.service.port = typeof svc.port === 'number' ? svc.port : 443;
  }
  // caBundle is []byte: base64 in JSON/YAML.
  const ca = asString(cc.caBundle);
  if (ca) clientConfig.caBundle = Buffer.from(ca, 'base64').toString('utf8');
  const settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(asObject(spec.settings) ?? {})) if (typeof v === 'string') settings[k] = v;
  const out: ExtensionConfig = { name: ref.name, ref, clientConfig, settings };
  const selector = asObject(spec.namespaceSelector);
  if (selector) out.namespaceSelector = selector;
  return out;
}

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The ExtensionConfig webhook's spec rules (core/webhooks/admission/extensionconfig.go
 * `validateExtensionConfigSpec`) that decide whether it can be called: exactly one of url and
 * service, an https URL, a service with a DNS name, namespace, `/path` and port 1-65535.
 */
export function validateExtensionConfig(c: ExtensionConfig): FieldError[] {
  const errs: FieldError[] = [];
  const { url, service } = c.clientConfig;
  if (!url && !service) errs.push(required('spec.clientConfig', 'either url or service must be defined'));
  if (url && service) errs.push(forbidden('spec.clientConfig', 'only one of url or service can be defined'));
  if (url) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch (e) {
      errs.push(
        invalid('spec.clientConfig.url', url, `must be a valid URL, e.g. https://example.com: ${(e as Error).message}`),
      );
    }
    if (parsed && parsed.protocol !== 'https:')
      errs.push(
        invalid('spec.clientConfig.url', url, "'https' is the only allowed URL scheme, e.g. https://example.com"),
      );
  }
  if (service) {
    if (service.name === '') errs.push(required('spec.clientConfig.service.name', 'must not be empty'));
    else if (service.name.length > 63 || !DNS1035_LABEL.test(service.name)) {
      errs.push(
        invalid(
          'spec.clientConfig.service.name',
          service.name,
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
    }
    if (service.namespace === '') errs.push(required('spec.clientConfig.service.namespace', 'must not be empty'));
    else if (service.namespace.length > 63 || !DNS1123_LABEL.test(service.namespace)) {
      errs.push(
        invalid(
          'spec.clientConfig.service.namespace',
          service.namespace,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
    }
    if (service.path !== undefined && !service.path.startsWith('/'))
      errs.push(invalid('spec.clientConfig.service.path', service.path, 'must start with "/" to be a valid URL path'));
    if (service.port !== undefined && !(Number.isInteger(service.port) && service.port >= 1 && service.port <= 65535)) {
      errs.push(invalid('spec.clientConfig.service.port', service.port, 'must be between 1 and 65535, inclusive'));
    }
  }
  return errs;
}

/** Where a call goes: the URL to connect to and the host name the server certificate must carry. */
export interface Endpoint {
  url: URL;
  verifyHost: string;
}

/**
 * urlForExtension: a service becomes `https://<name>.<namespace>.svc[:port]/<path>`, a url must
 * be https. An override (`--extension NAME=URL`, http allowed for a local extension) changes
 * where we connect, never whom we verify: the certificate must still name CAPI's host, so a
 * port-forward to a Service is checked as the controller would check it.
 */
export function endpointFor(
  config: ExtensionConfig,
  override: string | undefined,
): { ok: true; endpoint: Endpoint } | { ok: false; error: string } {
  let capi: URL | undefined;
  const svc = config.clientConfig.service;
  if (svc) {
    capi = new URL(`https://${svc.name}.${svc.namespace}.svc${svc.port !== undefined ? `:${svc.port}` : ''}`);
    if (svc.path) capi.pathname = svc.path;
  } else if (config.clientConfig.url) {
    try {
      capi = new URL(config.clientConfig.url);
    } catch {
      return {
        ok: false,
        error: `failed to compute URL: failed to parse url from clientConfig: ${JSON.stringify(config.clientConfig.url)}`,
      };
    }
    if (capi.protocol !== 'https:')
      return {
        ok: false,
        error: `failed to compute URL: expected https scheme, got ${capi.protocol.replace(/:$/, '')}`,
      };
  }
  if (override !== undefined) {
    let url: URL;
    try {
      url = new URL(override);
    } catch {
      return { ok: false, error: `failed to compute URL: --extension ${config.name}=${override} is not a URL` };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return {
        ok: false,
        error: `failed to compute URL: --extension ${config.name}: expected an https or http URL, got ${url.protocol}`,
      };
    return { ok: true, endpoint: { url, verifyHost: capi?.hostname ?? url.hostname } };
  }
  if (!capi)
    return { ok: false, error: 'failed to compute URL: at least one of service and url should be defined in config' };
  return { ok: true, endpoint: { url: capi, verifyHost: capi.hostname } };
}

/** The full URL of a hook call: the handler path joined to the base path (Go's path.Join), `?timeout=`. */
export function callUrl(base: URL, hookPath: string, timeoutSeconds: number): string {
  const u = new URL(base.href);
  const joined = `${u.pathname.replace(/\/+$/, '')}${hookPath}`.replace(/\/{2,}/g, '/');
  u.pathname = joined;
  if (timeoutSeconds > 0) u.search = `timeout=${timeoutSeconds}s`;
  return u.href;
}

/** Every hook in CAPI's Runtime SDK catalog (api/runtime/hooks/v1alpha1, `RegisterHook`). */
const CATALOG = new Set([
  'Discovery',
  'CanUpdateMachine',
  'CanUpdateMachineSet',
  'UpdateMachine',
  'BeforeClusterCreate',
  'AfterControlPlaneInitialized',
  'BeforeClusterUpgrade',
  'BeforeControlPlaneUpgrade',
  'AfterControlPlaneUpgrade',
  'BeforeWorkersUpgrade',
  'AfterWorkersUpgrade',
  'AfterClusterUpgrade',
  'BeforeClusterDelete',
  'GeneratePatches',
  'ValidateTopology',
  'DiscoverVariables',
  'GenerateUpgradePlan',
]);

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * defaultAndValidateDiscoveryResponse + Discover: defaults (timeout 10, Fail), every problem
 * of the answer (aggregated like kerrors), then the registrations `<handler>.<extensionconfig>`.
 */
export function registrationsFrom(
  config: ExtensionConfig,
  response: DiscoveryResponse,
): { ok: true; registrations: Registration[] } | { ok: false; error: string } {
  const errs: string[] = [];
  const seen = new Set<string>();
  const handlers = response.handlers.map((h: DiscoveredHandler) => ({
    ...h,
    timeoutSeconds: h.timeoutSeconds ?? 10,
    failurePolicy: h.failurePolicy ?? 'Fail',
  }));
  for (const h of handlers) {
    if (seen.has(h.name)) errs.push(`duplicate name for handler ${h.name} found`);
    seen.add(h.name);
    if (h.name.length > 63 || !DNS1123_LABEL.test(h.name)) {
      errs.push(
        `handler name ${h.name} is not valid: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]`,
      );
    }
    if (h.timeoutSeconds < 0 || h.timeoutSeconds > 30)
      errs.push(`handler ${h.name} timeoutSeconds ${h.timeoutSeconds} must be between 0 and 30`);
    if (h.failurePolicy !== 'Fail' && h.failurePolicy !== 'Ignore')
      errs.push(`handler ${h.name} failurePolicy ${h.failurePolicy} must equal "Ignore" or "Fail"`);
    const [group, version, extra] = h.requestHook.apiVersion.split('/');
    if (extra !== undefined || (version === undefined && h.requestHook.apiVersion !== '')) {
      errs.push(
        `handler ${h.name} requestHook APIVersion ${h.requestHook.apiVersion} is not valid: unexpected GroupVersion string: ${h.requestHook.apiVersion}`,
      );
    } else if (`${group}/${version}` !== HOOKS_API_VERSION || !CATALOG.has(h.requestHook.hook)) {
      errs.push(
        `handler ${h.name} requestHook ${h.requestHook.apiVersion}/${h.requestHook.hook} is not in the Runtime SDK catalog`,
      );
    }
  }
  if (errs.length > 0)
    return {
      ok: false,
      error: `failed to validate discovery response: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`,
    };
  return {
    ok: true,
    registrations: handlers.map((h) => ({
      name: `${h.name}.${config.name}`,
      handler: h.name,
      hook: h.requestHook.hook,
      apiVersion: h.requestHook.apiVersion,
      timeoutSeconds: h.timeoutSeconds,
      failurePolicy: h.failurePolicy as 'Ignore' | 'Fail',
      config,
    })),
  };
}

/**
 * matchNamespace: an empty selector matches everything; otherwise the Namespace object (from the
 * inputs: offline there is no API server to ask) must exist and its labels match.
 */
export function matchNamespace(
  selector: JsonObject | undefined,
  namespace: string,
  namespaces: ReadonlyMap<string, Record<string, string>>,
): { ok: true; matches: boolean } | { ok: false; error: string } {
  if (!selector || isEmptySelector(selector)) return { ok: true, matches: true };
  const labels = namespaces.get(namespace);
  if (!labels)
    return {
      ok: false,
      error: `failed to match namespace: failed to get namespace ${namespace}: give the Namespace object (with its labels) as an input`,
    };
  const m = matchesLabelSelector(selector, labels);
  return m.ok ? { ok: true, matches: m.matches } : m;
}

const isEmptySelector = (s: JsonObject): boolean =>
  Object.keys(asObject(s.matchLabels) ?? {}).length === 0 &&
  (!Array.isArray(s.matchExpressions) || s.matchExpressions.length === 0);

/** Labels of the Namespace objects among the inputs, by name. */
export function namespaceLabels(objects: readonly JsonObject[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const o of objects) {
    if (o.kind !== 'Namespace' || o.apiVersion !== 'v1') continue;
    const meta = asObject(o.metadata);
    const name = asString(meta?.name);
    if (!name) continue;
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(asObject(meta?.labels) ?? {})) if (typeof v === 'string') labels[k] = v;
    out.set(name, labels);
  }
  return out;
}
