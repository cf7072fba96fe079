/**
 * SIGINT and SIGTERM while a run holds a lock on a directory: the run's temporary files go and
 * the lock is released before the process exits with the conventional status (128 + the signal's
 * number: 130, 143). Outside those moments the signals keep their default action, so an
 * interrupted render stops at once even in the middle of a long synchronous stage.
 */

/** The exit status of a process ended by each signal, as shells report it. */
const SIGNAL_STATUS = { SIGINT: 130, SIGTERM: 143 } as const;
type HandledSignal = keyof typeof SIGNAL_STATUS;

const cleanups = new Set<() => void>();

function onSignal(signal: HandledSignal): void {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // Best effort: what one cleanup leaves, the next run sweeps.
    }
  }
  process.exit(SIGNAL_STATUS[signal]);
}

const signals = Object.keys(SIGNAL_STATUS) as HandledSignal[];

/**
 * Runs `cleanup` (synchronous: the process exits right after) if the process is interrupted
 * before the returned function is called.
 */
export function cleanUpOnInterrupt(cleanup: () => void): () => void {
  if (cleanups.size === 0) for (const s of signals) process.on(s, onSignal);
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) for (const s of signals) process.off(s, onSignal);
  };
}
