/**
 * What other domains may use of passwords: hashing and the password rules. The operations are in
 * ./operations.ts (for the registry), so that users can hash and check passwords without
 * importing the sign-up and sign-in operations, which import users (an import cycle).
 */
export type { PasswordSignUpInfo } from './sign-up-info.ts';
export { configurePasswordHashing, passwordHashingStats, hashPassword, verifyPassword, verifyAgainstDummy } from './hashing.ts';
export { firebaseScryptHash, isSupportedPasswordHash } from './hash-formats.ts';
export { assertPasswordAcceptable, assertPasswordNotTooLong, PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_RULE_ERRORS } from './rules.ts';
