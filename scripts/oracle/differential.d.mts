/** Types of scripts/oracle/differential.mjs. */
import type { Files, OracleAnswer, ProductRender } from './compare.mjs';
export const FIXTURE_DIR: string;
export const RECORDED_DIR: string;
export const EXPECTED_DIR: string;
export const CI_SAMPLE: { seed: number; cases: number };
export function fixtureNames(): string[];
export function fixturePath(name: string): string;
export function differenceLines(answer: OracleAnswer, product: ProductRender, context: { minor: string; fixture?: string }): string[];
export function writeSample(dir: string): Files;
export function askOracleForSample(minor: string, files: Files): OracleAnswer;
export function recordedFixture(minor: string, name: string): string;
export function recordedSample(minor: string): string;
export function forRecording(answer: OracleAnswer): OracleAnswer;
export function readJSON(path: string): any;
export function expectedFor(minor: string): { capi: string; fixtures: Record<string, string[]>; hand: Record<string, string[]>; sample: string[] } | undefined;
export function handCaseNames(): string[];
export function writeHandCases(dir: string): Map<string, Files>;
export function recordedHandCase(minor: string, name: string): string;
