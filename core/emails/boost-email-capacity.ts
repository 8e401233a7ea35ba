import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { findCapacityBoost, saveCapacityBoost } from './queries.ts';
import { CapacityBoostOutput } from './outputs.ts';
import { BOOST_DURATION_MS } from './capacity.ts';

/**
 * Multiplies the project's sending capacity by 4 for 4 hours (upstream `emails/capacity-boost`);
 * `GET /emails/delivery-info` shows it. A boost still active is 409
 * `EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE` with its end.
 */
export const boostEmailCapacity = defineOperation({
  id: 'emails.boostCapacity',
  method: 'POST',
  path: '/emails/capacity-boost',
  summary: 'Activate the email capacity boost (4x for 4 hours).',
  access: ['server', 'admin'],
  input: {},
  errors: ['EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE'],
  output: CapacityBoostOutput,
  async run(ctx) {
    const projectId = ctx.auth.project.id;
    return ctx.transaction(async (tx) => {
      const current = await findCapacityBoost(tx.db, projectId);
      if (current !== null && current > tx.now) {
        throw new KnownError('EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE', { expires_at: new Date(current).toISOString() });
      }
      const expiresAt = tx.now + BOOST_DURATION_MS;
      await saveCapacityBoost(tx.db, projectId, expiresAt);
      return { expires_at: new Date(expiresAt).toISOString() };
    });
  },
});
