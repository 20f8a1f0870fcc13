// How long-running work (seed, import, sync, reindex) tells its operator how far it is. The
// service code only counts; the CLI decides how and how often to show it (cli/progress-reporter.ts).

export interface Progress {
  /** A new phase of the work; `total` when known (records), null otherwise. */
  phase(name: string, total: number | null): void;
  /** `n` more records done in the current phase. */
  advance(n: number): void;
}

export const NO_PROGRESS: Progress = { phase: () => undefined, advance: () => undefined };
