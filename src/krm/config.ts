/**
 * Function configuration: the typed `RenderClusterClass` kind, or a `v1/ConfigMap` whose `data`
 * carries the same fields as strings (what `kpt fn eval -- key=value` and Kptfile `configMap:`
 * produce). Unknown keys and bad values are configuration errors (exit 3), each naming its field.
 */
import type { Json, JsonObject } from '../core/model.js';
import { closest, closestMatches, didYouMean } from '../core/suggest.js';
import { isObject, jsonText } from '../core/json.js';
import {
  CAPI_VERSIONS,
  DEFAULT_CAPI_VERSION,
  FEATURE_GATES,
  capiProfile,
  isCapiVersion,
  isFeatureGate,
  type CapiProfile,
  type CapiVersion,
  type FeatureGates,
} from '../core/capi-release.js';

const CONFIG_API_VERSION = 'fn.render-clusterclass.dev/v1alpha1';
const CONFIG_KIND = 'RenderClusterClass';

/** Each field's allowed values, where they are a fixed set (also offered by shell completion). */
export const MODES = ['expand', 'preview', 'validate', 'convert'] as const;
export const FAIL_ON = ['error', 'warning'] as const;
export const UPGRADE_POLICIES = ['control-plane-first', 'all-at-once'] as const;

type OutputMode = (typeof MODES)[number];
export type ContractVersion = 'v1beta1' | 'v1beta2';

export interface RenderConfig {
  /**
   * expand: classic Cluster + rendered objects; preview: add rendered objects as local-config;
   * validate: results only; convert: the inputs moved to v1beta2 (src/convert), nothing rendered.
   */
  mode: OutputMode;
  /** Keep the ClusterClass and its templates in the output (expand mode). */
  keepClassInputs: boolean;
  /** API version of generated CAPI objects: follow the input Cluster, or force one. */
  outputApiVersion: 'auto' | ContractVersion;
  /** Folder (relative to the package) for rendered files: `<outputDir>/<namespace>/<cluster>.yaml`. */
  outputDir: string;
  /** Render classes with external (Runtime SDK) patches by skipping those patches, with a warning. */
  skipExternalPatches: boolean;
  /** Control-plane contract per `group/version/Kind` (CAPI internal/contract/version.go `GetContractVersionForVersion`); falls back to CRD labels, then the version heuristic. */
  contractVersions: Record<string, ContractVersion>;
  /** Lowest result severity that makes the run fail (exit 1). */
  failOn: 'error' | 'warning';
  /** For CI gates: every warning is reported as an error (and fails the run). */
  strict: boolean;
  /** How a topology version change reaches the objects when the current state is known (CAPI exp/topology/desiredstate/upgrade_plan.go `ComputeUpgradePlan`). */
  upgrade: UpgradePolicy;
  /** Namespace of input objects that do not set one. */
  defaultNamespace: string;
  /** Write a provenance report (where every rendered field comes from) next to each rendered file. */
  provenance: boolean;
  /**
   * Reuse an unchanged Cluster's earlier output instead of rendering it again (pipeline/reuse.ts).
   * Unset: off for the KRM function (its marks are annotations on every object), on for
   * `render -o DIR` (its marks live in DIR's outputs list).
   */
  reuse?: boolean;
  /** An `info` result for every rendered Cluster, instead of the one summary of the run (pipeline/report.ts). */
  reportEachCluster: boolean;
  /** Render only the Clusters of shard I of N (`I/N`, 0-based): a stable hash of namespace/name. */
  shard?: { index: number; count: number };
  /** A file or directory of ExtensionConfig objects (Runtime SDK extensions to call). */
  extensions?: string;
  /** Where to reach an ExtensionConfig instead of its clientConfig (`NAME: URL`). */
  extensionURLs: Record<string, string>;
  /** Write every extension answer to this directory (one file per request). */
  recordExtensions?: string;
  /** Answer extension calls from this directory only (no network). */
  replayExtensions?: string;
  /** The CAPI minor release whose rules the render follows (core/capi-release.ts). */
  capiVersion: CapiVersion;
  /** Feature gates set on top of that release's defaults. */
  featureGates: Partial<FeatureGates>;
  /**
   * `--format kustomize`: the most objects handed to kustomize (0: no limit). kustomize's time
   * grows with the square of the objects it holds (README "kustomize"): past this, the plugin
   * fails at once with the alternative instead of kustomize running for hours.
   */
  kustomizeMaxObjects: number;
}

/** The release and gates a run follows. */
export const capiProfileOf = (config: Pick<RenderConfig, 'capiVersion' | 'featureGates'>): CapiProfile =>
  capiProfile(config.capiVersion, config.featureGates);

