import { defineOperation } from '../operations/define.ts';
import { finishUserCreation, insertNewUser } from '../users/index.ts';
import { issueSession } from '../sessions/index.ts';
import { assertDashboardSignUpAllowed } from '../dashboard-signup/index.ts';
import { enforceRateLimit } from '../throttle/index.ts';
import { SignInOutput } from '../mfa/index.ts';

/**
 * Signs up an anonymous user, without a body (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/): `is_anonymous: true`, restricted with
 * `restricted_reason: {type: "anonymous"}`, and a personal team named "Personal Team" when
 * `create_team_on_sign_up` is set. Allowed even when sign-up is disabled. Its access token is
 * signed for the `<project>:anon` audience (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx), so later requests need
 * `allowAnonymousUser` in their credentials. A password sign-up with that token upgrades the user.
 * Throttled per client address (429 with `Retry-After`).
 */
export const signUpAnonymously = defineOperation({
  id: 'anonymous.signUp',
  method: 'POST',
  path: '/auth/anonymous/sign-up',
  summary: 'Create an anonymous user and a session for it.',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['SIGN_UP_NOT_ENABLED'],
  output: SignInOutput,
  async run(ctx) {
    const { project } = ctx.auth;
    await assertDashboardSignUpAllowed(ctx);
    await enforceRateLimit(ctx, 'anonymous_sign_up_per_address');
    return ctx.transaction(async (tx) => {
      const user = await finishUserCreation(tx, project, await insertNewUser(tx, project, { is_anonymous: true }));
      const session = await issueSession(tx, project, user);
      return { access_token: session.accessToken, refresh_token: session.refreshToken, user_id: user.id };
    });
  },
});
