import type { AnyOperation } from './define.ts';
import * as meta from '../meta/index.ts';
import * as teams from '../teams/operations.ts';
import * as permissions from '../permissions/index.ts';
import * as apiKeys from '../api-keys/index.ts';
import * as teamInvitations from '../team-invitations/index.ts';
import * as projects from '../projects/operations.ts';
import * as internalApiKeys from '../internal-api-keys/index.ts';
import * as oauthProvider from '../oauth-provider/index.ts';
import * as sessions from '../sessions/index.ts';
import * as users from '../users/operations.ts';
import * as authOtp from '../auth-otp/index.ts';
import * as contactChannels from '../contact-channels/index.ts';
import * as emails from '../emails/index.ts';
import * as notifications from '../notifications/index.ts';
import * as authPassword from '../auth-password/operations.ts';
import * as anonymous from '../anonymous/index.ts';
import * as metrics from '../metrics/index.ts';
import * as webhooks from '../webhooks/index.ts';
// mfa
import * as mfa from '../mfa/index.ts';
// cli-auth
import * as cliAuth from '../cli-auth/index.ts';
// passkeys
import * as passkeys from '../passkeys/index.ts';
import * as authOauth from '../auth-oauth/index.ts';
import * as connectedAccounts from '../connected-accounts/index.ts';
// config
import * as configModel from '../config/index.ts';
import * as dataVault from '../data-vault/index.ts';
// analytics
import * as analytics from '../analytics/index.ts';
// sign-up rules
import * as signUpRules from '../sign-up-rules/index.ts';
// payments
import * as payments from '../payments/index.ts';
// dashboard assistant
import * as aiChat from '../ai-chat/index.ts';
import * as feedback from '../feedback/index.ts';
// bot challenges
import * as botChallenge from '../bot-challenge/index.ts';
// bulk user import
import * as userImport from '../user-import/index.ts';
// verified team domains and SCIM tokens (issue 32)
import * as teamDomains from '../team-domains/index.ts';
import * as scim from '../scim/index.ts';
// team SSO connections
import * as sso from '../sso/index.ts';

/**
 * Every operation of the API, in one list. Routes, the in-process API and the route tests are
 * derived from it. Add a domain's operations here when it lands.
 */