/**
 * The config a run follows once its inputs are known. ExtensionConfigs (among the inputs or given
 * with --extensions), recorded answers and skipExternalPatches say that the management cluster runs
 * Runtime Extensions, which CAPI does only with the RuntimeSDK gate on (its ExtensionConfig webhook
 * refuses ExtensionConfigs while the gate is off, core/webhooks/admission/extensionconfig.go
 * `ValidateCreate`): they turn the gate on, unless it is set explicitly.
 */
export function withImpliedGates(config: RenderConfig, extensionConfigs: boolean): RenderConfig {
  if (config.featureGates.RuntimeSDK !== undefined || !(extensionConfigs || config.skipExternalPatches)) return config;
  return { ...config, featureGates: { ...config.featureGates, RuntimeSDK: true } };
}

export const DEFAULT_CONFIG: RenderConfig = {
  mode: 'expand',
  keepClassInputs: true,
  outputApiVersion: 'auto',
  outputDir: 'rendered',
  skipExternalPatches: false,
  contractVersions: {},
  failOn: 'error',
  strict: false,
  upgrade: 'control-plane-first',
  defaultNamespace: 'default',
  provenance: false,
  reportEachCluster: false,
  extensionURLs: {},
  capiVersion: DEFAULT_CAPI_VERSION,
  featureGates: {},
  kustomizeMaxObjects: 5000,
};

/** A failure names the offending field (`data.mode`, `spec`, `kind`; absent when the config as a whole is wrong). */
export type ConfigOutcome = { ok: true; config: RenderConfig } | { ok: false; message: string; field?: string };

/**
 * Sets one field; `fromString`: the value is ConfigMap data or a flag's text; `fromPackage`: it
 * comes from a function config object (a package's, or a `--config` file) rather than a flag.
 */
type Setter = (cfg: RenderConfig, value: unknown, fromString: boolean, fromPackage: boolean) => string | undefined;

/** Whether a path from a package stays inside it: relative, without `..` (links are refused where it is written, safefs.ts). */
const insidePackage = (v: string): boolean => !v.startsWith('/') && !v.split('/').includes('..');

const oneOf =
  <K extends keyof RenderConfig>(key: K, allowed: readonly string[]): Setter =>
  (cfg, v) => {
    if (typeof v !== 'string' || !allowed.includes(v)) return `${key} must be one of ${allowed.join(', ')}`;
    (cfg as unknown as Record<string, unknown>)[key] = v;
    return undefined;
  };

const bool =
  (key: 'keepClassInputs' | 'skipExternalPatches' | 'provenance' | 'reuse' | 'reportEachCluster' | 'strict'): Setter =>
  (cfg, v, fromString) => {
    const b = fromString && typeof v === 'string' ? (v === 'true' ? true : v === 'false' ? false : undefined) : v;
    if (typeof b !== 'boolean') return `${key} must be true or false`;
    cfg[key] = b;
    return undefined;
  };

const nonEmptyString =
  (key: 'outputDir' | 'defaultNamespace'): Setter =>
  (cfg, v) => {
    if (typeof v !== 'string' || v === '') return `${key} must be a non-empty string`;
    if (key === 'outputDir' && !insidePackage(v)) return 'outputDir must stay inside the package';
    cfg[key] = v;
    return undefined;
  };

/** `key=value,...` as [key, value] pairs (value undefined without `=`), or a typed map's entries. */
function pairsOf(v: string | Record<string, unknown>): [string, unknown][] {
  if (typeof v !== 'string') return Object.entries(v);
  return v
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((s) => {
      const i = s.indexOf('=');
      return i < 0 ? [s.trim(), undefined] : [s.slice(0, i).trim(), s.slice(i + 1).trim()];
    });
}

/** `a/v/Kind=v1beta1,b/v/Kind=v1beta2` (ConfigMap) or a map (typed config). */
const contractVersions: Setter = (cfg, v) => {
  if (typeof v !== 'string' && !isObject(v))
    return 'contractVersions must be a map of group/version/Kind to v1beta1|v1beta2';
  const out: Record<string, ContractVersion> = {};
  for (const [k, c] of pairsOf(v)) {
    if (k.split('/').length !== 3) return `contractVersions key ${shown(k)} must be group/version/Kind`;
    if (c !== 'v1beta1' && c !== 'v1beta2') return `contractVersions[${shown(k)}] must be v1beta1 or v1beta2`;
    out[k] = c;
  }
  cfg.contractVersions = out;
  return undefined;
};

const path =
  (key: 'extensions' | 'recordExtensions' | 'replayExtensions', flag: string): Setter =>
  (cfg, v, _fromString, fromPackage) => {
    if (typeof v !== 'string' || v === '') return `${key} must be a path`;
    if (fromPackage && !insidePackage(v))
      return `${key} must stay inside the package (a relative path without ..); a path anywhere else is given on the command line (${flag})`;
    cfg[key] = v;
    return undefined;
  };

