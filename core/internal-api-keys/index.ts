export { createInternalApiKey } from './create-internal-api-key.ts';
export { listInternalApiKeys, getInternalApiKey, updateInternalApiKey } from './read-internal-api-keys.ts';
export { generateKeyValues, storeKeySet, type ProjectKeyValues } from './generate.ts';
export { hasValidProjectKey } from './queries.ts';
