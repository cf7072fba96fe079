/**
 * The CAPI releases whose rules the renderer follows (`--capi-version`, function config
 * `capiVersion`) and their feature gates (`--feature-gates`, `featureGates`). Every rule that
 * differs between releases takes a `CapiProfile` from here; this module owns the list, the
 * default and the gate defaults.
 */

/** Supported minor releases. 1.15 is a preview profile: v1.14's rules plus what CAPI main (ae7ff04) changes; see the README. */
export const CAPI_VERSIONS = ['1.12', '1.13', '1.14', '1.15'] as const;
export type CapiVersion = (typeof CAPI_VERSIONS)[number];

/**
 * The newest GA release. v1.15 GA is due 2026-12-08: move this to '1.15' once it is out and its
 * module is served, so the renderer follows what new installations run.
 */
export const DEFAULT_CAPI_VERSION: CapiVersion = '1.14';

/** CAPI's gate names (feature/feature.go; the same ten in v1.12.10, v1.13.6, v1.14.2 and main at ae7ff04). */
export const FEATURE_GATES = [
  'ClusterTopology',
  'InPlaceUpdates',
  'KubeadmBootstrapFormatIgnition',
  'MachinePool',
  'MachineSetPreflightChecks',
  'MachineTaintPropagation',
  'MachineWaitForVolumeDetachConsiderVolumeAttachments',
  'PriorityQueue',
  'ReconcilerRateLimiting',
  'RuntimeSDK',
] as const;
export type FeatureGate = (typeof FEATURE_GATES)[number];
export type FeatureGates = Record<FeatureGate, boolean>;

/**
 * `defaultClusterAPIFeatureGates` of feature/feature.go at each release, except ClusterTopology:
 * the renderer renders managed topologies, so that gate is always on.
 */
const V1_12: FeatureGates = {
  ClusterTopology: true,
  InPlaceUpdates: false,
  KubeadmBootstrapFormatIgnition: false,
  MachinePool: true,
  MachineSetPreflightChecks: true,
  MachineTaintPropagation: false,
  MachineWaitForVolumeDetachConsiderVolumeAttachments: true,
  PriorityQueue: false,
  ReconcilerRateLimiting: false,
  RuntimeSDK: false,
};
/** v1.13.6 turned PriorityQueue and ReconcilerRateLimiting on (Beta); v1.14.2 and main keep them on. */
const V1_13: FeatureGates = { ...V1_12, PriorityQueue: true, ReconcilerRateLimiting: true };
const GATE_DEFAULTS: Record<CapiVersion, FeatureGates> = { '1.12': V1_12, '1.13': V1_13, '1.14': V1_13, '1.15': V1_13 };

/** The release and gates one run follows. */
export interface CapiProfile {
  version: CapiVersion;
  gates: FeatureGates;
}

export const isCapiVersion = (v: unknown): v is CapiVersion =>
  typeof v === 'string' && (CAPI_VERSIONS as readonly string[]).includes(v);
export const isFeatureGate = (name: string): name is FeatureGate => (FEATURE_GATES as readonly string[]).includes(name);

/** The profile of `version` with `overrides` (already checked names) over its gate defaults. */
export const capiProfile = (version: CapiVersion, overrides: Partial<FeatureGates> = {}): CapiProfile => ({
  version,
  gates: { ...GATE_DEFAULTS[version], ...overrides },
});

/** Whether the release is at least `minor` (both from CAPI_VERSIONS). */
export const atLeast = (profile: CapiProfile, minor: CapiVersion): boolean =>
  CAPI_VERSIONS.indexOf(profile.version) >= CAPI_VERSIONS.indexOf(minor);
