import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UrlOutput } from './outputs.ts';

/**
 * The SDK's `setupPayments` (admin access): upstream starts Stripe Connect onboarding and answers
 * its link; Gatehouse connects the project's own account instead, so the answered `url` is the dashboard page where the keys are entered.
 *
 * @see upstream `internal/payments/setup/route.ts`
 */
export const setupPayments = defineOperation({
  id: 'payments.setup',
  method: 'POST',
  path: '/internal/payments/setup',
  summary: "Where to connect the project's Stripe account.",
  access: ['admin'],
  input: { body: v.optional(v.strictObject({})) },
  output: UrlOutput,
  errors: [],
  async run(ctx) {
    return { url: `${ctx.runtime.baseUrl}/projects/${encodeURIComponent(ctx.auth.project.id)}/payments` };
  },
});
