import * as v from 'valibot';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { component, NullableString } from '../operations/output.ts';
import { findBotChallengeSecret } from './queries.ts';
import { turnstileSiteKey } from './settings.ts';

/** A project branch's Turnstile settings as the dashboard sees them (never the secret key). */
export const TurnstileSettingsOutput = component(
  'TurnstileSettings',
  v.strictObject({
    site_key: v.pipe(NullableString, v.description('The Turnstile site key (public), or null.')),
    secret_key_hint: v.pipe(
      NullableString,
      v.description('The first two and last four characters of the stored secret key, or null when none is stored.'),
    ),
    enabled: v.pipe(v.boolean(), v.description('True when both keys are set: sign-up and sign-in then verify a bot challenge.')),
  }),
);

/** The settings answer of a project branch. */
export async function turnstileSettingsAnswer(
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
  now: number,
): Promise<v.InferOutput<typeof TurnstileSettingsOutput>> {
  const siteKey = await turnstileSiteKey(db, projectId, branchId, now);
  const hint = (await findBotChallengeSecret(db, projectId, branchId))?.turnstile_secret_hint ?? null;
  return { site_key: siteKey, secret_key_hint: hint, enabled: siteKey !== null && hint !== null };
}
