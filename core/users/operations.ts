/** The users domain's operations, listed by the registry (core/operations/registry.ts). */
export { createUser } from './create-user.ts';
export { getCurrentUser } from './get-current-user.ts';
export { updateCurrentUser } from './update-current-user.ts';
export { deleteCurrentUser } from './delete-current-user.ts';
export { getUserById } from './get-user-by-id.ts';
export { updateUserById } from './update-user-by-id.ts';
export { deleteUserById } from './delete-user-by-id.ts';
export { listUsers } from './list-users.ts';
