import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { applyOverridePatch, loadConfigLayers, saveConfigLevel } from '../config/index.ts';
import { findBotChallengeSecret } from './queries.ts';
import { saveTurnstileSecret } from './settings.ts';
import { TurnstileSettingsOutput, turnstileSettingsAnswer } from './turnstile-settings-output.ts';

/**
 * Turns Cloudflare Turnstile on for the project branch (admin access; Gatehouse extension, issue
 * 27): writes the site key into the environment-level config override
 * (`botChallenge.turnstileSiteKey`) and stores the secret key sealed, in one transaction.
 * Leaving `secret_key` out keeps the stored one (a first save needs it: SCHEMA_ERROR otherwise).
 * Both keys come from the Cloudflare dashboard (Turnstile → widget); Cloudflare's test keys work.
 */
export const setTurnstileSettings = defineOperation({
  id: 'botChallenge.setTurnstile',
  method: 'PUT',
  path: '/internal/bot-challenge/turnstile',
  summary: "Set the project's Cloudflare Turnstile site key and secret key.",
  access: ['admin'],
  input: {
    body: v.strictObject({
      site_key: v.pipe(v.string(), v.regex(/^[0-9A-Za-z_-]{1,128}$/, 'must be a Turnstile site key (letters, digits, _ and -)')),
      secret_key: v.optional(
        v.pipe(v.string(), v.regex(/^[\x21-\x7e]{8,256}$/, 'must be a Turnstile secret key (8 to 256 printable characters, no spaces)')),
      ),
    }),
  },
  errors: ['SCHEMA_ERROR'],
  output: TurnstileSettingsOutput,
  async run(ctx, { body }) {
    const { id: projectId } = ctx.auth.project;
    const branchId = ctx.auth.branchId;
    await ctx.transaction(async (tx) => {
      if (body.secret_key === undefined && !(await findBotChallengeSecret(tx.db, projectId, branchId))) {
        throw new KnownError('SCHEMA_ERROR', { message: 'secret_key is required: no Turnstile secret key is stored yet.' });
      }
      if (body.secret_key !== undefined) await saveTurnstileSecret(ctx.runtime, tx.db, projectId, branchId, body.secret_key, ctx.now);
      const layers = await loadConfigLayers(tx.db, projectId, branchId, ctx.now);
      await saveConfigLevel(tx.db, {
        projectId,
        branchId,
        level: 'environment',
        override: applyOverridePatch(layers.environment, { 'botChallenge.turnstileSiteKey': body.site_key }),
        now: ctx.now,
      });
    });
    return turnstileSettingsAnswer(ctx.db, projectId, branchId, ctx.now);
  },
});
