import { optionalString, boundedString, scimBoolean, ScimError } from './protocol.ts';
import { assignments, readPatchBody } from './patch.ts';
import { applyUserAttributes, currentAttributes, getScimUser, readUserBody, type UserAttributes } from './users.ts';
import type { ScimScope } from './scope.ts';

const USER_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:user:/i;

/**
 * `PATCH /Users/{id}` (RFC 7644 §3.5.2): add, replace or remove `active`, `userName`,
 * `externalId`, `displayName`, `name.givenName`, `name.familyName`; `emails` (and its filtered
 * paths) and `name.formatted` are accepted and ignored (the account's email is the app's), as are
 * unknown attributes inside a path-less value object. Setting
 * `active` false deprovisions at once (membership and every session); true provisions again.
 * 400 `invalidPath` for other paths, `mutability` for removing `userName` or `active`.
 */
export async function patchScimUser(scope: ScimScope, userId: string, body: unknown): Promise<Record<string, unknown>> {
  const operations = readPatchBody(body);
  const { row, user } = await getScimUser(scope, userId);
  const next: UserAttributes = currentAttributes(row, user);
  for (const operation of operations) {
    for (const [rawPath, value] of assignments(operation)) {
      const path = rawPath.replace(USER_PREFIX, '').toLowerCase();
      const remove = operation.op === 'remove';
      switch (path) {
        case 'active':
          if (remove) throw new ScimError(400, 'active cannot be removed.', 'mutability');
          next.active = scimBoolean(value, 'active');
          break;
        case 'username':
          if (remove) throw new ScimError(400, 'userName cannot be removed.', 'mutability');
          next.userName = boundedString(value, 'userName');
          break;
        case 'externalid':
          next.externalId = remove ? null : optionalString(value, 'externalId');
          break;
        case 'displayname':
          next.displayName = remove ? null : optionalString(value, 'displayName');
          break;
        case 'name.givenname':
          next.givenName = remove ? null : optionalString(value, 'name.givenName');
          break;
        case 'name.familyname':
          next.familyName = remove ? null : optionalString(value, 'name.familyName');
          break;
        default:
          if (path === 'name.formatted' || path === 'emails' || path.startsWith('emails[') || path.startsWith('emails.')) break;
          // Attributes Gatehouse does not keep are ignored inside a value object (clients send
          // whole profiles), refused when named as the path.
          if (operation.path === null || path === 'schemas' || path === 'id' || path === 'meta') break;
          throw new ScimError(400, `Unsupported path ${rawPath}.`, 'invalidPath');
      }
    }
  }
  return applyUserAttributes(scope, userId, next);
}

/** `PUT /Users/{id}` (RFC 7644 §3.5.1): replaces the user's attributes with the body's (an absent `active` means true). */
export async function replaceScimUser(scope: ScimScope, userId: string, body: unknown): Promise<Record<string, unknown>> {
  const attrs = readUserBody(body);
  return applyUserAttributes(scope, userId, attrs);
}
