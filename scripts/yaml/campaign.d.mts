/** Types of scripts/yaml/campaign.mjs (plain ESM shared by test/yaml/ and scripts/yaml/oracle-campaign.mjs). */
import type { Json, JsonObject } from '../../src/core/model.js';

export interface Product {
  readYamlStream(
    text: string,
    path: string,
  ): { ok: true; items: { value: JsonObject }[]; results: { message: string }[] } | { ok: false; message: string };
  parseTemplateOutput(text: string): { ok: true; value: Json } | { ok: false; error: string };
  emitYaml(value: JsonObject): string;
  goMarshal(value: Json): string;
  krmFunction(text: string): Promise<{ code: number; out: string }>;
}
/** Answer lines of `k8s-yaml-oracle -batch -all`, one per text (undefined when unknown). */
export type Oracle = (texts: string[]) => (string | undefined)[];
export interface Disagreement {
  where: string;
  scalar: string;
  oracle?: string;
  ours?: string;
  problem?: string;
}
export interface CampaignResult {
  counts: { scalars: number; comparisons: number; exact: number; bothReject: number };
  disagreements: Disagreement[];
}
export function readingTexts(s: string): Record<string, string>;
export function passThroughList(scalars: string[]): string;
export function parseLossless(text: string): unknown;
export function compareJson(oracle: unknown, ours: unknown): 'exact' | 'different';
export function parseAnswer(line: string): { value: string; type: string } | { error: string };
export function binaryOracle(path: string): Oracle;
export function runCampaign(options: { scalars: string[]; product: Product; oracle: Oracle }): Promise<CampaignResult>;
export function goldenKey(text: string): string;
export function recordedOracle(jsonl: string): Oracle;
