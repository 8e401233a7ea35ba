import { KnownError } from '../../errors/index.ts';
import { normalizeEmail } from '../../lib/email.ts';
import type { BuiltInProvider, ProviderUserInfo } from './types.ts';

type Json = Record<string, unknown>;

const str = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

/** The account id is required; a provider answer without one is unusable. */
function identity(fields: Omit<ProviderUserInfo, 'accountId'> & { accountId: string | null }): ProviderUserInfo {
  if (!fields.accountId) throw new KnownError('OAUTH_PROVIDER_ACCESS_DENIED');
  return {
    ...fields,
    accountId: fields.accountId,
    email: fields.email ? normalizeEmail(fields.email) : null,
    emailVerified: !!fields.email && fields.emailVerified,
  };
}

/** Standard OpenID claims (OIDC Core §5.1) from the ID Token, completed by the UserInfo response. */
export function fromOidcClaims(claims: Json, userinfo: Json = {}): ProviderUserInfo {
  const all = { ...userinfo, ...claims };
  return identity({
    accountId: str(claims.sub) ?? str(userinfo.sub),
    email: str(all.email),
    emailVerified: all.email_verified === true || all.email_verified === 'true',
    displayName: str(all.name) ?? str(all.preferred_username),
    profileImageUrl: str(all.picture),
  });
}

const GITHUB_API_HEADERS = { 'x-github-api-version': '2022-11-28' };

/**
 * The twelve built-in providers. Endpoints, scopes and quirks follow each provider's documentation
 * and upstream's `https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/oauth/providers/*.tsx`.
 */
