/**
 * The browser entry of `gatehouse-sdk`: everything of `index.ts` except the Node-only in-process
 * transport (bundlers for browsers resolve to this file).
 */
export { ClientApp, MFA_ATTEMPT_KEY, type ClientAppOptions, type OrOption } from './client-app.ts';
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
export { httpTransport, type Transport } from './transport.ts';
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
export type * from './wire.ts';
