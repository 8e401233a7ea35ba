/**
 * A background loop that runs `work` every `intervalMs` (real time) and whenever it is kicked,
 * never twice at once: a kick during a run schedules one more run right after it. Used by the
 * outbox deliverers (emails, webhooks), whose `work` claims due rows with leases so several
 * processes can share one database.
 */
export interface PollingWorker {
  /** Runs `work` now, or once more after the run in progress. */
  kick(): void;
  /** Resolves when no run is in progress. */
  idle(): Promise<void>;
  /** Stops polling and waits for the run in progress. */
  stop(): Promise<void>;
}

/**
 * Starts a polling worker. Errors thrown by `work` go to `onError`; the loop keeps going.
 *
 * @param intervalMs polling period in ms; the timer is unref'd so it never keeps a process alive.
 */
export function startPollingWorker(
  work: (isStopped: () => boolean) => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
): PollingWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const isStopped = () => stopped;
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await work(isStopped);
        } catch (error) {
          onError(error);
        }
      } while (again && !stopped);
      running = null;
    })();
  };
  const tick = () => {
    if (stopped) return;
    kick();
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  tick();
  return {
    kick,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
