/**
 * Bot challenges (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/turnstile.tsx): Cloudflare Turnstile
 * verified on password sign-up and sign-in, OTP send and OAuth authorize, its result handed to the
 * sign-up rules as `turnstileResult`. Per project branch, off until a site key is set.
 */
export { getTurnstileSettings } from './get-turnstile-settings.ts';
export { setTurnstileSettings } from './set-turnstile-settings.ts';
export { deleteTurnstileSettings } from './delete-turnstile-settings.ts';
export {
  assessBotChallenge,
  assertSignUpChallengePassed,
  takesPartInChallenge,
  BotChallengeBodyEntries,
  BotChallengeQueryEntries,
  BOT_CHALLENGE_ERRORS,
  NO_BOT_CHALLENGE,
  type BotChallengeAssessment,
} from './assess.ts';
export { type TurnstileResult } from './siteverify.ts';
