/**
 * What other domains may use of users: rows, lookups, creation steps, wire shapes and rules. The
 * operations are in ./operations.ts (for the registry), so that importing these helpers never
 * pulls in the operations and their imports (passkeys, MFA), which would close import cycles.
 */
export { insertNewUser, finishUserCreation, upgradeAnonymousUser, type NewUserFields } from './create.ts';
export { getUser } from './get-user.ts';
export { deleteUserAndNotify } from './delete.ts';
export { findUser, findUserByAuthEmail, updateUser, type UserRow } from './queries.ts';
export { toServerUser, ServerUserOutput } from './wire.ts';
export { emailTakenError } from './apply-fields.ts';
export { restrictedReasonOf } from './restriction.ts';
export { onPrimaryEmailChange } from './primary-email.ts';
