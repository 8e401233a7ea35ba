/**
 * What other domains may use of users: rows, lookups, creation steps, wire shapes and rules. The
 * operations are in ./operations.ts (for the registry), so that importing these helpers never
 * pulls in the operations and their imports (passkeys, MFA), which would close import cycles.
 */
export { insertNewUser, finishUserCreation, personalTeamName, upgradeAnonymousUser, type NewUserFields } from './create.ts';
export { getUser } from './get-user.ts';
export { findUser, findUserByAuthEmail, findOtherUserByAuthEmail, updateUser, deleteUser, type UserRow } from './queries.ts';
export { toClientUser, toServerUser, toUserForAccess, ClientUserOutput, ServerUserOutput, UserOutput } from './wire.ts';
export { userFieldsToColumns, emailTakenError } from './apply-fields.ts';
export { restrictedReasonOf } from './restriction.ts';
export { onPrimaryEmailChange, applyPrimaryEmailChange } from './primary-email.ts';
