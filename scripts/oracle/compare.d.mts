/** Types of scripts/oracle/compare.mjs (the parts the tests use). */
export interface ProductRender {
  code: number;
  items: Record<string, any>[];
  results: Record<string, any>[];
  stderr: string;
}
export interface OracleAnswer {
  oracle: { capi: string };
  admission: Record<string, any>[];
  clusterClasses: Record<string, any>[];
  clusters: Record<string, any>[];
}
export interface Difference {
  kind: string;
  subject: string;
  [detail: string]: unknown;
}
export interface Files {
  paths: string[];
  crds?: string;
  previous?: string;
  input?: string;
}
export function renderWithProduct(minor: string, files: Files & { featureGates?: string }): ProductRender;
export function askOracle(minor: string, files: Files & { featureGates?: string }): OracleAnswer;
export function compareAnswers(answer: OracleAnswer, product: ProductRender): { counts: Record<string, number>; differences: Difference[] };
export function signatureOf(d: Difference): string;
export function namesAgree(oracleName: string, productName: string, random?: number[]): boolean;
export function canonicalJSON(value: unknown): string;