/** `name=https://...,other=https://...` (ConfigMap, `--extension`) or a map (typed config). */
const extensionURLs: Setter = (cfg, v) => {
  if (typeof v !== 'string' && !isObject(v)) return 'extensionURLs must be a map of ExtensionConfig name to URL';
  const out: Record<string, string> = {};
  for (const [k, url] of pairsOf(v)) {
    if (k === '' || typeof url !== 'string' || !/^https?:\/\//.test(url))
      return `extensionURLs entry "${k}" must be NAME=https://HOST:PORT[/PATH]`;
    out[k] = url;
  }
  cfg.extensionURLs = { ...cfg.extensionURLs, ...out };
  return undefined;
};

const capiVersion: Setter = (cfg, v) => {
  if (!isCapiVersion(v))
    return `capiVersion ${shown(String(v))} is not supported; supported CAPI versions: ${CAPI_VERSIONS.join(', ')}`;
  cfg.capiVersion = v;
  return undefined;
};

/** `Name=true,Other=false` (ConfigMap, `--feature-gates`, as CAPI's flag) or a map of booleans (typed config). */
const featureGates: Setter = (cfg, v, fromString) => {
  if (typeof v !== 'string' && !isObject(v))
    return 'featureGates must be Name=true|false,... or a map of gate name to boolean';
  const out: Partial<FeatureGates> = {};
  for (const [name, raw] of pairsOf(v)) {
    if (!isFeatureGate(name)) return `unknown feature gate ${shown(name)}; known gates: ${FEATURE_GATES.join(', ')}`;
    const on =
      fromString || typeof raw === 'string' ? (raw === 'true' ? true : raw === 'false' ? false : undefined) : raw;
    if (typeof on !== 'boolean') return `feature gate ${name} must be true or false`;
    if (name === 'ClusterTopology' && !on)
      return 'ClusterTopology cannot be turned off: the renderer renders managed topologies, which need it';
    out[name] = on;
  }
  cfg.featureGates = { ...cfg.featureGates, ...out };
  return undefined;
};

const kustomizeMaxObjects: Setter = (cfg, v, fromString) => {
  const n = fromString && typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    return 'kustomizeMaxObjects must be a whole number (0: no limit)';
  cfg.kustomizeMaxObjects = n;
  return undefined;
};

const shard: Setter = (cfg, v) => {
  const m = typeof v === 'string' ? /^(\d+)\/(\d+)$/.exec(v) : null;
  if (!m) return 'shard must be I/N with 0 <= I < N';
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index >= count) return 'shard must be I/N with 0 <= I < N';
  cfg.shard = { index, count };
  return undefined;
};

const SETTERS: Record<string, Setter> = {
  mode: oneOf('mode', MODES),
  keepClassInputs: bool('keepClassInputs'),
  outputApiVersion: oneOf('outputApiVersion', ['auto', 'v1beta1', 'v1beta2']),
  outputDir: nonEmptyString('outputDir'),
  skipExternalPatches: bool('skipExternalPatches'),
  contractVersions,
  failOn: oneOf('failOn', FAIL_ON),
  strict: bool('strict'),
  upgrade: oneOf('upgrade', UPGRADE_POLICIES),
  defaultNamespace: nonEmptyString('defaultNamespace'),
  shard,
  provenance: bool('provenance'),
  reuse: bool('reuse'),
  reportEachCluster: bool('reportEachCluster'),
  extensions: path('extensions', '--extensions'),
  extensionURLs,
  recordExtensions: path('recordExtensions', '--record-extensions'),
  replayExtensions: path('replayExtensions', '--replay-extensions'),
  capiVersion,
  featureGates,
  kustomizeMaxObjects,
};

/** A key as messages quote it: a hostile 20 MiB key must not become a 20 MiB message. */
const shown = (key: string): string => JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);

const fieldPath = (prefix: string, key: string): string => (prefix ? `${prefix}.${key}` : key);

/**
 * Applies `key: value` settings onto a copy of `base`; `prefix` is where they live in the config
 * object (`data`, `spec`; '' for command-line flags), for the field path of an error. Paths in a
 * config object must stay inside the package; flags name any path the user chooses.
 */
