/**
 * Settings of a database health monitor, in ms. `intervalMs` is the pause between two probes
 * while the database answers (0 turns the monitor off); `deadlineMs` is how long one probe may
 * take, retries included, before the database is marked down.
 */
export interface HealthCheckOptions {
  intervalMs: number;
  deadlineMs: number;
}

/** The defaults of HealthCheckOptions (GATEHOUSE_DATABASE_HEALTH_INTERVAL / _DEADLINE). */
export const HEALTH_CHECK_DEFAULTS: HealthCheckOptions = { intervalMs: 250, deadlineMs: 1000 };

/** Pause between two attempts of one probe after a failed attempt, in ms. */
const RETRY_PAUSE_MS = 50;

/** The `code` of the error a monitor fails waiters with while the database is down. */
const DOWN_CODE = 'GATEHOUSE_DATABASE_DOWN';

/**
 * True for the error a health monitor fails requests with while the database is marked down;
 * adapters count it as unavailable (DATABASE_UNAVAILABLE, 503).
 */
export function isDatabaseDown(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DOWN_CODE;
}

/** What a monitor probes with: one round trip on a connection of its own. */
export interface HealthProbe {
  /** One round trip (`select 1`, a write-lock test); rejects when the database cannot answer. */
  attempt(): Promise<void>;
  /** Drops the probe's connection (a stalled attempt, a failed one): the next attempt opens a new one. */
  abandon(): void;
  /** Closes the probe's connection for good. */
  close(): void;
}

/**
 * The state a health monitor keeps: whether the database answered its last probe, and the
 * waits that must end the moment it stops answering.
 */
export interface HealthMonitor {
  /** False from a missed deadline until the next successful probe. */
  readonly up: boolean;
  /** Throws the down error when the database is marked down. */
  assertUp(): void;
  /**
   * `work`, or a rejection with the down error as soon as the database is marked down, whichever
   * comes first. A value `work` yields after losing the race is handed to `dispose` (a pool
   * client to give back).
   */
  race<T>(work: Promise<T>, dispose?: (value: T) => void): Promise<T>;
  /** Calls `listener` with the down error each time the database is marked down; returns the unsubscribe. */
  onDown(listener: (error: Error) => void): () => void;
  /** Stops probing and closes the probe's connection. */
  stop(): void;
}

/**
 * Watches a database with periodic probes on a connection of its own, so a stall is seen
 * without any request holding a pooled connection: every `intervalMs` a probe runs (one
 * round trip, retried after a fast failure such as a reset connection); when no attempt has
 * succeeded `deadlineMs` after the probe began, the database is marked down and every waiter
 * registered through `race` / `onDown` is released with the down error ({@link isDatabaseDown},
 * its message naming the last probe failure). While down, probes
 * follow one another without a pause, so the first one that answers marks it up again.
 *
 * Detection takes at most `intervalMs + deadlineMs` after the stall begins (1.25 s by default);
 * recovery at most one attempt's round trip after the database answers again.
 * @see docs/operations.md "Database faults"
 */
export function createHealthMonitor(probe: HealthProbe, options: HealthCheckOptions): HealthMonitor {
  const listeners = new Set<(error: Error) => void>();
  let error: Error | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const markDown = (reason: string) => {
    const wasUp = !error;
    error = Object.assign(new Error(`Database health check failed: ${reason}`), { code: DOWN_CODE });
    if (wasUp) for (const listener of [...listeners]) listener(error);
  };

  /** Null when an attempt succeeded before `deadline` (a performance.now() time), else why not. */
  const probeOnce = async (deadline: number): Promise<string | null> => {
    let last = 'no answer';
    while (!stopped) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      let expiry: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        probe.attempt().then(
          () => null,
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        ),
        // The verdict waits for the I/O phase after the timer (setImmediate): when the event loop
        // was busy past the deadline, an answer already received still counts.
        new Promise<string>((resolve) => {
          expiry = setTimeout(() => setImmediate(resolve, `no answer within ${options.deadlineMs} ms`), left);
        }),
      ]);
      clearTimeout(expiry);
      if (outcome === null) return null;
      last = outcome;
      probe.abandon();
      const pause = Math.min(RETRY_PAUSE_MS, deadline - performance.now());
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
    return last;
  };

  const loop = async () => {
    if (stopped) return;
    const failure = await probeOnce(performance.now() + options.deadlineMs);
    if (stopped) return;
    if (failure === null) error = undefined;
    else markDown(failure);
    timer = setTimeout(() => void loop(), error ? 0 : options.intervalMs);
    timer.unref();
  };
  if (options.intervalMs > 0) {
    timer = setTimeout(() => void loop(), 0);
    timer.unref();
  }

  const onDown = (listener: (error: Error) => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    get up() {
      return !error;
    },
    assertUp() {
      if (error) throw error;
    },
    onDown,
    race(work, dispose) {
      if (error) {
        void work.then(
          (value) => dispose?.(value),
          () => {},
        );
        return Promise.reject(error);
      }
      return new Promise((resolve, reject) => {
        let lost = false;
        const unsubscribe = onDown((e) => {
          lost = true;
          reject(e);
        });
        work.then(
          (value) => {
            unsubscribe();
            if (lost) dispose?.(value);
            else resolve(value);
          },
          (e: unknown) => {
            unsubscribe();
            reject(e);
          },
        );
      });
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      listeners.clear();
      probe.close();
    },
  };
}
