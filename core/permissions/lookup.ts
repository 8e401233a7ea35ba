import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import { findDefinition } from './queries.ts';
import { isSystemPermission, type PermissionScope } from './schemas.ts';

/**
 * Checks that `permissionId` can be granted in `scope`: a `$` system id (team scope) or a
 * definition of that scope. PERMISSION_NOT_FOUND when it exists nowhere, WRONG_PERMISSION_SCOPE
 * when it belongs to the other scope (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/permissions.tsx).
 */
export async function checkGrantable(db: Kysely<Database>, projectId: string, scope: PermissionScope, permissionId: string): Promise<void> {
  const actual: PermissionScope | null = isSystemPermission(permissionId)
    ? 'team'
    : (((await findDefinition(db, projectId, permissionId))?.scope as PermissionScope | undefined) ?? null);
  if (!actual) throw new KnownError('PERMISSION_NOT_FOUND', { permission_id: permissionId });
  if (actual !== scope)
    throw new KnownError('WRONG_PERMISSION_SCOPE', { permission_id: permissionId, expected_scope: scope, actual_scope: actual });
}
