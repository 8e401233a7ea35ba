export { createUser } from './create-user.ts';
export { getCurrentUser } from './get-current-user.ts';
export { insertNewUser, finishUserCreation, onUserCreated, personalTeamName, type NewUserFields } from './create.ts';
export { findUser, findUserByAuthEmail, updateUser, deleteUser, type UserRow } from './queries.ts';
export { toClientUser, toServerUser, toUserForAccess } from './wire.ts';
export { userFieldsToColumns, emailTakenError } from './apply-fields.ts';
export { restrictedReasonOf } from './restriction.ts';
