/**
 * Gatehouse SDK (`gatehouse-sdk`): client, server and admin apps over HTTP or in-process, token
 * stores, typed errors, caching and redirect rules (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 */
export { ClientApp, MFA_ATTEMPT_KEY, type ClientAppOptions, type OrOption, type BotChallenge } from './client-app.ts';
export { ServerApp, type ServerAppOptions } from './server-app.ts';
export { AdminApp, type AdminAppOptions, type InternalApiKey } from './admin-app.ts';
export { User, type UserUpdate } from './user.ts';
export { generateTotpSecret, toBase32, toBase64, totpAuthUri, totpForStep, verifyTotp } from './totp.ts';
export {
  Team,
  TeamMemberProfile,
  TeamInvitation,
  ContactChannel,
  ActiveSession,
  ApiKey,
  NotificationCategory,
  Passkey,
} from './objects.ts';
export {
  GatehouseKnownError,
  GatehouseStatusError,
  GatehouseNetworkError,
  GatehouseConfigError,
  UserNotSignedInError,
  isKnownErrorOf,
  INVALID_ACCESS_TOKEN_CODES,
  REFRESH_TOKEN_ERROR_CODES,
  type Result,
  type KnownErrorCode,
} from './errors.ts';
export {
  memoryTokenStore,
  cookieTokenStore,
  tokensFromAuthHeader,
  authHeaderFor,
  type TokenStore,
  type Tokens,
  type TokenStoreInit,
} from './tokens.ts';
export { httpTransport, type Transport, type TransportRequest, type TransportResponse } from './transport.ts';
export { inProcessTransport, type MountedGatehouse } from './in-process.ts';
export { defaultEnvironment, manualEnvironment, type SdkEnvironment } from './env.ts';
export {
  resolveUrls,
  isRelativeUrl,
  isTrustedUrl,
  assertTrustedRedirect,
  withReturnTo,
  returnToFrom,
  DEFAULT_HANDLER_PATH,
  HANDLER_ROUTES,
  type HandlerUrls,
  type RedirectMethod,
} from './redirect.ts';
export { crossDomainHandoffFrom, returnToProblem, CROSS_DOMAIN_PARAM_PREFIXES, type CrossDomainHandoff } from './cross-domain.ts';
export { AsyncCache, CACHE_UNSUBSCRIBE_DELAY_MS, CACHE_REFETCH_THROTTLE_MS } from './cache.ts';
export { Session, TOKEN_FRESHNESS_MS, decodeJwtPayload } from './session.ts';
export { ApiClient, backoffDelayMs, MAX_RETRIES, RETRY_BASE_MS } from './request.ts';
export {
  ROUTES,
  routePath,
  routeMethod,
  type OperationId,
  type Operations,
  type OperationCallInput,
  type OperationOutput,
  type OperationArgs,
} from './routes.ts';
export {
  verifyOAuthAccessToken,
  oauthIssuerOf,
  type OAuthIssuerOptions,
  type VerifyOAuthAccessTokenOptions,
  type OAuthAccessToken,
  type OAuthTokenError,
  type OAuthTokenResult,
} from './verify-oauth-token.ts';
export {
  createProtectedResource,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  bearerChallenge,
  type ProtectedResource,
  type ProtectedResourceOptions,
  type ProtectedResourceMetadata,
  type BearerRefusal,
} from './protected-resource.ts';
export type * from './wire.ts';
