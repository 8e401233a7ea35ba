import { defineOperation } from '../operations/define.ts';
import { countSentSince } from './queries.ts';
import { DeliveryInfoOutput } from './outputs.ts';

const HOUR = 3_600_000;

/**
 * Sending statistics in upstream's shape. Gatehouse sends through the project's own SMTP server
 * and learns of no bounces or spam reports, so those are 0, and it imposes no sending capacity of
 * its own: `rate_per_second` is reported as 0 with no boost or penalty (docs/compatibility.md).
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
    const windows = { hour: HOUR, day: 24 * HOUR, week: 7 * 24 * HOUR, month: 30 * 24 * HOUR } as const;
    const stats = Object.fromEntries(
      await Promise.all(
        Object.entries(windows).map(
          async ([key, span]) =>
            [
              key,
              {
                sent: await countSentSince(ctx.db, projectId, ctx.now - span),
                bounced: 0,
                marked_as_spam: 0,
              },
            ] as const,
        ),
      ),
    );
    return {
      stats,
      capacity: { rate_per_second: 0, boost_multiplier: 1, penalty_factor: 1, is_boost_active: false, boost_expires_at: null },
    };
  },
});
