/** The process boundary every CLI command talks through, so commands stay testable. */
export interface CliIO {
  /** Reads all of standard input as UTF-8 text. */
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Exit codes shared by every command (KRM function conventions, krm-integration §1.3). */
export const ExitCode = {
  ok: 0,
  errorResults: 1,
  internal: 2,
  functionConfig: 3,
} as const;
