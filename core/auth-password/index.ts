/**
 * What other domains may use of passwords: hashing and the password rules. The operations are in
 * ./operations.ts (for the registry), so that users can hash and check passwords without
 * importing the sign-up and sign-in operations, which import users (an import cycle).
 */
export type { PasswordSignUpInfo } from './sign-up-info.ts';
export {
  configurePasswordHashing,
  passwordHashingStats,
  hashPassword,
  PASSWORD_HASH_COST,
  TEST_PASSWORD_HASH_COST,
  type PasswordHashCost,
} from './hashing.ts';
export { firebaseScryptHash, isSupportedPasswordHash } from './hash-formats.ts';
export { assertPasswordAcceptable, assertPasswordNotTooLong } from './rules.ts';