export const operations: readonly AnyOperation[] = [
  metrics.getMetrics,
  metrics.getUserCounts,
  metrics.getUserActivity,
  meta.apiRoot,
  meta.jwks,
  meta.anonymousJwks,
  meta.restrictedJwks,
  meta.getComponentVersions,
  projects.createProject,
  projects.listProjects,
  projects.getCurrentProject,
  projects.getCurrentProjectAdmin,
  projects.updateCurrentProject,
  projects.deleteCurrentProject,
  projects.transferProject,
  projects.listOwnerTeamMembers,
  internalApiKeys.createInternalApiKey,
  internalApiKeys.listInternalApiKeys,
  internalApiKeys.getInternalApiKey,
  internalApiKeys.updateInternalApiKey,
  oauthProvider.createOauthClient,
  oauthProvider.listOauthClients,
  oauthProvider.getOauthClient,
  oauthProvider.updateOauthClient,
  oauthProvider.deleteOauthClient,
  oauthProvider.createInitialAccessToken,
  oauthProvider.listAuthorizedApps,
  oauthProvider.revokeAuthorizedApp,
  sessions.createSession,
  sessions.refreshCurrentSession,
  sessions.deleteCurrentSession,
  sessions.listSessions,
  sessions.deleteSession,
  users.createUser,
  users.getCurrentUser,
  users.updateCurrentUser,
  users.deleteCurrentUser,
  users.listUsers,
  users.getUserById,
  users.updateUserById,
  users.deleteUserById,
  authPassword.signUpWithPassword,
  authPassword.signInWithPassword,
  authPassword.updatePassword,
  authPassword.setPassword,
  anonymous.signUpAnonymously,
  teams.listTeams,
  teams.createTeam,
  teams.getTeam,
  teams.updateTeam,
  teams.deleteTeam,
  teams.addTeamMember,
  teams.removeTeamMember,
  teams.listTeamMemberProfiles,
  teams.getTeamMemberProfile,
  teams.updateTeamMemberProfile,
  permissions.listTeamPermissionDefinitions,
  permissions.createTeamPermissionDefinition,
  permissions.updateTeamPermissionDefinition,
  permissions.deleteTeamPermissionDefinition,
  permissions.listProjectPermissionDefinitions,
  permissions.createProjectPermissionDefinition,
  permissions.updateProjectPermissionDefinition,
  permissions.deleteProjectPermissionDefinition,
  permissions.listTeamPermissions,
  permissions.grantTeamPermission,
  permissions.revokeTeamPermission,
  permissions.listProjectPermissions,
  permissions.grantProjectPermission,
  permissions.revokeProjectPermission,
  apiKeys.createUserApiKey,
  apiKeys.listUserApiKeys,
  apiKeys.getUserApiKey,
  apiKeys.updateUserApiKey,
  apiKeys.checkUserApiKey,
  apiKeys.createTeamApiKey,
  apiKeys.listTeamApiKeys,
  apiKeys.getTeamApiKey,
  apiKeys.updateTeamApiKey,
  apiKeys.checkTeamApiKey,
  teamInvitations.sendTeamInvitation,
  teamInvitations.listTeamInvitations,
  teamInvitations.revokeTeamInvitation,
  teamInvitations.acceptTeamInvitation,
  teamInvitations.checkTeamInvitationCode,
  teamInvitations.getTeamInvitationDetails,
  teamInvitations.acceptTeamInvitationById,
  authOtp.sendSignInCode,
  authOtp.signInWithOtp,
  authOtp.checkSignInCode,
  contactChannels.listContactChannels,
  contactChannels.createContactChannel,
  contactChannels.getContactChannel,
  contactChannels.updateContactChannel,
  contactChannels.deleteContactChannel,
  contactChannels.sendChannelVerificationCode,
  contactChannels.sendVerificationCode,
  contactChannels.verifyEmail,
  contactChannels.checkContactChannelVerificationCode,
  authPassword.sendResetCode,
  authPassword.checkResetCode,
  authPassword.resetPassword,
  notifications.listNotificationPreferences,
  notifications.updateNotificationPreference,
  emails.listEmails,
  emails.sendEmail,
  emails.renderEmail,
  emails.sendTestEmail,
  emails.sendSignInInvitation,
  emails.listEmailThemes,
  emails.createEmailTheme,
  emails.getEmailTheme,
  emails.updateEmailTheme,
  emails.deleteEmailTheme,
  emails.listEmailTemplates,
  emails.createEmailTemplate,
  emails.getEmailTemplate,
  emails.updateEmailTemplate,
  emails.deleteEmailTemplate,
  emails.listEmailDrafts,
  emails.createEmailDraft,
  emails.getEmailDraft,
  emails.updateEmailDraft,
  emails.deleteEmailDraft,
  // email outbox API
  emails.listOutboxEmails,
  emails.getOutboxEmail,
  emails.updateOutboxEmail,
  emails.getDeliveryInfo,
  emails.boostEmailCapacity,
  emails.runEmailQueueStep,
  emails.sendFailedEmailsDigest,
  emails.checkEmailHealth,
  notifications.unsubscribeViaLink,
  notifications.unsubscribeOneClick,
  // webhooks
  webhooks.createWebhookEndpoint,
  webhooks.listWebhookEndpoints,
  webhooks.getWebhookEndpoint,
  webhooks.updateWebhookEndpoint,
  webhooks.deleteWebhookEndpoint,
  webhooks.rotateWebhookSecret,
  webhooks.listWebhookDeliveries,
  webhooks.retryWebhookDelivery,
  webhooks.sendTestWebhook,
  webhooks.svixToken,
  // mfa
  mfa.signInWithMfa,
  mfa.checkMfaAttemptCode,
  mfa.createRecoveryCodes,
  mfa.getRecoveryCodeStatus,
  // cli-auth
  cliAuth.createCliAuth,
  cliAuth.pollCliAuth,
  cliAuth.completeCliAuth,
  // passkeys
  passkeys.initiatePasskeyRegistration,
  passkeys.registerPasskey,
  passkeys.initiatePasskeyAuthentication,
  passkeys.signInWithPasskey,
  passkeys.listPasskeys,
  passkeys.deletePasskey,
  // auth-oauth
  authOauth.oauthToken,
  authOauth.authorizeOAuth,
  authOauth.oauthCallback,
  authOauth.oauthCallbackFormPost,
  authOauth.crossDomainAuthorize,
  authOauth.appleNativeSignIn,
  authOauth.devProviderAuthorizePage,
  authOauth.devProviderAuthorize,
  authOauth.devProviderToken,
  authOauth.devProviderJwks,
  authOauth.devProviderDiscovery,
  authOauth.listOAuthProviders,
  authOauth.getOAuthProvider,
  authOauth.updateOAuthProvider,
  authOauth.deleteOAuthProvider,
  authOauth.createOAuthProvider,
  connectedAccounts.createConnectedAccountAccessToken,
  connectedAccounts.createAccountAccessToken,
  connectedAccounts.createCurrentUserAccessToken,
  connectedAccounts.listConnectedAccounts,
  // config
  configModel.getConfig,
  configModel.getConfigOverride,
  configModel.setConfigOverride,
  configModel.updateConfigOverride,
  configModel.resetConfigOverrideKeys,
  configModel.getConfigSource,
  configModel.unlinkConfigSource,
  configModel.getConfigOrigins,
  dataVault.setDataVaultValue,
  dataVault.getDataVaultValue,
  dataVault.listDataVaultStores,
  meta.checkFeatureSupport,
  // analytics
  analytics.uploadEventBatch,
  signUpRules.testSignUpRules,
  signUpRules.getSignUpRulesStats,
  // payments
  payments.getItem,
  payments.updateItemQuantity,
  payments.createPurchaseUrl,
  payments.validatePurchaseCode,
  payments.purchaseSession,
  payments.testModePurchaseSession,
  payments.testModePurchase,
  payments.listCustomerProducts,
  payments.grantCustomerProduct,
  payments.listTransactions,
  payments.refundTransaction,
  payments.stripeWebhook,
  payments.getStripeAccountInfo,
  payments.setStripeKeys,
  payments.deleteStripeKeys,
  payments.setupPayments,
  payments.cancelSubscription,
  payments.switchProduct,
  payments.getBilling,
  payments.listInvoices,
  payments.getMethodConfigs,
  payments.updateMethodConfigs,
  payments.createSetupIntent,
  payments.setDefaultPaymentMethod,
  payments.createAccountSession,
  // dashboard assistant
  aiChat.listChatThreads,
  aiChat.postChat,
  aiChat.appendChatMessage,
  aiChat.getChatThread,
  aiChat.deleteChatThread,
  aiChat.getAssistantSettings,
  aiChat.updateAssistantSettings,
  aiChat.aiQuery,
  feedback.submitFeedback,
  // bot challenges
  botChallenge.getTurnstileSettings,
  botChallenge.setTurnstileSettings,
  botChallenge.deleteTurnstileSettings,
  sso.createSsoConnection,
  sso.listSsoConnections,
  sso.getSsoConnection,
  sso.updateSsoConnection,
  sso.deleteSsoConnection,
  sso.refreshSsoConnectionMetadata,
  sso.discoverSso,
  sso.getSsoSpMetadata,
  sso.ssoAuthorize,
  sso.ssoSamlAcs,
  sso.ssoOidcCallback,
  // bulk user import
  userImport.importUsers,
  userImport.exportUsers,
  userImport.exportUsersSealed,
  // verified team domains (issue 32)
  teamDomains.createTeamDomain,
  teamDomains.listTeamDomains,
  teamDomains.updateTeamDomain,
  teamDomains.deleteTeamDomain,
  teamDomains.verifyTeamDomain,
  // SCIM provisioning tokens (issue 32); the SCIM endpoints themselves: server-bin/api/scim.ts
  scim.createScimToken,
  scim.listScimTokens,
  scim.deleteScimToken,
];
