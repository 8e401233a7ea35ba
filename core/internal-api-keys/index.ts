export { createInternalApiKey } from './create-internal-api-key.ts';
export { listInternalApiKeys } from './list-internal-api-keys.ts';
export { getInternalApiKey } from './get-internal-api-key.ts';
export { updateInternalApiKey } from './update-internal-api-key.ts';
export { generateKeyValues, storeKeySet, type ProjectKeyValues } from './generate.ts';
export { hasValidProjectKey } from './queries.ts';
