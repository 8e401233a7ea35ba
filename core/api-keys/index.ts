export { createUserApiKey, createTeamApiKey } from './create-api-key.ts';
export { listUserApiKeys, listTeamApiKeys } from './list-api-keys.ts';
export { getUserApiKey, getTeamApiKey } from './get-api-key.ts';
export { updateUserApiKey, updateTeamApiKey } from './update-api-key.ts';
export { checkUserApiKey, checkTeamApiKey } from './check-api-key.ts';
export { createApiKeySecret } from './secret.ts';
export { revokeUserApiKeys } from './revoke-user-api-keys.ts';
