import type * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { uuid } from '../lib/random.ts';
import { findUser } from '../users/index.ts';
import { findTeam } from '../teams/index.ts';
import { resolveMe } from '../auth/user-id.ts';
import { requireCanManage, requireKeysEnabled } from './access.ts';
import { insertApiKey, type ApiKeyRow } from './queries.ts';
import { TeamKeyCreateSchema, UserKeyCreateSchema } from './schemas.ts';
import { createApiKeySecret, type ApiKeyType } from './secret.ts';
import { toApiKeyJson, ApiKeyOutput } from './wire.ts';

/** The create operation for one key owner type (`user` or `team`), shared by both owners' operations. */
export function createApiKeyFor<T extends ApiKeyType>(type: T) {
  const schema = type === 'user' ? UserKeyCreateSchema : TeamKeyCreateSchema;
  return defineOperation({
    id: `apiKeys.create${type === 'user' ? 'User' : 'Team'}Key`,
    method: 'POST',
    path: `/${type}-api-keys`,
    summary: `Create a ${type} API key; its full value is shown only in this response.`,
    access: ['client', 'server', 'admin'],
    input: { body: schema },
    errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'USER_NOT_FOUND', 'TEAM_NOT_FOUND', 'API_KEY_NOT_FOUND'],
    output: ApiKeyOutput,
    async run(ctx, { body }) {
      const { project } = ctx.auth;
      requireKeysEnabled(ctx.auth, type);
      const b = body as Partial<v.InferOutput<typeof UserKeyCreateSchema> & v.InferOutput<typeof TeamKeyCreateSchema>>;
      const userId = type === 'user' ? resolveMe(ctx.auth, b.user_id!) : null;
      const teamId = type === 'team' ? b.team_id! : null;
      await requireCanManage(ctx.db, ctx.auth, { userId, teamId });
      const id = uuid();
      const isPublic = b.is_public ?? false;
      const secret = createApiKeySecret({ id, type, isPublic });
      const row: ApiKeyRow = {
        id,
        project_id: project.id,
        type,
        user_id: userId,
        team_id: teamId,
        description: b.description!,
        is_public: isPublic,
        secret_hash: sha256Hex(secret),
        last_four: secret.slice(-4),
        created_at: ctx.now,
        expires_at: b.expires_at_millis ?? null,
        manually_revoked_at: null,
      };
      await ctx.transaction(async (tx) => {
        if (userId && !(await findUser(tx.db, project.id, userId))) throw new KnownError('USER_NOT_FOUND');
        if (teamId && !(await findTeam(tx.db, project.id, teamId))) throw new KnownError('TEAM_NOT_FOUND', { team_id: teamId });
        await insertApiKey(tx.db, row);
      });
      return toApiKeyJson(row, secret);
    },
  });
}
