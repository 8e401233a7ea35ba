import { defineOperation } from '../operations/define.ts';
import { TurnstileSettingsOutput, turnstileSettingsAnswer } from './turnstile-settings-output.ts';

/**
 * Reads the project branch's Cloudflare Turnstile settings (admin access; Gatehouse extension,
 * issue 27): the site key, a hint of the stored secret key, and whether bot challenges are on.
 */
export const getTurnstileSettings = defineOperation({
  id: 'botChallenge.getTurnstile',
  method: 'GET',
  path: '/internal/bot-challenge/turnstile',
  summary: "Read the project's Cloudflare Turnstile settings.",
  access: ['admin'],
  input: {},
  errors: [],
  output: TurnstileSettingsOutput,
  async run(ctx) {
    return turnstileSettingsAnswer(ctx.db, ctx.auth.project.id, ctx.auth.branchId, ctx.now);
  },
});
