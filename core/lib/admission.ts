import { availableParallelism } from 'node:os';
import { RateLimitError } from '../errors/index.ts';

/** Settings of one admission queue; see AdmissionQueue. */
export interface AdmissionOptions {
  /** Jobs running at once (each takes about one core while it runs). At least 1. */
  concurrency: number;
  /** Jobs allowed to wait beyond the running ones; one more is refused. 0 refuses all waiting. */
  maxQueued: number;
  /** What the work is, for the refusal's message ("password hashing"). */
  label: string;
}

/** A place held in an admission queue; see AdmissionQueue.reserve. */
export interface AdmissionReservation {
  /** Marks the place used; false when it already was (internal to `run`). */
  take(): boolean;
  /** Gives the place back unless `run` used it; safe to call more than once. */
  release(): void;
}

/** Counters of an admission queue, for /health and tests. */
export interface AdmissionStats {
  running: number;
  queued: number;
  /** Jobs refused since start because the queue was full. */
  refused: number;
  /** Jobs completed since start (successfully or not). */
  completed: number;
}

/**
 * The cores CPU-heavy work may take in this process: all but one, at least one, divided among
 * `processes` processes of one machine (`--workers`), at least one each. With 2 cores and one
 * process: 1, leaving the other core to the event loop's request path.
 *
 * @param cores cores of the machine (`os.availableParallelism()` by default)
 */
export function cpuBudget(processes = 1, cores = availableParallelism()): number {
  return Math.max(1, Math.floor(Math.max(1, cores - 1) / Math.max(1, processes)));
}

/**
 * A bounded queue for CPU-heavy work (argon2 hashing, email rendering): at most `concurrency`
 * jobs run at once, up to `maxQueued` more wait in arrival order, and any beyond that are refused
 * at once with a retryable 429 (RateLimitError, upstream's rate-limit shape with `Retry-After`,
 * which the official SDK waits and retries) instead of stalling every other request behind a
 * thread pool that has taken all cores.
 *
 * `Retry-After` is the estimated time for the queue to drain: queued and running jobs divided by
 * the concurrency, times the mean duration of recent jobs, rounded up to whole seconds (at least 1).
 */
export class AdmissionQueue {
  #options: AdmissionOptions;
  #running = 0;
  #reserved = 0;
  readonly #waiting: Array<() => void> = [];
  #refused = 0;
  #completed = 0;
  /** Exponentially weighted mean duration of a job in ms (starts at a typical argon2id hash). */
  #meanMs = 40;

  constructor(options: AdmissionOptions) {
    this.#options = {
      ...options,
      concurrency: Math.max(1, Math.floor(options.concurrency)),
      maxQueued: Math.max(0, Math.floor(options.maxQueued)),
    };
  }

  /** Changes the limits; jobs already admitted keep running. */
  configure(options: Partial<AdmissionOptions>): void {
    this.#options = { ...this.#options, ...options };
    this.#options.concurrency = Math.max(1, Math.floor(this.#options.concurrency));
    this.#options.maxQueued = Math.max(0, Math.floor(this.#options.maxQueued));
    this.#pump();
  }

  /** The current limits. */
  get options(): Readonly<AdmissionOptions> {
    return this.#options;
  }

  /** Running, queued, refused and completed counts. */
  stats(): AdmissionStats {
    return { running: this.#running, queued: this.#waiting.length, refused: this.#refused, completed: this.#completed };
  }

  /**
   * Runs `work` when a slot is free (in arrival order), or on the place `reservation` holds.
   *
   * @throws RateLimitError (429, `Retry-After`) at once when the queue is full (never with a
   *   reservation: its place was checked when it was taken).
   */
  async run<T>(work: () => Promise<T>, reservation?: AdmissionReservation): Promise<T> {
    if (reservation) {
      if (!reservation.take()) throw new Error('admission reservation used twice');
      this.#reserved -= 1;
    } else {
      this.assertRoom();
    }
    if (this.#running >= this.#options.concurrency || this.#waiting.length > 0) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running += 1;
    }
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.#meanMs = this.#meanMs * 0.9 + (performance.now() - started) * 0.1;
      this.#completed += 1;
      this.#running -= 1;
      this.#pump();
    }
  }

  /**
   * Holds a place in the queue for a job the caller will run after some other work, so the caller
   * can fail before it records anything (sign-in reserves before it counts an attempt). Pass it to
   * `run`, or `release` it when the job is not needed.
   *
   * @throws RateLimitError (429, `Retry-After`) when the queue is full.
   */
  reserve(): AdmissionReservation {
    this.assertRoom();
    this.#reserved += 1;
    let used = false;
    return {
      take: () => (used ? false : (used = true)),
      release: () => {
        if (!used) {
          used = true;
          this.#reserved -= 1;
        }
      },
    };
  }

  /** @throws RateLimitError (429, `Retry-After`) when running, waiting and reserved jobs fill the queue. */
  assertRoom(): void {
    if (this.#running + this.#waiting.length + this.#reserved < this.#options.concurrency + this.#options.maxQueued) return;
    this.#refused += 1;
    throw new RateLimitError(`The server is busy with ${this.#options.label}. Please try again in a moment.`, this.#retryAfterSeconds());
  }

  #pump(): void {
    while (this.#running < this.#options.concurrency && this.#waiting.length > 0) {
      this.#running += 1;
      this.#waiting.shift()!();
    }
  }

  #retryAfterSeconds(): number {
    const ahead = this.#waiting.length + this.#running + this.#reserved;
    return Math.max(1, Math.ceil(((ahead / this.#options.concurrency) * this.#meanMs) / 1000));
  }
}
