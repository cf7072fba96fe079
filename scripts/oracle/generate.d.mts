export interface GeneratedKind {
  group: string;
  version: string;
  kind: string;
  creates: string;
  contract: string;
}
export const KINDS: Record<'infraCluster' | 'controlPlane' | 'legacyControlPlane' | 'machine' | 'machinePool' | 'bootstrap', GeneratedKind>;
export function generatedCrds(): Record<string, unknown>[];