export const BUILT_IN_PROVIDERS: Readonly<Record<string, BuiltInProvider>> = {
  google: {
    id: 'google',
    displayName: 'Google',
    endpoints: () => ({
      issuer: 'https://accounts.google.com',
      authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenEndpoint: 'https://oauth2.googleapis.com/token',
      userinfoEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
      jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
    }),
    baseScope: 'openid email profile',
    clientAuth: 'client_secret_basic',
    // A refresh token is only issued with offline access, and again only on consent.
    extraAuthorizationParams: () => ({ access_type: 'offline', prompt: 'consent' }),
    openid: true,
    async userInfo(tokens) {
      return fromOidcClaims(tokens.idTokenClaims ?? {});
    },
  },
  github: {
    id: 'github',
    displayName: 'GitHub',
    endpoints: () => ({
      authorizationEndpoint: 'https://github.com/login/oauth/authorize',
      tokenEndpoint: 'https://github.com/login/oauth/access_token',
      userinfoEndpoint: 'https://api.github.com/user',
      emailsEndpoint: 'https://api.github.com/user/emails',
    }),
    baseScope: 'user:email',
    clientAuth: 'client_secret_post',
    // GitHub is not an OpenID provider: the profile and the email list are two REST resources
    // (https://docs.github.com/en/rest/users/users, .../users/emails); the email on the profile
    // is the public one and says nothing about verification, so the primary entry of the list is used.
    async userInfo(tokens, endpoints, get) {
      const user = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken, GITHUB_API_HEADERS));
      const emails = await get(endpoints.emailsEndpoint!, tokens.accessToken, GITHUB_API_HEADERS);
      const primary = obj(Array.isArray(emails) ? emails.find((e) => obj(e).primary === true) : undefined);
      return identity({
        accountId: str(user.id),
        email: str(primary.email),
        emailVerified: primary.verified === true,
        displayName: str(user.name) ?? str(user.login),
        profileImageUrl: str(user.avatar_url),
      });
    },
  },
  microsoft: {
    id: 'microsoft',
    displayName: 'Microsoft',
    endpoints: ({ microsoftTenantId }) => {
      const tenant = encodeURIComponent(microsoftTenantId || 'consumers');
      return {
        authorizationEndpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/authorize`,
        tokenEndpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/token`,
        userinfoEndpoint: 'https://graph.microsoft.com/v1.0/me',
      };
    },
    baseScope: 'User.Read openid offline_access',
    clientAuth: 'client_secret_post',
    // Entra does not verify `mail`, so the email never merges accounts (upstream does the same).
    async userInfo(tokens, endpoints, get) {
      const me = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken));
      return identity({
        accountId: str(me.id),
        email: str(me.mail) ?? str(me.userPrincipalName),
        emailVerified: false,
        displayName: str(me.displayName),
        profileImageUrl: null,
      });
    },
  },
  facebook: {
    id: 'facebook',
    displayName: 'Facebook',
    endpoints: () => ({
      authorizationEndpoint: 'https://www.facebook.com/v20.0/dialog/oauth',
      tokenEndpoint: 'https://graph.facebook.com/v20.0/oauth/access_token',
      userinfoEndpoint: 'https://graph.facebook.com/v20.0/me?fields=id,name,email,picture',
    }),
    baseScope: 'public_profile email',
    clientAuth: 'client_secret_post',
    // Facebook Login for Business replaces scopes with a configuration id.
    extraAuthorizationParams: ({ facebookConfigId }): Record<string, string> => (facebookConfigId ? { config_id: facebookConfigId } : {}),
    omitScopeWhen: ({ facebookConfigId }) => !!facebookConfigId,
    async userInfo(tokens, endpoints, get) {
      const me = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken));
      return identity({
        accountId: str(me.id),
        email: str(me.email),
        emailVerified: false,
        displayName: str(me.name),
        profileImageUrl: str(obj(obj(me.picture).data).url),
      });
    },
  },
  discord: {
    id: 'discord',
    displayName: 'Discord',
    endpoints: () => ({
      authorizationEndpoint: 'https://discord.com/oauth2/authorize',
      tokenEndpoint: 'https://discord.com/api/oauth2/token',
      userinfoEndpoint: 'https://discord.com/api/users/@me',
    }),
    baseScope: 'identify email',
    clientAuth: 'client_secret_post',
    async userInfo(tokens, endpoints, get) {
      const me = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken));
      const id = str(me.id);
      const avatar = str(me.avatar);
      return identity({
        accountId: id,
        email: str(me.email),
        emailVerified: me.verified === true,
        displayName: str(me.global_name) ?? str(me.username),
        profileImageUrl: id && avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : null,
      });
    },
  },
  gitlab: {
    id: 'gitlab',
    displayName: 'GitLab',
    endpoints: () => ({
      authorizationEndpoint: 'https://gitlab.com/oauth/authorize',
      tokenEndpoint: 'https://gitlab.com/oauth/token',
      userinfoEndpoint: 'https://gitlab.com/api/v4/user',
    }),
    baseScope: 'read_user',
    clientAuth: 'client_secret_post',
    async userInfo(tokens, endpoints, get) {
      const me = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken));
      return identity({
        accountId: str(me.id),
        email: str(me.email),
        emailVerified: !!str(me.confirmed_at),
        displayName: str(me.name),
        profileImageUrl: str(me.avatar_url),
      });
    },
  },
  bitbucket: {
    id: 'bitbucket',
    displayName: 'Bitbucket',
    endpoints: () => ({
      authorizationEndpoint: 'https://bitbucket.org/site/oauth2/authorize',
      tokenEndpoint: 'https://bitbucket.org/site/oauth2/access_token',
      userinfoEndpoint: 'https://api.bitbucket.org/2.0/user',
      emailsEndpoint: 'https://api.bitbucket.org/2.0/user/emails',
    }),
    baseScope: 'account email',
    clientAuth: 'client_secret_basic',
    async userInfo(tokens, endpoints, get) {
      const me = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken));
      const list = obj(await get(endpoints.emailsEndpoint!, tokens.accessToken)).values;
      const primary = obj(Array.isArray(list) ? list.find((e) => obj(e).is_primary === true) : undefined);
      return identity({
        accountId: str(me.uuid) ?? str(me.account_id),
        email: str(primary.email),
        emailVerified: primary.is_confirmed === true,
        displayName: str(me.display_name),
        profileImageUrl: str(obj(obj(me.links).avatar).href),
      });
    },
  },
  linkedin: {
    id: 'linkedin',
    displayName: 'LinkedIn',
    endpoints: () => ({
      issuer: 'https://www.linkedin.com/oauth',
      authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
      tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
      userinfoEndpoint: 'https://api.linkedin.com/v2/userinfo',
      jwksUri: 'https://www.linkedin.com/oauth/openid/jwks',
    }),
    baseScope: 'openid profile email',
    clientAuth: 'client_secret_post',
    openid: true,
    async userInfo(tokens, endpoints, get) {
      const info = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken));
      return fromOidcClaims(tokens.idTokenClaims ?? {}, info);
    },
  },
  apple: {
    id: 'apple',
    displayName: 'Apple',
    endpoints: () => ({
      issuer: 'https://appleid.apple.com',
      authorizationEndpoint: 'https://appleid.apple.com/auth/authorize',
      tokenEndpoint: 'https://appleid.apple.com/auth/token',
      jwksUri: 'https://appleid.apple.com/auth/keys',
    }),
    baseScope: 'name email',
    clientAuth: 'client_secret_post',
    // Apple requires form_post when name or email scopes are requested.
    extraAuthorizationParams: () => ({ response_mode: 'form_post' }),
    formPost: true,
    openid: true,
    async userInfo(tokens) {
      const claims = tokens.idTokenClaims ?? {};
      return identity({
        accountId: str(claims.sub),
        email: str(claims.email),
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        displayName: null,
        profileImageUrl: null,
      });
    },
  },
  x: {
    id: 'x',
    displayName: 'X',
    endpoints: () => ({
      authorizationEndpoint: 'https://twitter.com/i/oauth2/authorize',
      tokenEndpoint: 'https://api.x.com/2/oauth2/token',
      userinfoEndpoint: 'https://api.x.com/2/users/me?user.fields=id,name,username,profile_image_url',
    }),
    baseScope: 'users.read offline.access tweet.read',
    clientAuth: 'client_secret_basic',
    // X's OAuth 2.0 API has no way to read the email.
    async userInfo(tokens, endpoints, get) {
      const data = obj(obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken)).data);
      return identity({
        accountId: str(data.id),
        email: null,
        emailVerified: false,
        displayName: str(data.name) ?? str(data.username),
        profileImageUrl: str(data.profile_image_url),
      });
    },
  },
  spotify: {
    id: 'spotify',
    displayName: 'Spotify',
    endpoints: () => ({
      authorizationEndpoint: 'https://accounts.spotify.com/authorize',
      tokenEndpoint: 'https://accounts.spotify.com/api/token',
      userinfoEndpoint: 'https://api.spotify.com/v1/me',
    }),
    baseScope: 'user-read-email user-read-private',
    clientAuth: 'client_secret_basic',
    // Spotify does not say whether the email is verified.
    async userInfo(tokens, endpoints, get) {
      const me = obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken));
      const images = Array.isArray(me.images) ? me.images : [];
      return identity({
        accountId: str(me.id),
        email: str(me.email),
        emailVerified: false,
        displayName: str(me.display_name),
        profileImageUrl: str(obj(images[0]).url),
      });
    },
  },
  twitch: {
    id: 'twitch',
    displayName: 'Twitch',
    endpoints: () => ({
      authorizationEndpoint: 'https://id.twitch.tv/oauth2/authorize',
      tokenEndpoint: 'https://id.twitch.tv/oauth2/token',
      userinfoEndpoint: 'https://api.twitch.tv/helix/users',
    }),
    baseScope: 'user:read:email',
    clientAuth: 'client_secret_post',
    // Helix wants the app's Client-Id header beside the user's token.
    async userInfo(tokens, endpoints, get, clientId) {
      const data = obj(
        (obj(await get(endpoints.userinfoEndpoint!, tokens.accessToken, { 'client-id': clientId })).data as unknown[] | undefined)?.[0],
      );
      return identity({
        accountId: str(data.id),
        email: str(data.email),
        emailVerified: false,
        displayName: str(data.display_name),
        profileImageUrl: str(data.profile_image_url),
      });
    },
  },
};