export function applySettings(
  base: RenderConfig,
  settings: Record<string, unknown>,
  fromString: boolean,
  prefix = '',
): ConfigOutcome {
  const cfg: RenderConfig = {
    ...base,
    contractVersions: { ...base.contractVersions },
    extensionURLs: { ...base.extensionURLs },
    featureGates: { ...base.featureGates },
  };
  const keys = Object.keys(settings).sort();
  const setters = keys.map((key) => ({
    key,
    set: Object.prototype.hasOwnProperty.call(SETTERS, key) ? SETTERS[key] : undefined,
  }));
  const unknown = setters.filter((s) => s.set === undefined).map((s) => s.key);
  const [first] = unknown;
  if (first !== undefined) {
    const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more unknown fields)` : '';
    const near = closestMatches(first, Object.keys(SETTERS), 3);
    const fix = near.length > 0 ? didYouMean(near) : `known fields: ${Object.keys(SETTERS).join(', ')}`;
    return {
      ok: false,
      message: `unknown function config field ${shown(first)}${more}; ${fix}`,
      field: fieldPath(prefix, first),
    };
  }
  for (const { key, set } of setters) {
    const err = set?.(cfg, settings[key], fromString, prefix !== '');
    if (err) return { ok: false, message: `invalid function config: ${err}`, field: fieldPath(prefix, key) };
  }
  if (cfg.recordExtensions && cfg.replayExtensions)
    return { ok: false, message: 'invalid function config: recordExtensions and replayExtensions exclude each other' };
  return { ok: true, config: cfg };
}

/** What a JSON value is, for messages about wrong shapes. */
const shapeOf = (v: Json): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a map' : `a ${typeof v}`;

/** The top-level fields each config kind may have; anything else is rejected rather than ignored. */
const TOP_LEVEL = ['apiVersion', 'kind', 'metadata'];

function unknownTopLevel(fc: JsonObject, settingsKey: 'data' | 'spec'): ConfigOutcome | undefined {
  const known = [...TOP_LEVEL, settingsKey];
  const extra = Object.keys(fc).find((k) => !known.includes(k));
  if (extra !== undefined) {
    const near = closest(extra, known);
    return {
      ok: false,
      message: `unknown field ${shown(extra)} in the ${jsonText(fc.kind)} function config; ${near === undefined ? `its fields are ${known.join(', ')}` : didYouMean([near])}`,
      field: extra,
    };
  }
  if (fc.metadata !== undefined && fc.metadata !== null && !isObject(fc.metadata)) {
    return {
      ok: false,
      message: `invalid function config: metadata must be a map, not ${shapeOf(fc.metadata)}`,
      field: 'metadata',
    };
  }
  return undefined;
}

/** Reads the function config object (absent → defaults). */
export function parseFunctionConfig(fc: Json | undefined): ConfigOutcome {
  if (fc === undefined || fc === null) return { ok: true, config: DEFAULT_CONFIG };
  if (!isObject(fc)) {
    return {
      ok: false,
      message: `invalid function config: it must be a ${CONFIG_KIND} or a v1 ConfigMap, not ${shapeOf(fc)}`,
    };
  }
  if (fc.kind === 'ConfigMap' && fc.apiVersion === 'v1') {
    const problem = unknownTopLevel(fc, 'data');
    if (problem) return problem;
    if (fc.data !== undefined && fc.data !== null && !isObject(fc.data)) {
      return {
        ok: false,
        message: `invalid function config: data must be a map of strings, not ${shapeOf(fc.data)}`,
        field: 'data',
      };
    }
    const data = fc.data ?? {};
    // ConfigMap data holds strings; plain YAML scalars (`provenance: true`) are read as their text.
    const nonScalar = Object.entries(data).find(([, v]) => v === null || typeof v === 'object');
    if (nonScalar !== undefined) {
      const [key, value] = nonScalar;
      return {
        ok: false,
        message: `invalid function config: data[${shown(key)}] must be a string, not ${shapeOf(value)}`,
        field: `data.${key}`,
      };
    }
    return applySettings(DEFAULT_CONFIG, data, true, 'data');
  }
  if (fc.kind === CONFIG_KIND && fc.apiVersion === CONFIG_API_VERSION) {
    const problem = unknownTopLevel(fc, 'spec');
    if (problem) return problem;
    if (fc.spec !== undefined && fc.spec !== null && !isObject(fc.spec)) {
      return {
        ok: false,
        message: `invalid function config: spec must be an object, not ${shapeOf(fc.spec)}`,
        field: 'spec',
      };
    }
    return applySettings(DEFAULT_CONFIG, fc.spec ?? {}, false, 'spec');
  }
  return {
    ok: false,
    message: `unsupported function config ${shown(`${jsonText(fc.apiVersion)}/${jsonText(fc.kind)}`)}: use ${CONFIG_API_VERSION} ${CONFIG_KIND} or a v1 ConfigMap`,
    field: 'kind',
  };
}

export type UpgradePolicy = 'control-plane-first' | 'all-at-once';
