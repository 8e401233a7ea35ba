import { DeadlinePool, workerBeside, type DeadlinePoolOptions, type JobOutcome } from '../lib/deadline-pool.ts';

/**
 * Deadline of one condition's evaluation, in ms. A condition within the
 * save-time bound (core/lib/cel-bounds.ts) evaluates in well under a millisecond; this only stops rules
 * stored before the bound existed, or a cost the estimate missed.
 */
export const CEL_EVALUATION_DEADLINE_MS = 250;

type Input = { condition: string; variables: Record<string, unknown> };

let configured: Partial<DeadlinePoolOptions> = {};
let pool: DeadlinePool<Input, boolean> | null = null;

/**
 * Sets the condition pool's size, deadline or worker source (a running pool is replaced). The
 * single executable passes the embedded worker bundle (server-bin/cli.ts); tests shorten the deadline.
 */
export function configureCelPool(options: Partial<DeadlinePoolOptions>): void {
  configured = { ...configured, ...options };
  const old = pool;
  pool = null;
  void old?.close();
}

function celPool(): DeadlinePool<Input, boolean> {
  pool ??= new DeadlinePool<Input, boolean>({
    size: configured.size ?? 2,
    deadlineMs: configured.deadlineMs ?? CEL_EVALUATION_DEADLINE_MS,
    source: configured.source ?? workerBeside(import.meta.url, 'cel-worker'),
    maxQueued: configured.maxQueued ?? 256,
    maxQueuedPerTenant: configured.maxQueuedPerTenant ?? 32,
  });
  return pool;
}

/**
 * Evaluates one condition on a worker thread under the deadline: `{ok: true, value}` where
 * value is true when the condition is exactly `true`; `{ok: false, error}` for a parse or
 * evaluation error or an overrun (`timeout`).
 *
 * @param tenant the project id (bounds one project's share of the queue).
 * @throws RateLimitError (429) when the queue is full.
 */
export function evaluateOnWorker(condition: string, variables: Record<string, unknown>, tenant: string): Promise<JobOutcome<boolean>> {
  return celPool().run({ condition, variables }, tenant);
}
