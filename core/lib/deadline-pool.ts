import { Worker } from 'node:worker_threads';
import { RateLimitError } from '../errors/index.ts';

/**
 * Where a pool's workers come from: a module URL, or bundled code run with `eval: true` (the
 * single executable has no files; server-bin/cli.ts).
 */
export type WorkerSource = { url: URL } | { code: string };

/** Settings of a DeadlinePool. */
export interface DeadlinePoolOptions {
  /** Worker threads, each running one job at a time. */
  size: number;
  /** Deadline of one job in ms, from the moment a worker takes it; on overrun the worker is terminated (and replaced). */
  deadlineMs: number;
  source: WorkerSource;
  /** Jobs allowed to wait, all tenants together; one more is refused with a retryable 429. */
  maxQueued: number;
  /** Jobs one tenant may have waiting; one more is refused with a 429 (a flood by one project leaves room for others). */
  maxQueuedPerTenant: number;
}

/** How a job ended: the worker's answer, or `timeout` when the deadline passed and the worker was stopped. */
export type JobOutcome<O> = { ok: true; value: O } | { ok: false; error: string; timeout?: boolean };

interface Job<I, O> {
  input: I;
  tenant: string;
  resolve(outcome: JobOutcome<O>): void;
}
interface Slot<I, O> {
  worker: Worker;
  ready: boolean;
  job: Job<I, O> | null;
  timer: NodeJS.Timeout | null;
  id: number;
}

/**
 * A small pool of worker threads that runs untrusted-cost work (a tenant's expression) off the
 * request thread with a hard deadline per job: a job that overruns has its worker terminated, so
 * a stuck evaluation cannot hold the event loop or a worker. Jobs run first come, first served;
 * the queue is bounded overall and per tenant.
 *
 * The worker protocol: the worker posts `{ready: true}` once loaded, then answers each
 * `{id, input}` with `{id, ok: true, value}` or `{id, ok: false, error}`.
 */
export class DeadlinePool<I, O> {
  readonly #options: DeadlinePoolOptions;
  readonly #slots: Array<Slot<I, O>> = [];
  readonly #queue: Array<Job<I, O>> = [];
  #nextId = 1;
  #closed = false;

  constructor(options: DeadlinePoolOptions) {
    this.#options = options;
  }

  /**
   * Runs `input` on a worker. Never rejects for the job's own failure: the outcome says so.
   *
   * @throws RateLimitError (429, `Retry-After` 1 s) at once when the queue, or this tenant's share, is full.
   */
  run(input: I, tenant: string): Promise<JobOutcome<O>> {
    if (this.#closed) return Promise.resolve({ ok: false, error: 'The worker pool is shut down' });
    const waiting = this.#queue.length;
    if (waiting >= this.#options.maxQueued || this.#queue.filter((j) => j.tenant === tenant).length >= this.#options.maxQueuedPerTenant) {
      return Promise.reject(new RateLimitError('The server is busy. Please try again in a moment.', 1));
    }
    return new Promise((resolve) => {
      this.#queue.push({ input, tenant, resolve });
      const idle = this.#slots.filter((s) => !s.job).length;
      if (idle === 0 && this.#slots.length < this.#options.size) this.#spawn();
      this.#pump();
    });
  }

  /** Terminates every worker; waiting and running jobs end with an error outcome. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.resolve({ ok: false, error: 'The worker pool is shut down' });
    await Promise.all(
      this.#slots.splice(0).map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.resolve({ ok: false, error: 'The worker pool is shut down' });
        return slot.worker.terminate();
      }),
    );
  }

  #spawn(): void {
    const source = this.#options.source;
    const worker = 'code' in source ? new Worker(source.code, { eval: true }) : new Worker(source.url);
    const slot: Slot<I, O> = { worker, ready: false, job: null, timer: null, id: 0 };
    this.#slots.push(slot);
    worker.on('message', (message: { ready?: boolean; id?: number; ok?: boolean; value?: O; error?: string }) => {
      if (message.ready) {
        slot.ready = true;
        this.#pump();
        if (!slot.job) worker.unref();
        return;
      }
      if (!slot.job || message.id !== slot.id) return;
      const job = this.#release(slot);
      job.resolve(message.ok ? { ok: true, value: message.value as O } : { ok: false, error: message.error ?? 'failed' });
      this.#pump();
    });
    worker.on('error', (error) => this.#drop(slot, { ok: false, error: `The worker failed: ${error.message}` }));
    worker.on('exit', () => this.#drop(slot, { ok: false, error: 'The worker stopped unexpectedly' }));
  }

  #release(slot: Slot<I, O>): Job<I, O> {
    const job = slot.job!;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    return job;
  }

  /** Removes a worker (overrun, crash); its job ends with `outcome`; a replacement starts if work waits. */
  #drop(slot: Slot<I, O>, outcome: JobOutcome<O>): void {
    const index = this.#slots.indexOf(slot);
    if (index < 0) return;
    this.#slots.splice(index, 1);
    if (slot.job) this.#release(slot).resolve(outcome);
    void slot.worker.terminate();
    if (this.#closed || this.#queue.length === 0) return;
    // A worker that never became ready would fail every job: end them instead of looping.
    if (!slot.ready) {
      for (const job of this.#queue.splice(0)) job.resolve(outcome);
      return;
    }
    this.#spawn();
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (!slot.ready || slot.job || this.#queue.length === 0) continue;
      const job = this.#queue.shift()!;
      slot.job = job;
      slot.id = this.#nextId++;
      const deadline = this.#options.deadlineMs;
      slot.timer = setTimeout(
        () => this.#drop(slot, { ok: false, error: `took longer than ${deadline} ms and was stopped`, timeout: true }),
        deadline,
      );
      slot.timer.unref();
      slot.worker.ref();
      slot.worker.postMessage({ id: slot.id, input: job.input });
    }
  }
}

/**
 * The worker module `name` beside `base` (an `import.meta.url`). Run from TypeScript sources
 * (tsx), a worker thread does not inherit the main thread's loader on Node 20, so the worker
 * first registers tsx's loader itself (when it can be found) and then imports the entry.
 */
export function workerBeside(base: string, name: string): WorkerSource {
  const typescript = base.endsWith('.ts');
  const entry = new URL(`./${name}${typescript ? '.ts' : '.js'}`, base);
  if (!typescript) return { url: entry };
  let loader: string | null = null;
  try {
    loader = import.meta.resolve('tsx/esm/api');
  } catch {
    /* another TypeScript loader */
  }
  const register = loader ? `import(${JSON.stringify(loader)}).then((tsx) => tsx.register())` : 'Promise.resolve()';
  return { code: `${register}.then(() => import(${JSON.stringify(entry.href)}))` };
}
