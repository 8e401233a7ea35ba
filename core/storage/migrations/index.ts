import type { Migration } from 'kysely';
import { compat } from './0011-compat.ts';
import { foundation } from './0001-foundation.ts';
import { email } from './0003-email.ts';
import { teamsPermissions } from './0004-teams-permissions.ts';
import { activity } from './0005-activity.ts';
import { security } from './0009-security.ts';
import { webhooks } from './0015-webhooks.ts';
import { emailHeaders } from './0015a-email-headers.ts';
import { mfaCli } from './0006-mfa-cli.ts';
import { passkeys } from './0007-passkeys.ts';
import { oauth } from './0013-oauth.ts';
import { config } from './0014-config.ts';
import { scale } from './0017-scale.ts';
import { signUpRules } from './0019-sign-up-rules.ts';
import { primaryChannelIdColumn } from './0020-primary-channel-id.ts';
import { payments } from './0016-payments.ts';
import { aiChat } from './0018-ai-chat.ts';
import { turnstile } from './0021-turnstile.ts';
import { trustInput } from './0021-trust-input.ts';
import { teamDomainsScim } from './0022-team-domains-scim.ts';
import { localeDevices } from './0022-locale-devices.ts';
import { sso } from './0022-sso.ts';
import { ssoConnectionOptions } from './0023-sso-connection-options.ts';
import { oauthProvider } from './0022-oauth-provider.ts';
import { paymentInvoices } from './0023-payment-invoices.ts';
import { paymentRefunds } from './0023-payment-refunds.ts';
import { importSourceId } from './0023-import-source-id.ts';
import { emailCapacity } from './0023-email-capacity.ts';
import { paymentStripeOutbox } from './0024-payment-stripe-outbox.ts';

/**
 * The one static migration list, in order. Static imports (no folder scan) so the single
 * executable carries its migrations. Append only; never edit a migration that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0003-email': email,
  '0004-teams-permissions': teamsPermissions,
  '0005-activity': activity,
  '0015-webhooks': webhooks,
  '0015a-email-headers': emailHeaders,
  '0006-mfa-cli': mfaCli,
  '0007-passkeys': passkeys,
  '0009-security': security,
  '0013-oauth': oauth,
  '0014-config': config,
  '0011-compat': compat,
  '0017-scale': scale,
  '0019-sign-up-rules': signUpRules,
  '0020-primary-channel-id': primaryChannelIdColumn,
  '0016-payments': payments,
  '0018-ai-chat': aiChat,
  '0021-turnstile': turnstile,
  '0021-trust-input': trustInput,
  '0022-team-domains-scim': teamDomainsScim,
  '0022-locale-devices': localeDevices,
  '0022-sso': sso,
  '0022-oauth-provider': oauthProvider,
  '0023-payment-invoices': paymentInvoices,
  '0023-payment-refunds': paymentRefunds,
  '0023-import-source-id': importSourceId,
  '0023-sso-connection-options': ssoConnectionOptions,
  '0023-email-capacity': emailCapacity,
  '0024-payment-stripe-outbox': paymentStripeOutbox,
};
