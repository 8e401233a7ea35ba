import { KnownError } from '../errors/index.ts';
import { uuid } from '../lib/random.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { findUser, findUserByAuthEmail, type UserRow } from '../users/index.ts';
import { checkSignInAttempt, signUpUser } from '../sign-up-rules/index.ts';
import { assertDashboardSignUpAllowed } from '../dashboard-signup/index.ts';
import { findAccountByProviderAccount, insertAccount, listUserAccounts, type OAuthAccountRow } from './queries.ts';
import type { ProviderUserInfo } from './providers/types.ts';
import type { BotChallengeAssessment } from '../bot-challenge/index.ts';

/** The user a provider account signs in (or was linked to), and whether it was just created. */
export interface SettledAccount {
  user: UserRow;
  account: OAuthAccountRow;
  isNewUser: boolean;
}

async function link(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  providerId: string,
  info: ProviderUserInfo,
): Promise<OAuthAccountRow> {
  const account: OAuthAccountRow = {
    id: uuid(),
    project_id: project.id,
    user_id: user.id,
    provider_id: providerId,
    provider_account_id: info.accountId,
    email: info.email,
    allow_sign_in: true,
    allow_connected_accounts: true,
    created_at: ctx.now,
  };
  await insertAccount(ctx.db, account);
  return account;
}

/**
 * Decides which user a provider account belongs to, inside the callback's transaction
 * (upstream `auth/oauth/callback/[provider_id]/route.tsx`, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts):
 * - `link`: connects the account to the signed-in user; refused when the account belongs to
 *   another user (OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER) or the user already has
 *   another account of this provider (USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION).
 * - `authenticate`, known account: its user.
 * - `authenticate`, new account whose email is a user's sign-in email: the project's
 *   `oauth_account_merge_strategy` — `link_method` links it to that user (only when the provider
 *   vouches for the email and that user's email is verified, so neither side can take over an
 *   account through an address it never proved), `raise_error`
 *   refuses, `allow_duplicates` (and `link_method` with an unverified email) signs up a new user
 *   whose email is not used for sign-in. The development provider (`type: "shared"`) never
 *   vouches for an email (providers/resolve.ts), so its identities are never linked by email.
 * - otherwise signs up a new user (SIGN_UP_NOT_ENABLED when sign-up is off, SIGN_UP_REJECTED when the
 *   project's sign-up rules refuse it, with `botChallenge`, the flow's bot challenge, as `turnstileResult`).
 */
export async function settleAccount(
  ctx: OperationContext,
  project: Project,
  providerId: string,
  info: ProviderUserInfo,
  type: 'authenticate' | 'link',
  linkUserId: string | null,
  botChallenge?: BotChallengeAssessment,
): Promise<SettledAccount> {
  const existing = await findAccountByProviderAccount(ctx.db, project.id, providerId, info.accountId);

  if (type === 'link') {
    const user = linkUserId ? await findUser(ctx.db, project.id, linkUserId) : null;
    if (!user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
    if (existing) {
      if (existing.user_id !== user.id) throw new KnownError('OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
      return { user, account: existing, isNewUser: false };
    }
    const own = await listUserAccounts(ctx.db, project.id, user.id, providerId);
    if (own.some((a) => a.provider_account_id !== info.accountId))
      throw new KnownError('USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION');
    return { user, account: await link(ctx, project, user, providerId, info), isNewUser: false };
  }

  if (existing) {
    if (!existing.allow_sign_in) throw new KnownError('OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
    const user = await findUser(ctx.db, project.id, existing.user_id);
    if (!user) throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER');
    await checkSignInAttempt(ctx, project, { email: user.primary_email, method: 'oauth' });
    return { user, account: existing, isNewUser: false };
  }

  let emailForSignIn = info.email !== null;
  if (info.email) {
    const owner = await findUserByAuthEmail(ctx.db, project.id, info.email);
    if (owner) {
      await checkSignInAttempt(ctx, project, { email: info.email, method: 'oauth' });
      const strategy = project.config.oauthAccountMergeStrategy;
      if (strategy === 'raise_error') throw new KnownError('OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
      // Linking needs both sides to vouch for the address: the provider, and the existing account
      // (whose email may have been registered by someone who never proved it: account
      // pre-hijacking). Otherwise the new account is a separate user.
      if (strategy === 'link_method' && info.emailVerified && owner.primary_email_verified) {
        return { user: owner, account: await link(ctx, project, owner, providerId, info), isNewUser: false };
      }
      emailForSignIn = false;
    }
  }

  if (!project.config.signUpEnabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
  // The provider callback carries no request auth, but it is the browser (client level) signing
  // up: the dashboard's closed sign-up (internal project) applies to it as to a password sign-up.
  const asClient: OperationContext = ctx.auth
    ? ctx
    : { ...ctx, auth: { accessType: 'client', project, branchId: 'main', user: null, token: null, viaAdminAccessToken: false } };
  await assertDashboardSignUpAllowed(asClient, info.email);
  const user = await signUpUser(
    asClient,
    project,
    { email: info.email, authMethod: 'oauth', oauthProvider: providerId, ...(botChallenge ? { botChallenge } : {}) },
    {
      display_name: info.displayName,
      profile_image_url: info.profileImageUrl,
      primary_email: info.email,
      primary_email_verified: info.emailVerified,
      primary_email_auth_enabled: emailForSignIn,
    },
    null,
  );
  return { user, account: await link(ctx, project, user, providerId, info), isNewUser: true };
}
