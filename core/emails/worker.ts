import type { Transporter } from 'nodemailer';
import type { Runtime } from '../runtime.ts';
import { findProject } from '../projects/index.ts';
import { findDueIds, releaseLease } from '../storage/leased-rows.ts';
import { claimEmail, pruneEmails, type EmailRow } from './queries.ts';
import { openContent } from './sealed-body.ts';
import { describeSmtpError, openTransport, routeFor } from './transport.ts';

/** Attempts before an email is marked `failed` for good. */
export const MAX_DELIVERY_ATTEMPTS = 8;
/** How long a worker holds an email it is sending, in ms; another process may take it after. */
export const DELIVERY_LEASE_MS = 60_000;

/** Emails are deleted this long after creation once delivered, failed or kept in the outbox, in ms (30 days). */
export const EMAIL_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** The sealed live content of an email (its code) is dropped this long after creation, in ms (7 days, the code lifetime). */
export const SEALED_CONTENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How often one worker applies the retention rules, in real ms. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Backoff before attempt `n + 1` after `n` failed attempts, in ms: 1 s, 2 s, 4 s … capped at 1 h. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failedAttempts - 1), 3_600_000);
}

interface Worker {
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  again: boolean;
  stopped: boolean;
  transports: Map<string, Transporter>;
  /** Real time of the last retention pass (0: none yet). */
  prunedAt: number;
}

const workers = new WeakMap<Runtime, Worker>();

/**
 * Starts the delivery worker of `runtime`: it polls the outbox every `runtime.emailPollIntervalMs`
 * (real time) and right after any commit that queued an email. Pending rows left by a crashed
 * process are picked up on start. Due times and leases use the injected clock.
 */
export function startEmailWorker(runtime: Runtime): void {
  if (workers.has(runtime)) return;
  const worker: Worker = { timer: null, running: null, again: false, stopped: false, transports: new Map(), prunedAt: 0 };
  workers.set(runtime, worker);
  const tick = () => {
    if (worker.stopped) return;
    kickEmailWorker(runtime);
    worker.timer = setTimeout(tick, runtime.emailPollIntervalMs);
    worker.timer.unref();
  };
  tick();
}

/** Stops the worker, waits for the delivery in progress, and closes its SMTP connections. */
export async function stopEmailWorker(runtime: Runtime): Promise<void> {
  const worker = workers.get(runtime);
  if (!worker) return;
  worker.stopped = true;
  if (worker.timer) clearTimeout(worker.timer);
  await worker.running;
  for (const t of worker.transports.values()) t.close();
  workers.delete(runtime);
}

/** Asks the worker to deliver due emails now (coalesced with a run in progress). */
export function kickEmailWorker(runtime: Runtime): void {
  const worker = workers.get(runtime);
  if (!worker || worker.stopped) return;
  if (worker.running) {
    worker.again = true;
    return;
  }
  worker.running = (async () => {
    do {
      worker.again = false;
      try {
        await deliverDueEmails(runtime, worker);
      } catch (error) {
        runtime.log.error({ err: String(error) }, 'email delivery run failed');
      }
    } while (worker.again && !worker.stopped);
    worker.running = null;
  })();
}

/**
 * The outbox retention rules, at the injected clock's now: sealed live content (codes) is dropped
 * 7 days after creation, delivered / failed / outbox-only emails are deleted after 30 days. The
 * worker applies them once an hour.
 */
export async function applyEmailRetention(runtime: Runtime): Promise<void> {
  const now = runtime.clock.now();
  await pruneEmails(runtime.db, now - SEALED_CONTENT_RETENTION_MS, now - EMAIL_RETENTION_MS);
}

/** Waits until the worker is idle (tests and shutdown). */
export async function emailWorkerIdle(runtime: Runtime): Promise<void> {
  while (workers.get(runtime)?.running) await workers.get(runtime)!.running;
}

async function deliverDueEmails(runtime: Runtime, worker: Worker): Promise<void> {
  if (Date.now() - worker.prunedAt >= PRUNE_EVERY_MS) {
    worker.prunedAt = Date.now();
    await applyEmailRetention(runtime);
  }
  for (;;) {
    const now = runtime.clock.now();
    const ids = await findDueIds(runtime.db, 'emails', now, 20);
    if (ids.length === 0) return;
    let claimedAny = false;
    for (const id of ids) {
      if (worker.stopped) return;
      const lockedUntil = runtime.clock.now() + DELIVERY_LEASE_MS;
      const row = await claimEmail(runtime.db, id, runtime.clock.now(), lockedUntil);
      if (!row) continue;
      claimedAny = true;
      await deliverOne(runtime, worker, row, lockedUntil);
    }
    if (!claimedAny) return;
  }
}

async function deliverOne(runtime: Runtime, worker: Worker, row: EmailRow, lockedUntil: number): Promise<void> {
  const attempts = Number(row.attempt_count) + 1;
  try {
    const project = await findProject(runtime.db, row.project_id);
    if (!project) throw new Error('project no longer exists');
    const route = routeFor(project.config.emailConfig, runtime.smtpUrl, project.displayName);
    if (route.kind === 'outbox') {
      await releaseLease(runtime.db, 'emails', row.id, lockedUntil, { status: 'outbox', transport: 'outbox', attempt_count: attempts });
      return;
    }
    let transport = worker.transports.get(route.key);
    if (!transport) {
      transport = openTransport(route.options, { allowPrivate: !route.tenantChosen || runtime.environment !== 'production' });
      worker.transports.set(route.key, transport);
    }
    // An email carrying a code is sent from its sealed live content; only the redacted copy stays.
    const live = row.sealed_body === null ? row : openContent(runtime, row.id, row.sealed_body);
    if (!live) throw new Error('the sealed content of this email could not be opened (was the server secret changed?)');
    await transport.sendMail({
      from: route.from,
      to: row.to_email,
      subject: live.subject,
      html: live.html,
      ...(live.text ? { text: live.text } : {}),
      ...(row.headers ? { headers: JSON.parse(row.headers) as Record<string, string> } : {}),
    });
    await releaseLease(runtime.db, 'emails', row.id, lockedUntil, {
      status: 'sent',
      sent_at: runtime.clock.now(),
      attempt_count: attempts,
      error: null,
      sealed_body: null,
    });
  } catch (error) {
    // Stored on the row (visible to the project's admins): fixed words, never the server's text.
    const message = describeSmtpError(error);
    const failed = attempts >= MAX_DELIVERY_ATTEMPTS;
    runtime.log.warn(
      { email_id: row.id, attempt: attempts, err: error instanceof Error ? error.message : String(error) },
      failed ? 'email delivery failed for good' : 'email delivery failed; will retry',
    );
    await releaseLease(runtime.db, 'emails', row.id, lockedUntil, {
      status: failed ? 'failed' : 'pending',
      attempt_count: attempts,
      error: message,
      next_attempt_at: runtime.clock.now() + retryDelayMs(attempts),
    });
  }
}
