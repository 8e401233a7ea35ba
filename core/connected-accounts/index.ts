export { createConnectedAccountAccessToken } from './create-connected-account-access-token.ts';
export { createAccountAccessToken } from './create-account-access-token.ts';
export { createCurrentUserAccessToken } from './create-current-user-access-token.ts';
export { listConnectedAccounts } from './list-connected-accounts.ts';
