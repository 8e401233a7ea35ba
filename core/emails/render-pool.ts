import { Worker } from 'node:worker_threads';
import { KnownError, RateLimitError, type KnownErrorCode } from '../errors/index.ts';
import type { RenderInput, RenderedEmail } from './render-types.ts';
import { RENDER_TIME_LIMIT_MS } from './render-limits.ts';
import { cpuBudget } from '../lib/admission.ts';

/**
 * Where render workers come from: by default `render-worker.ts` beside this file (run through
 * the same loader as the main thread, e.g. tsx); the single executable, which has no files,
 * passes the bundled worker code (`{ code }`, run with `eval: true`; server-bin/sea).
 */
export type RenderWorkerSource = { url: URL } | { code: string };

/** Pool settings; see configureRenderPool. */
export interface RenderPoolOptions {
  /**
   * Worker threads, each rendering one email at a time; default the CPU budget (cores − 1,
   * shared among `--workers` processes: core/lib/admission.ts cpuBudget), at least 2: a built-in
   * email renders inside its caller's transaction, which stays open while the render waits.
   */
  size: number;
  /**
   * Hard deadline of one render in ms, from the moment a worker takes it; on overrun the worker
   * is terminated (and replaced) and the render fails with EMAIL_RENDERING_ERROR. Default: the
   * guest time limit plus 1 s, so it only fires when the guest's own interrupt could not.
   */
  hardDeadlineMs: number;
  source: RenderWorkerSource;
  /**
   * Renders allowed to wait for a worker, all tenants together (default DEFAULT_RENDER_MAX_QUEUED);
   * one more is refused at once with a retryable 429.
   */
  maxQueued?: number;
  /** Renders one tenant may have waiting (default DEFAULT_RENDER_MAX_QUEUED_PER_TENANT); one more is refused with a 429. */
  maxQueuedPerTenant?: number;
}

/** Default cap on renders waiting for a worker, all tenants together. */
export const DEFAULT_RENDER_MAX_QUEUED = 256;
/** Default cap on one tenant's renders waiting for a worker: a flood by one project leaves room for the others. */
export const DEFAULT_RENDER_MAX_QUEUED_PER_TENANT = 64;

interface Job {
  input: RenderInput;
  tenant: string;
  /** performance.now() when a worker took it. */
  started?: number;
  resolve(result: RenderedEmail): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  id: number;
}

function renderingError(message: string): KnownError {
  return new KnownError('EMAIL_RENDERING_ERROR', { error: message });
}

/**
 * A bounded pool of email render workers with a hard deadline per render. Jobs wait in one
 * queue; a free worker takes the oldest job of the tenant with the fewest renders running (ties:
 * the tenant served least recently), so a project that floods the pool with slow templates
 * does not queue ahead of other projects.
 * Workers are started on first use and keep the process alive only while they render.
 */
export class RenderPool {
  readonly #options: RenderPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  readonly #running = new Map<string, number>();
  /** Tenant → sequence number of its last started render (bounded: tenants with queued or running work only). */
  readonly #lastServed = new Map<string, number>();
  #served = 0;
  #nextId = 1;
  #closed = false;
  /** Exponentially weighted mean duration of a render in ms, for `Retry-After`. */
  #meanMs = 50;
  #refused = 0;

  constructor(options: RenderPoolOptions) {
    this.#options = options;
  }

