/**
 * The error catalogue: every known error code, its HTTP status, the keys its `details` object
 * carries, and the human-readable message built from those details.
 *
 * Pure data. It imports nothing so the SDK can bundle it as is.
 *
 * Codes and statuses follow upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx and upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx; detail keys follow
 * upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx (the official SDK rebuilds its typed errors from them). Messages are ours,
 * except where upstream's known-errors.tsx words one.
 */

/** One catalogue entry. `message` receives the error's details (snake_case keys, as on the wire). */
export interface CatalogueEntry {
  readonly status: number;
  readonly detailKeys: readonly string[];
  readonly message: (details: Record<string, unknown>) => string;
}

const entry = (
  status: number,
  message: string | ((details: Record<string, unknown>) => string),
  detailKeys: readonly string[] = [],
): CatalogueEntry => ({
  status,
  detailKeys,
  message: typeof message === 'string' ? () => message : message,
});

const accessTypes = (d: Record<string, unknown>) =>
  (Array.isArray(d.allowed_access_types) ? d.allowed_access_types : []).map((t) => `'${String(t)}'`).join(' or ');

export const errorCatalogue = {
  // ── Request and schema ─────────────────────────────────────────────────────────────────
  UNSUPPORTED_ERROR: entry(500, (d) => `An unsupported error occurred: ${String(d.original_message ?? '')}`, [
    'original_code',
    'original_message',
  ]),
  BODY_PARSING_ERROR: entry(400, (d) => String(d.message ?? 'The request body could not be parsed.'), ['message']),
  SCHEMA_ERROR: entry(400, (d) => String(d.message), ['message']),
  ALL_OVERLOADS_FAILED: entry(400, 'This endpoint has multiple overloads, but they all failed to process the request.', [
    'overload_errors',
  ]),
  TOO_MANY_REQUESTS: entry(429, 'Too many requests. Please wait and try again.', ['retry_after_seconds']),
  // Gatehouse's own (upstream has no code for it): the database is unreachable, stalled or busy
  // past its timeout. Retryable; service resumes by itself when the database is back.
  DATABASE_UNAVAILABLE: entry(503, 'The database is temporarily unavailable. Please try again in a moment.'),

  // ── Project authentication ─────────────────────────────────────────────────────────────
  PROJECT_KEY_WITHOUT_ACCESS_TYPE: entry(
    400,
    "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.",
  ),
  INVALID_ACCESS_TYPE: entry(
    400,
    (d) => `The x-stack-access-type header must be 'client', 'server', or 'admin', but was '${String(d.access_type)}'.`,
    ['access_type'],
  ),
  ACCESS_TYPE_WITHOUT_PROJECT_ID: entry(
    400,
    (d) => `The x-stack-access-type header was '${String(d.request_type)}', but the x-stack-project-id header was not provided.`,
    ['request_type'],
  ),
  // Upstream's exact text, second paragraph included (its e2e snapshots pin it, e.g. users.test.ts "should not be able to read own user").
  ACCESS_TYPE_REQUIRED: entry(
    400,
    "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication",
  ),
  INSUFFICIENT_ACCESS_TYPE: entry(
    401,
    (d) => `The x-stack-access-type header must be ${accessTypes(d)}, but was '${String(d.actual_access_type)}'.`,
    ['actual_access_type', 'allowed_access_types'],
  ),
  INVALID_PUBLISHABLE_CLIENT_KEY: entry(
    401,
    (d) => `The publishable key is not valid for the project ${JSON.stringify(d.project_id)}. Does the project and/or the key exist?`,
    ['project_id'],
  ),
  INVALID_SECRET_SERVER_KEY: entry(
    401,
    (d) => `The secret server key is not valid for the project ${JSON.stringify(d.project_id)}. Does the project and/or the key exist?`,
    ['project_id'],
  ),
  INVALID_SUPER_SECRET_ADMIN_KEY: entry(
    401,
    (d) =>
      `The super secret admin key is not valid for the project ${JSON.stringify(d.project_id)}. Does the project and/or the key exist?`,
    ['project_id'],
  ),
  CLIENT_AUTHENTICATION_REQUIRED: entry(401, 'The publishable client key must be provided.'),
  SERVER_AUTHENTICATION_REQUIRED: entry(401, 'The secret server key must be provided.'),
  ADMIN_AUTHENTICATION_REQUIRED: entry(401, 'The super secret admin key must be provided.'),
  PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT: entry(
    401,
    (d) => `Publishable client keys are required for the project ${JSON.stringify(d.project_id)}.`,
    ['project_id'],
  ),
  UNPARSABLE_ADMIN_ACCESS_TOKEN: entry(401, 'Admin access token is not parsable.'),
  ADMIN_ACCESS_TOKEN_EXPIRED: entry(
    401,
    (d) =>
      `Admin access token has expired${d.expired_at_millis ? ` (at ${new Date(Number(d.expired_at_millis)).toISOString()})` : ''}. Please refresh it and try again.`,
    ['expired_at_millis'],
  ),
  INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN: entry(401, 'Admin access tokens must be created on the internal project.'),
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: entry(401, 'Admin access token does not have the required permissions to access this project.'),
  EXPECTED_INTERNAL_PROJECT: entry(401, 'The project ID is expected to be internal.'),
  CURRENT_PROJECT_NOT_FOUND: entry(
    400,
    (d) => `The current project with ID ${String(d.project_id)} was not found. Please check the value of the x-stack-project-id header.`,
    ['project_id'],
  ),
  BRANCH_DOES_NOT_EXIST: entry(400, (d) => `The branch with ID ${String(d.branch_id)} does not exist.`, ['branch_id']),
  PROJECT_NOT_FOUND: entry(404, (d) => `Project ${String(d.project_id)} not found or is not accessible with the current user.`, [
    'project_id',
  ]),

  // ── Tokens and sessions ────────────────────────────────────────────────────────────────
  UNPARSABLE_ACCESS_TOKEN: entry(401, 'Access token is not parsable.'),
  ACCESS_TOKEN_EXPIRED: entry(
    401,
    (d) =>
      `Access token has expired${d.expired_at_millis ? ` (at ${new Date(Number(d.expired_at_millis)).toISOString()})` : ''}. Please refresh it and try again.`,
    ['expired_at_millis'],
  ),
  INVALID_PROJECT_FOR_ACCESS_TOKEN: entry(
    401,
    (d) =>
      `Access token not valid for this project. Expected project ID ${JSON.stringify(d.expected_project_id)}, but the token is for project ID ${JSON.stringify(d.actual_project_id)}.`,
    ['expected_project_id', 'actual_project_id'],
  ),
  REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: entry(401, 'Refresh token not found for this project, or the session has expired/been revoked.'),
  CANNOT_DELETE_CURRENT_SESSION: entry(400, 'Cannot delete the current session.'),
  PROVIDER_REJECTED: entry(401, 'The OAuth provider rejected the refresh token. The user must sign in again.'),
  ANONYMOUS_AUTHENTICATION_NOT_ALLOWED: entry(
    401,
    "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users.",
  ),
  RESTRICTED_USER_NOT_ALLOWED: entry(
    403,
    (d) =>
      `The user is restricted (${JSON.stringify(d.restricted_reason ?? null)}). Set the x-stack-allow-restricted-user header to 'true' to allow restricted users.`,
    ['restricted_reason'],
  ),
  USER_AUTHENTICATION_REQUIRED: entry(401, 'User authentication required for this endpoint.'),

  // ── Users, projects, sign-in ───────────────────────────────────────────────────────────
  USER_EMAIL_ALREADY_EXISTS: entry(
    409,
    (d) =>
      `A user with email ${JSON.stringify(d.email)} already exists${d.would_work_if_email_was_verified ? ' but the email is not verified. Please log in to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.' : '.'}`,
    ['email', 'would_work_if_email_was_verified'],
  ),
  EMAIL_NOT_VERIFIED: entry(400, 'The email is not verified.'),
  CANNOT_GET_OWN_USER_WITHOUT_USER: entry(400, "You have specified 'me' as a userId, but did not provide authentication for a user."),
  USER_ID_DOES_NOT_EXIST: entry(400, (d) => `The given user with the ID ${String(d.user_id)} does not exist.`, ['user_id']),
  USER_NOT_FOUND: entry(404, 'User not found.'),
  SIGN_UP_NOT_ENABLED: entry(400, 'Creation of new accounts is not enabled for this project. Please ask the project owner to enable it.'),
  SIGN_UP_REJECTED: entry(403, 'Your sign up was rejected. Please contact us for more information.'),
  PASSWORD_AUTHENTICATION_NOT_ENABLED: entry(400, 'Password authentication is not enabled for this project.'),
  PASSKEY_AUTHENTICATION_NOT_ENABLED: entry(400, 'Passkey authentication is not enabled for this project.'),
  ANONYMOUS_ACCOUNTS_NOT_ENABLED: entry(400, 'Anonymous accounts are not enabled for this project.'),
  EMAIL_PASSWORD_MISMATCH: entry(400, 'Wrong e-mail or password.'),
  REDIRECT_URL_NOT_WHITELISTED: entry(400, (d) =>
    typeof d.url === 'string'
      ? `Redirect URL not whitelisted: ${d.url.length > 300 ? `${d.url.slice(0, 300)}…` : d.url}. Add its domain to the project's trusted domains in the Gatehouse dashboard (or allow localhost for a local app).`
      : 'Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Gatehouse dashboard?',
  ),
  PASSWORD_REQUIREMENTS_NOT_MET: entry(400, (d) => String(d.message ?? 'The password does not meet the requirements.'), [
    'message',
    'reason',
  ]),
  PASSWORD_TOO_SHORT: entry(400, (d) => `Password too short. Minimum length is ${String(d.min_length)}.`, ['min_length']),
  PASSWORD_TOO_LONG: entry(400, (d) => `Password too long. Maximum length is ${String(d.maxLength ?? d.max_length)}.`, ['maxLength']),
  USER_DOES_NOT_HAVE_PASSWORD: entry(400, 'This user does not have password authentication enabled.'),
  PASSWORD_CONFIRMATION_MISMATCH: entry(400, 'Passwords do not match.'),
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: entry(
    409,
    (d) => `This ${String(d.type ?? 'email')} is already used for authentication by another account.`,
    ['type', 'contact_channel_value'],
  ),
  // Upstream's bot challenge flow (core/bot-challenge): 409 asks the client to retry with the visible widget.
  BOT_CHALLENGE_REQUIRED: entry(409, 'An additional bot challenge is required before sign-up can continue.'),
  BOT_CHALLENGE_FAILED: entry(400, (d) => String(d.message ?? 'The bot challenge failed.'), ['message']),

  // ── Codes and email ────────────────────────────────────────────────────────────────────
  VERIFICATION_CODE_NOT_FOUND: entry(404, 'The verification code does not exist for this project.'),
  VERIFICATION_CODE_EXPIRED: entry(400, 'The verification code has expired.'),
  VERIFICATION_CODE_ALREADY_USED: entry(409, 'The verification link has already been used.'),
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: entry(
    400,
    'The verification code nonce has reached the maximum number of attempts. This code is not valid anymore.',
  ),
  EMAIL_ALREADY_VERIFIED: entry(409, 'The e-mail is already verified.'),
  EMAIL_NOT_ASSOCIATED_WITH_USER: entry(400, 'The e-mail is not associated with a user that could log in with that e-mail.'),
  EMAIL_IS_NOT_PRIMARY_EMAIL: entry(
    400,
    (d) => `The given e-mail (${String(d.email)}) must equal the user's primary e-mail (${String(d.primary_email)}).`,
    ['email', 'primary_email'],
  ),
  EMAIL_TEMPLATE_ALREADY_EXISTS: entry(409, 'An email template of this type already exists.'),
  EMAIL_RENDERING_ERROR: entry(400, (d) => `Failed to render email with theme: ${String(d.error)}`, ['error']),
  EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE: entry(409, (d) => `Email capacity boost is already active until ${String(d.expires_at)}.`, [
    'expires_at',
  ]),
  REQUIRES_CUSTOM_EMAIL_SERVER: entry(
    400,
    'This action requires a custom SMTP server. Please edit your email server configuration and try again.',
  ),
  TEAM_INVITATION_EMAIL_MISMATCH: entry(403, 'This invitation was sent to a different e-mail address.'),

  // ── Passkey and multi-factor ───────────────────────────────────────────────────────────
  PASSKEY_REGISTRATION_FAILED: entry(400, (d) => String(d.message ?? 'Passkey registration failed.'), ['message']),
  PASSKEY_WEBAUTHN_ERROR: entry(400, (d) => `WebAuthn error: ${String(d.message ?? '')}`, ['message', 'code']),
  PASSKEY_AUTHENTICATION_FAILED: entry(400, (d) => String(d.message ?? 'Passkey authentication failed.'), ['message']),
  MULTI_FACTOR_AUTHENTICATION_REQUIRED: entry(400, 'Multi-factor authentication is required for this user.', ['attempt_code']),
  INVALID_TOTP_CODE: entry(400, 'The TOTP code is invalid. Please try again.'),

  // ── Permissions and teams ──────────────────────────────────────────────────────────────
  PERMISSION_NOT_FOUND: entry(404, (d) => `Permission "${String(d.permission_id)}" not found. Make sure you created it on the dashboard.`, [
    'permission_id',
  ]),
  WRONG_PERMISSION_SCOPE: entry(
    404,
    (d) =>
      `Permission "${String(d.permission_id)}" not found. (It was found for a different scope "${String(d.actual_scope)}", but scope "${String(d.expected_scope)}" was expected.)`,
    ['permission_id', 'expected_scope', 'actual_scope'],
  ),
  CONTAINED_PERMISSION_NOT_FOUND: entry(
    400,
    (d) => `Contained permission with ID "${String(d.permission_id)}" not found. Make sure you created it on the dashboard.`,
    ['permission_id'],
  ),
  PERMISSION_ID_ALREADY_EXISTS: entry(
    400,
    (d) => `Permission with ID "${String(d.permission_id)}" already exists. Choose a different ID.`,
    ['permission_id'],
  ),
  TEAM_NOT_FOUND: entry(404, (d) => `Team ${String(d.team_id)} not found.`, ['team_id']),
  TEAM_ALREADY_EXISTS: entry(409, (d) => `Team ${String(d.team_id)} already exists.`, ['team_id']),
  TEAM_MEMBERSHIP_NOT_FOUND: entry(404, (d) => `User ${String(d.user_id)} is not found in team ${String(d.team_id)}.`, [
    'team_id',
    'user_id',
  ]),
  TEAM_MEMBERSHIP_ALREADY_EXISTS: entry(409, 'Team membership already exists.'),
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: entry(
    403,
    (d) =>
      `Restricted users cannot accept team invitations. Reason: ${String((d.restricted_reason as { type?: string } | undefined)?.type ?? 'anonymous')}. Please complete the onboarding process before accepting team invitations.`,
    ['restricted_reason'],
  ),
  TEAM_PERMISSION_REQUIRED: entry(
    401,
    (d) => `User ${String(d.user_id)} does not have permission ${String(d.permission_id)} in team ${String(d.team_id)}.`,
    ['team_id', 'user_id', 'permission_id'],
  ),
  TEAM_PERMISSION_NOT_FOUND: entry(
    401,
    (d) => `User ${String(d.user_id)} does not have permission ${String(d.permission_id)} in team ${String(d.team_id)}.`,
    ['team_id', 'user_id', 'permission_id'],
  ),
  PROJECT_PERMISSION_REQUIRED: entry(401, (d) => `User ${String(d.user_id)} does not have permission ${String(d.permission_id)}.`, [
    'user_id',
    'permission_id',
  ]),

  // ── OAuth ──────────────────────────────────────────────────────────────────────────────
  OAUTH_CONNECTION_NOT_CONNECTED_TO_USER: entry(400, 'The OAuth connection is not connected to any user.'),
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: entry(409, 'The OAuth connection is already connected to another user.'),
  OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE: entry(400, 'The OAuth connection does not have the required scope.'),
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: entry(
    400,
    'Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Gatehouse dashboard to use extra scopes.',
  ),
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: entry(
    400,
    'Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Gatehouse dashboard to use access tokens.',
  ),
  INVALID_OAUTH_CLIENT_ID_OR_SECRET: entry(
    400,
    (d) =>
      `The OAuth client ID or secret is invalid. The client ID must be equal to the project ID (potentially with a hash and a branch ID), and the client secret must be a publishable client key.${d.client_id ? ` Client ID: ${String(d.client_id)}` : ''}`,
    ['client_id'],
  ),
  INVALID_SCOPE: entry(400, (d) => `The scope "${String(d.scope)}" is not a valid OAuth scope for Gatehouse.`, ['scope']),
  USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION: entry(
    409,
    'The user is already connected to another OAuth account. Did you maybe selected the wrong account?',
  ),
  OUTER_OAUTH_TIMEOUT: entry(408, 'The OAuth flow has timed out. Please sign in again.'),
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: entry(400, 'The OAuth provider is not found or not enabled.'),
  OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN: entry(400, 'A provider with the same account ID is already used for signing in.'),
  OAUTH_PROVIDER_ACCESS_DENIED: entry(400, 'The OAuth provider denied access to the user.'),
  INVALID_AUTHORIZATION_CODE: entry(400, 'The given authorization code is invalid.'),
  INVALID_SHARED_OAUTH_PROVIDER_ID: entry(400, (d) => `The shared OAuth provider with ID ${String(d.provider_id)} is not valid.`, [
    'provider_id',
  ]),
  // Gatehouse's own: `type: "shared"` is served by the built-in development provider (any email,
  // never verified), which a server in production mode refuses.
  OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION: entry(
    400,
    (d) =>
      `The OAuth provider${d.provider_id ? ` ${String(d.provider_id)}` : ''} uses shared keys, which this Gatehouse server serves with its built-in development provider (anyone can pick any email there). It is refused in production mode (the server's GATEHOUSE_ENVIRONMENT=production, or the project's production mode). Set the provider to "standard" with your own client ID and client secret on the Gatehouse dashboard.`,
    ['provider_id'],
  ),
  // Gatehouse's own: a tenant-set provider URL would reach this machine or a private network.
  OAUTH_PROVIDER_URL_NOT_ALLOWED: entry(
    400,
    "The OAuth provider's URL (its issuer, or an endpoint its discovery document names) points at a loopback, link-local or private address, which this Gatehouse server refuses in production mode. Use the provider's public address, or ask the server operator to list the host in GATEHOUSE_OUTBOUND_PRIVATE_HOSTS (for an identity provider on a private network).",
  ),
  INVALID_STANDARD_OAUTH_PROVIDER_ID: entry(400, (d) => `The standard OAuth provider with ID ${String(d.provider_id)} is not valid.`, [
    'provider_id',
  ]),
  APPLE_BUNDLE_ID_NOT_CONFIGURED: entry(
    400,
    "Apple Sign In is enabled, but no Bundle IDs are configured. Add your app's Bundle ID to the Apple provider (apple_bundle_ids) on the Gatehouse dashboard.",
  ),
  INVALID_APPLE_CREDENTIALS: entry(400, 'The Apple Sign In credentials could not be verified. Please try signing in again.'),

  // ── CLI login ──────────────────────────────────────────────────────────────────────────
  INVALID_POLLING_CODE: entry(400, 'The polling code is invalid or does not exist.'),
  CLI_AUTH_ERROR: entry(400, (d) => String(d.message ?? 'CLI authentication failed.'), ['message']),
  CLI_AUTH_EXPIRED_ERROR: entry(400, 'CLI authentication request expired. Please try again.'),
  CLI_AUTH_USED_ERROR: entry(400, 'This authentication token has already been used.'),

  // ── API keys ───────────────────────────────────────────────────────────────────────────
  API_KEY_NOT_FOUND: entry(404, 'API key not found.'),
  API_KEY_EXPIRED: entry(401, 'API key has expired.'),
  API_KEY_REVOKED: entry(401, 'API key has been revoked.'),
  WRONG_API_KEY_TYPE: entry(
    400,
    (d) => `This endpoint is for ${String(d.expected_type)} API keys, but a ${String(d.actual_type)} API key was provided.`,
    ['expected_type', 'actual_type'],
  ),
  PUBLIC_API_KEY_CANNOT_BE_REVOKED: entry(400, 'Public API keys cannot be revoked by the secretscanner endpoint.'),

  // ── Payments and data vault ────────────────────────────────────────────────────────────
  ITEM_NOT_FOUND: entry(404, (d) => `Item with ID "${String(d.item_id)}" not found.`, ['item_id']),
  ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH: entry(
    400,
    (d) =>
      `The ${String(d.actual_customer_type)} with ID ${JSON.stringify(d.customer_id)} is not a valid customer for the item with ID ${JSON.stringify(d.item_id)}. ${d.item_customer_type ? `The item is configured to only be available for ${String(d.item_customer_type)} customers, but the customer is a ${String(d.actual_customer_type)}.` : 'The item is missing a customer type field. Please make sure it is set up correctly in your project configuration.'}`,
    ['item_id', 'customer_id', 'item_customer_type', 'actual_customer_type'],
  ),
  OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH: entry(400, 'The offer customer type does not match the given customer type.', [
    'offer_id',
    'customer_id',
    'offer_customer_type',
    'actual_customer_type',
  ]),
  CUSTOMER_DOES_NOT_EXIST: entry(400, (d) => `Customer with ID ${JSON.stringify(d.customer_id)} does not exist.`, ['customer_id']),
  OFFER_DOES_NOT_EXIST: entry(400, (d) => `Offer with ID ${JSON.stringify(d.offer_id)} does not exist.`, ['offer_id', 'context']),
  ITEM_QUANTITY_INSUFFICIENT_AMOUNT: entry(
    400,
    (d) =>
      `The item with ID ${JSON.stringify(d.item_id)} has an insufficient quantity for the customer with ID ${JSON.stringify(d.customer_id)}. An attempt was made to charge ${String(d.quantity)} credits.`,
    ['item_id', 'customer_id', 'quantity'],
  ),
  PRODUCT_DOES_NOT_EXIST: entry(
    400,
    (d) =>
      `Product with ID ${JSON.stringify(d.product_id)} ${d.context === 'server_only' ? 'is marked as server-only and cannot be accessed client side.' : d.context === 'item_exists' ? 'does not exist, but an item with this ID exists.' : 'does not exist.'}`,
    ['product_id', 'context'],
  ),
  PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH: entry(
    400,
    (d) =>
      `The ${String(d.actual_customer_type)} with ID ${JSON.stringify(d.customer_id)} is not a valid customer for the inline product that has been passed in. ${d.product_customer_type ? `The product is configured to only be available for ${String(d.product_customer_type)} customers, but the customer is a ${String(d.actual_customer_type)}.` : 'The product is missing a customer type field. Please make sure it is set up correctly in your project configuration.'}`,
    ['product_id', 'customer_id', 'product_customer_type', 'actual_customer_type'],
  ),
  PRODUCT_ALREADY_GRANTED: entry(
    400,
    (d) => `Customer with ID ${JSON.stringify(d.customer_id)} already owns product ${JSON.stringify(d.product_id)}.`,
    ['product_id', 'customer_id'],
  ),
  SUBSCRIPTION_INVOICE_NOT_FOUND: entry(
    404,
    (d) => `Subscription invoice with ID ${JSON.stringify(d.subscription_invoice_id)} does not exist.`,
    ['subscription_invoice_id'],
  ),
  ONE_TIME_PURCHASE_NOT_FOUND: entry(404, (d) => `One-time purchase with ID ${JSON.stringify(d.one_time_purchase_id)} does not exist.`, [
    'one_time_purchase_id',
  ]),
  SUBSCRIPTION_ALREADY_REFUNDED: entry(400, (d) => `Subscription with ID ${JSON.stringify(d.subscription_id)} was already refunded.`, [
    'subscription_id',
  ]),
  ONE_TIME_PURCHASE_ALREADY_REFUNDED: entry(
    400,
    (d) => `One-time purchase with ID ${JSON.stringify(d.one_time_purchase_id)} was already refunded.`,
    ['one_time_purchase_id'],
  ),
  TEST_MODE_PURCHASE_NON_REFUNDABLE: entry(400, 'Test mode purchases are not refundable.'),
  // Gatehouse's own: the Stripe webhook's signature does not verify (upstream answers a plain 400).
  STRIPE_WEBHOOK_SIGNATURE_INVALID: entry(400, 'The stripe-signature header of this webhook is missing or does not match its payload.'),
  // Gatehouse's own (upstream answers a 500): Stripe could not be reached, answered 5xx or asked
  // to slow down, after the client's own retry. Retryable; a retried refund is not made twice.
  STRIPE_UNAVAILABLE: entry(503, 'Stripe could not be reached or is unavailable. Please try again in a moment.'),
  // Gatehouse's own (upstream answers a 500): Stripe declined the customer's card (its 402
  // `card_error`); the message is Stripe's own, written for the customer ("Your card was declined.").
  STRIPE_CARD_DECLINED: entry(402, (d) => String(d.message ?? 'The card was declined.'), ['message', 'decline_code']),
  // Gatehouse's own (upstream answers a 500): a retried Stripe call (same idempotency key) asked for
  // something other than the first attempt did, which Stripe refuses for 24 hours.
  STRIPE_IDEMPOTENCY_CONFLICT: entry(
    409,
    'This repeats an earlier request to Stripe with different details (for a refund: another amount). Retry it as it was first made.',
  ),
  DEFAULT_PAYMENT_METHOD_REQUIRED: entry(400, 'No default payment method is set for this customer.', ['customer_type', 'customer_id']),
  NEW_PURCHASES_BLOCKED: entry(403, 'New purchases are currently blocked for this project. Please contact support for more information.'),
  STRIPE_ACCOUNT_INFO_NOT_FOUND: entry(404, 'Stripe account information not found. Please make sure the user has onboarded with Stripe.'),
  DATA_VAULT_STORE_DOES_NOT_EXIST: entry(400, (d) => `Data vault store with ID ${String(d.store_id)} does not exist.`, ['store_id']),
  DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST: entry(
    400,
    (d) => `Data vault store with ID ${String(d.store_id)} does not contain a key with hash ${String(d.hashed_key)}.`,
    ['store_id', 'hashed_key'],
  ),
  WORKFLOW_TOKEN_DOES_NOT_EXIST: entry(400, 'Workflow token does not exist.'),
  WORKFLOW_TOKEN_EXPIRED: entry(400, 'Workflow token expired.'),

  // ── Email outbox ───────────────────────────────────────────────────────────────────────
  EMAIL_NOT_EDITABLE: entry(
    400,
    (d) =>
      `Email with ID "${String(d.email_id)}" cannot be edited because it is in status "${String(d.status)}". Only emails in PAUSED, PREPARING, RENDERING, RENDER_ERROR, SCHEDULED, QUEUED, or SERVER_ERROR status can be edited.`,
    ['email_id', 'status'],
  ),

  // ── Webhooks (Gatehouse extension: Stack Auth delegates endpoints to Svix) ─────────────
  WEBHOOK_ENDPOINT_NOT_FOUND: entry(404, (d) => `Webhook endpoint ${String(d.endpoint_id)} not found.`, ['endpoint_id']),
  WEBHOOK_MESSAGE_NOT_FOUND: entry(404, (d) => `Webhook message ${String(d.message_id)} was never sent to this endpoint.`, ['message_id']),

  // ── Dashboard assistant (Gatehouse extension: upstream's ai-chat route has no codes) ────
  AI_CHAT_NOT_CONFIGURED: entry(
    400,
    'The dashboard assistant is not configured on this server. The operator sets GATEHOUSE_AI_BASE_URL and GATEHOUSE_AI_MODEL (and GATEHOUSE_AI_API_KEY when the endpoint needs one), or fills in the assistant section of the server settings.',
  ),
  AI_CHAT_THREAD_NOT_FOUND: entry(404, (d) => `Assistant thread ${String(d.thread_id)} not found.`, ['thread_id']),
  AI_CHAT_TOKEN_BUDGET_EXCEEDED: entry(
    400,
    (d) =>
      `This project has used its assistant budget of ${String(d.daily_token_budget)} tokens for today (UTC). It renews at midnight UTC.`,
    ['daily_token_budget'],
  ),
  AI_CHAT_MODEL_ERROR: entry(400, (d) => String(d.message ?? 'The model endpoint did not answer.'), ['message']),
  // ── Team SSO connections (Gatehouse extension, core/sso; docs/sso.md) ────────────────────
  SSO_CONNECTION_NOT_FOUND: entry(404, 'No SSO connection matches: check the connection id, the team id or the email address.'),
  SSO_IDP_METADATA_INVALID: entry(
    400,
    (d) => `The identity provider's SAML metadata could not be used: ${String(d.reason ?? 'it is not valid')}.`,
    ['reason'],
  ),
  SSO_RESPONSE_INVALID: entry(400, (d) => `The identity provider's SAML response was refused (${String(d.reason ?? 'invalid')}).`, [
    'reason',
  ]),
  AI_SETTINGS_OPERATOR_ONLY: entry(403, 'Only the server operator (the first dashboard owner) may change server settings.'),

  // ── Verified domains and SCIM (Gatehouse's own; issue 32) ─────────────────────────────────
  SSO_REQUIRED: entry(
    403,
    (d) =>
      `The project requires single sign-on for ${String(d.domain)} addresses. Sign in through your organization's identity provider: ${String(d.sso_url)}`,
    ['domain', 'sso_url'],
  ),
  TEAM_DOMAIN_NOT_FOUND: entry(404, (d) => `Domain ${String(d.domain)} is not claimed by team ${String(d.team_id)}.`, [
    'team_id',
    'domain',
  ]),
  TEAM_DOMAIN_ALREADY_EXISTS: entry(409, (d) => `Team ${String(d.team_id)} already claims domain ${String(d.domain)}.`, [
    'team_id',
    'domain',
  ]),
  TEAM_DOMAIN_VERIFIED_BY_ANOTHER_TEAM: entry(
    409,
    (d) => `Domain ${String(d.domain)} is already verified by another team of this project.`,
    ['domain'],
  ),
  TEAM_DOMAIN_VERIFICATION_FAILED: entry(
    400,
    (d) =>
      `Domain ${String(d.domain)} is not verified: the TXT record ${String(d.record_name)} does not hold the challenge value (${String(d.reason)}).`,
    ['domain', 'record_name', 'reason'],
  ),
  TEAM_DOMAIN_NOT_VERIFIED: entry(400, (d) => `Domain ${String(d.domain)} is not verified yet.`, ['domain']),
  SCIM_TOKEN_NOT_FOUND: entry(404, (d) => `SCIM token ${String(d.token_id)} not found.`, ['token_id']),
} as const satisfies Record<string, CatalogueEntry>;

/** Every known error code. */
export type KnownErrorCode = keyof typeof errorCatalogue;

/** True when `code` names a catalogue entry. */
export function isKnownErrorCode(code: string): code is KnownErrorCode {
  return Object.prototype.hasOwnProperty.call(errorCatalogue, code);
}
