import { defineOperation } from '../operations/define.ts';
import { applyOverridePatch, loadConfigLayers, saveConfigLevel } from '../config/index.ts';
import { deleteBotChallengeSecret } from './queries.ts';
import { TurnstileSettingsOutput, turnstileSettingsAnswer } from './turnstile-settings-output.ts';

/**
 * Turns Cloudflare Turnstile off for the project branch (admin access; Gatehouse extension,
 * issue 27): removes the site key from the environment-level config override and deletes the
 * sealed secret key. A site key set at another level stays (the answer shows it).
 */
export const deleteTurnstileSettings = defineOperation({
  id: 'botChallenge.deleteTurnstile',
  method: 'DELETE',
  path: '/internal/bot-challenge/turnstile',
  summary: "Remove the project's Cloudflare Turnstile keys.",
  access: ['admin'],
  input: {},
  errors: [],
  output: TurnstileSettingsOutput,
  async run(ctx) {
    const { id: projectId } = ctx.auth.project;
    const branchId = ctx.auth.branchId;
    await ctx.transaction(async (tx) => {
      await deleteBotChallengeSecret(tx.db, projectId, branchId);
      const layers = await loadConfigLayers(tx.db, projectId, branchId, ctx.now);
      await saveConfigLevel(tx.db, {
        projectId,
        branchId,
        level: 'environment',
        override: applyOverridePatch(layers.environment, { 'botChallenge.turnstileSiteKey': null }),
        now: ctx.now,
      });
    });
    return turnstileSettingsAnswer(ctx.db, projectId, branchId, ctx.now);
  },
});