  /** Renders waiting, running, and refused since start (admission; tests and /health). */
  stats(): { queued: number; running: number; refused: number } {
    return { queued: this.#queue.length, running: this.#slots.filter((s) => s.job).length, refused: this.#refused };
  }

  /**
   * Renders `input` on a worker.
   *
   * @throws KnownError EMAIL_RENDERING_ERROR (the render failed or overran)
   * @throws RateLimitError (429, `Retry-After`: the estimated time for the queue to drain) at
   *   once when `maxQueued` renders already wait, or `maxQueuedPerTenant` of this tenant's: the
   *   same bounded-queue refusal as core/lib/admission.ts, kept here because this queue is
   *   ordered fairly between tenants rather than first come, first served.
   */
  render(input: RenderInput, tenant: string): Promise<RenderedEmail> {
    if (this.#closed) return Promise.reject(renderingError('The email renderer is shut down'));
    const maxQueued = this.#options.maxQueued ?? DEFAULT_RENDER_MAX_QUEUED;
    const maxPerTenant = this.#options.maxQueuedPerTenant ?? DEFAULT_RENDER_MAX_QUEUED_PER_TENANT;
    // Workers without a job (ready or starting) and workers not started yet take queued jobs first.
    const free = this.#slots.filter((s) => !s.job).length + (this.#options.size - this.#slots.length);
    if (this.#queue.length - free >= maxQueued || this.#queue.filter((j) => j.tenant === tenant).length - free >= maxPerTenant) {
      this.#refused += 1;
      const ahead = this.#queue.length + this.#options.size;
      const retryAfter = Math.max(1, Math.ceil(((ahead / this.#options.size) * this.#meanMs) / 1000));
      return Promise.reject(new RateLimitError('The server is busy rendering emails. Please try again in a moment.', retryAfter));
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ input, tenant, resolve, reject });
      const idle = this.#slots.filter((s) => s.ready && !s.job).length;
      const starting = this.#slots.filter((s) => !s.ready).length;
      if (idle === 0 && this.#slots.length < this.#options.size && this.#queue.length > starting) this.#spawn();
      this.#pump();
    });
  }

  /** Terminates every worker; queued and running renders fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(renderingError('The email renderer is shut down'));
    await Promise.all(
      this.#slots.splice(0).map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.reject(renderingError('The email renderer is shut down'));
        return slot.worker.terminate();
      }),
    );
  }

  #spawn(): void {
    const source = this.#options.source;
    const worker = 'code' in source ? new Worker(source.code, { eval: true }) : new Worker(source.url);
    const slot: Slot = { worker, ready: false, job: null, timer: null, id: 0 };
    this.#slots.push(slot);
    worker.on(
      'message',
      (message: {
        ready?: boolean;
        message?: string;
        id?: number;
        ok?: boolean;
        result?: RenderedEmail;
        error?: { code?: KnownErrorCode; details?: Record<string, unknown>; message?: string };
      }) => {
        if (message.ready !== undefined) {
          if (!message.ready) {
            this.#fail(slot, `The email renderer could not start: ${message.message ?? ''}`);
            return;
          }
          slot.ready = true;
          this.#pump();
          if (!slot.job) worker.unref();
          return;
        }
        if (!slot.job || message.id !== slot.id) return;
        const job = this.#finish(slot);
        if (message.ok) job.resolve(message.result!);
        else if (message.error?.code) job.reject(new KnownError(message.error.code, message.error.details ?? {}));
        else job.reject(renderingError(message.error?.message ?? 'Rendering failed'));
        this.#pump();
      },
    );
    worker.on('error', (error) => this.#fail(slot, `The email renderer failed: ${error.message}`));
    worker.on('exit', () => this.#fail(slot, 'The email renderer stopped unexpectedly'));
    // A worker keeps the process alive only while it has work (spawned: a job is waiting).
    worker.ref();
  }

  /** Frees a slot's job (and its tenant's running count) and returns it. */
  #finish(slot: Slot): Job {
    const job = slot.job!;
    if (job.started !== undefined) this.#meanMs = this.#meanMs * 0.9 + (performance.now() - job.started) * 0.1;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    const n = (this.#running.get(job.tenant) ?? 1) - 1;
    if (n > 0) this.#running.set(job.tenant, n);
    else this.#running.delete(job.tenant);
    if (n <= 0 && !this.#queue.some((j) => j.tenant === job.tenant)) this.#lastServed.delete(job.tenant);
    return job;
  }

  /** Drops a dead or overrunning worker: its job fails with `message`, a new worker is started if work waits. */
  #fail(slot: Slot, message: string): void {
    const index = this.#slots.indexOf(slot);
    if (index < 0) return;
    this.#slots.splice(index, 1);
    if (slot.job) this.#finish(slot).reject(renderingError(message));
    void slot.worker.terminate();
    if (!this.#closed && this.#queue.length > 0) {
      // A worker that cannot start would fail every job: fail them instead of looping.
      if (!slot.ready) {
        for (const job of this.#queue.splice(0)) job.reject(renderingError(message));
        return;
      }
      this.#spawn();
    }
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (!slot.ready || slot.job || this.#queue.length === 0) continue;
      // Fewest renders running first, then the tenant served least recently, then the oldest job.
      const rank = (j: Job): [number, number] => [this.#running.get(j.tenant) ?? 0, this.#lastServed.get(j.tenant) ?? -1];
      let best = 0;
      for (let i = 1; i < this.#queue.length; i++) {
        const [running, served] = rank(this.#queue[i]!);
        const [bestRunning, bestServed] = rank(this.#queue[best]!);
        if (running < bestRunning || (running === bestRunning && served < bestServed)) best = i;
      }
      const job = this.#queue.splice(best, 1)[0]!;
      this.#lastServed.set(job.tenant, this.#served++);
      this.#running.set(job.tenant, (this.#running.get(job.tenant) ?? 0) + 1);
      job.started = performance.now();
      slot.job = job;
      slot.id = this.#nextId++;
      slot.timer = setTimeout(() => {
        this.#fail(slot, `Rendering took longer than ${this.#options.hardDeadlineMs} ms and was stopped`);
      }, this.#options.hardDeadlineMs);
      slot.timer.unref();
      slot.worker.ref();
      slot.worker.postMessage({ id: slot.id, input: job.input });
    }
  }
}

/**
 * The worker beside this file. Run from TypeScript sources (tsx), a worker thread does not
 * inherit the main thread's loader on Node 20, so the worker first registers tsx's loader itself
 * (when it can be found) and then imports the entry.
 */
function defaultWorkerSource(): RenderWorkerSource {
  const entry = new URL(`./render-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return { url: entry };
  let loader: string | null = null;
  try {
    loader = import.meta.resolve('tsx/esm/api');
  } catch {
    /* another TypeScript loader */
  }
  const register = loader ? `import(${JSON.stringify(loader)}).then((tsx) => tsx.register())` : 'Promise.resolve()';
  return { code: `${register}.then(() => import(${JSON.stringify(entry.href)}))` };
}

let configured: Partial<RenderPoolOptions> = {};
let pool: RenderPool | null = null;

/**
 * Sets the render pool's size, deadline or worker source (before the first render; a running
 * pool is replaced). The single executable calls it with the embedded worker code.
 */
export function configureRenderPool(options: Partial<RenderPoolOptions>): void {
  configured = { ...configured, ...options };
  const old = pool;
  pool = null;
  void old?.close();
}

/** The process-wide render pool, created on first use. */
export function renderPool(): RenderPool {
  pool ??= new RenderPool({
    size: configured.size ?? Math.max(2, cpuBudget()),
    // The guest's limit, plus react-email's render of the tree (Tailwind compiles new classes).
    hardDeadlineMs: configured.hardDeadlineMs ?? RENDER_TIME_LIMIT_MS + 3000,
    source: configured.source ?? defaultWorkerSource(),
    maxQueued: configured.maxQueued,
    maxQueuedPerTenant: configured.maxQueuedPerTenant,
  });
  return pool;
}
