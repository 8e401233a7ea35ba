export { authorizeOAuth, providerCallbackUrl } from './authorize.ts';
export { oauthCallback, oauthCallbackFormPost } from './callback.ts';
export { oauthToken } from './token.ts';
export { crossDomainAuthorize } from './cross-domain-authorize.ts';
export { devProviderAuthorizePage, devProviderAuthorize, devProviderToken, devProviderJwks, devProviderDiscovery } from './dev-provider.ts';
export { PUBLIC_CLIENT_SECRET } from './client.ts';
export { BUILT_IN_PROVIDERS } from './providers/builtin.ts';
export { DEV_IDENTITIES } from './providers/dev-provider.ts';
