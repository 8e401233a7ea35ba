export { authorizeOAuth } from './authorize-oauth.ts';
export { oauthCallback } from './oauth-callback.ts';
export { oauthCallbackFormPost } from './oauth-callback-form-post.ts';
export { oauthToken } from './oauth-token.ts';
export { crossDomainAuthorize } from './cross-domain-authorize.ts';
export { appleNativeSignIn } from './apple-native-sign-in.ts';
export { devProviderAuthorizePage } from './dev-provider-authorize-page.ts';
export { devProviderAuthorize } from './dev-provider-authorize.ts';
export { devProviderToken } from './dev-provider-token.ts';
export { devProviderJwks } from './dev-provider-jwks.ts';
export { devProviderDiscovery } from './dev-provider-discovery.ts';
export { listOAuthProviders } from './list-oauth-providers.ts';
export { getOAuthProvider } from './get-oauth-provider.ts';
export { updateOAuthProvider } from './update-oauth-provider.ts';
export { deleteOAuthProvider } from './delete-oauth-provider.ts';
export { createOAuthProvider } from './create-oauth-provider.ts';
export { findProviderConfig, resolveProvider } from './providers/resolve.ts';
export { refreshAtProvider } from './providers/exchange.ts';
export { storeProviderTokens, openProviderToken, tokenScopes } from './provider-tokens.ts';
export {
  listUserAccounts as listLinkedAccounts,
  listValidTokens as listValidProviderTokens,
  invalidateToken as invalidateProviderToken,
} from './queries.ts';
export { removeAllLinkedAccounts } from './provider-links.ts';
// What team SSO connections (core/sso) reuse of the OAuth sign-in machinery.
export {
  AppFlowQueryEntries,
  APP_FLOW_ERRORS,
  appFlowFields,
  checkAppFlowRequest,
  codeRedirect,
  flowErrorRedirect,
  flowStartReply,
} from './app-flow.ts';
export { saveFlow, takeFlowByState, type OuterFlow } from './flow-state.ts';
export { redirectTrust } from './client.ts';
export { settleAccount } from './accounts.ts';
export { issueAuthorizationCode } from './authorization-codes.ts';
export { authorizationUrl, newFlowSecrets, redeemProviderCode } from './providers/exchange.ts';
export { providerFailure, providerOutboundFetch, resolveOpenIdProvider } from './providers/resolve.ts';
export type { ProviderUserInfo } from './providers/types.ts';
