/**
 * What the SDK takes from its surroundings, injectable so tests run without real waiting or
 * network: time, sleeping, timers, randomness (retry jitter) and `fetch`.
 */
export interface SdkEnvironment {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  /** Runs `fn` after `ms` milliseconds; returns a cancel function. */
  setTimer(fn: () => void, ms: number): () => void;
  /** Runs `fn` every `ms` milliseconds; returns a cancel function. */
  setInterval(fn: () => void, ms: number): () => void;
  /** Uniform in [0, 1). */
  random(): number;
  fetch: typeof fetch;
}

/** The real environment: `Date.now`, `setTimeout`, `Math.random`, global `fetch`. */
export function defaultEnvironment(): SdkEnvironment {
  return {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    setTimer: (fn, ms) => {
      const t = setTimeout(fn, ms);
      (t as { unref?: () => void }).unref?.();
      return () => clearTimeout(t);
    },
    setInterval: (fn, ms) => {
      const t = setInterval(fn, ms);
      (t as { unref?: () => void }).unref?.();
      return () => clearInterval(t);
    },
    random: () => Math.random(),
    fetch: (...args) => globalThis.fetch(...args),
  };
}

/**
 * A test environment with a manual clock: `sleep` records the delay, advances the clock and
 * resolves at once; timers fire when `advance(ms)` passes them. `sleeps` lists every sleep in ms.
 */
export function manualEnvironment(
  options: { start?: number; random?: () => number; fetch?: typeof fetch } = {},
): SdkEnvironment & { advance(ms: number): void; sleeps: number[] } {
  let t = options.start ?? 1_700_000_000_000;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void; every?: number }>();
  const sleeps: number[] = [];
  const env = {
    sleeps,
    now: () => t,
    sleep: (ms: number) => {
      sleeps.push(ms);
      env.advance(ms);
      return Promise.resolve();
    },
    setTimer: (fn: () => void, ms: number) => {
      const id = nextId++;
      timers.set(id, { at: t + ms, fn });
      return () => {
        timers.delete(id);
      };
    },
    setInterval: (fn: () => void, ms: number) => {
      const id = nextId++;
      timers.set(id, { at: t + ms, fn, every: ms });
      return () => {
        timers.delete(id);
      };
    },
    random: options.random ?? (() => 0.5),
    fetch: options.fetch ?? (() => Promise.reject(new TypeError('no fetch in manualEnvironment'))),
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        let due: [number, { at: number; fn: () => void; every?: number }] | undefined;
        for (const entry of timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        const [id, timer] = due;
        t = Math.max(t, timer.at);
        if (timer.every) timer.at += timer.every;
        else timers.delete(id);
        timer.fn();
      }
      t = end;
    },
  };
  return env;
}
