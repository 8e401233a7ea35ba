import { defineOperation } from '../operations/define.ts';
import { countSentSince, findCapacityBoost } from './queries.ts';
import { DeliveryInfoOutput } from './outputs.ts';
import { emailCapacity, type WindowStats } from './capacity.ts';

const HOUR = 3_600_000;
const WINDOWS = { hour: HOUR, day: 24 * HOUR, week: 7 * 24 * HOUR, month: 30 * 24 * HOUR } as const;

/**
 * Sending statistics and capacity in upstream's shape (`emails/delivery-info`). Gatehouse sends
 * through SMTP servers and learns of no bounces or spam reports, so those are 0 and the penalty
 * stays 1; the capacity is upstream's formula (see docs/compatibility.md), with the project's
 * boost (`POST /emails/capacity-boost`) when one is active.
 */
export const getDeliveryInfo = defineOperation({
  id: 'emails.deliveryInfo',
  method: 'GET',
  path: '/emails/delivery-info',
  summary: 'Email delivery statistics of the project.',
  access: ['server', 'admin'],
  input: {},
  errors: [],
  output: DeliveryInfoOutput,
  async run(ctx) {
    const projectId = ctx.auth.project.id;
    const entries = await Promise.all(
      (Object.keys(WINDOWS) as Array<keyof typeof WINDOWS>).map(
        async (key) =>
          [key, { sent: await countSentSince(ctx.db, projectId, ctx.now - WINDOWS[key]), bounced: 0, marked_as_spam: 0 }] as const,
      ),
    );
    const stats = Object.fromEntries(entries) as Record<keyof typeof WINDOWS, WindowStats>;
    const boost = await findCapacityBoost(ctx.db, projectId);
    return { stats, capacity: emailCapacity(ctx.runtime, stats, boost, ctx.now) };
  },
});
