import { sha256Hex } from '../lib/hash.ts';
import { defaultProjectConfig } from '../config/project-config.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { createSystemContext } from '../operations/execute.ts';
import type { Runtime } from '../runtime.ts';
import { generateKeyValues, hasValidProjectKey, storeKeySet, type ProjectKeyValues } from '../internal-api-keys/index.ts';
import { findProject, insertProject, lockInternalProjectSeeding, type Project } from './queries.ts';
import { runProjectCreatedHooks } from './lifecycle.ts';

/** Keys to seed the internal project with (`GATEHOUSE_SEED_INTERNAL_*` environment variables). */
export interface SeedKeys {
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
}

/**
 * Ensures the internal project exists (upstream apps/backend/prisma/seed.ts): sign-up on, localhost allowed,
 * create-team-on-sign-up, client team creation, magic link / OTP on.
 *
 * Keys: seeded ones are stored (hashed) if not already present; otherwise, when the project has
 * no key set at all, a full set is generated and returned so the caller prints it once.
 *
 * Safe when several processes start at once on one database: seeding is serialized
 * (lockInternalProjectSeeding), so exactly one of them creates the project and generates keys.
 *
 * @returns the generated keys, or null when none were generated.
 */
export async function ensureInternalProject(runtime: Runtime, seed: SeedKeys = {}): Promise<{ generatedKeys: ProjectKeyValues | null }> {
  const ctx = createSystemContext(runtime);
  const result = await ctx.transaction(async (tx) => {
    await lockInternalProjectSeeding(tx.db, runtime.storage.dialect);
    if (!(await findProject(tx.db, INTERNAL_PROJECT_ID))) {
      const project: Project = {
        id: INTERNAL_PROJECT_ID,
        displayName: 'Gatehouse Dashboard',
        description: 'The dashboard of this Gatehouse server; its users own the other projects.',
        createdAt: tx.now,
        isProductionMode: false,
        isDevelopmentEnvironment: false,
        ownerTeamId: null,
        logoUrl: null,
        logoFullUrl: null,
        logoDarkModeUrl: null,
        logoFullDarkModeUrl: null,
        config: {
          ...defaultProjectConfig(),
          signUpEnabled: true,
          allowLocalhost: true,
          createTeamOnSignUp: true,
          clientTeamCreationEnabled: true,
          magicLinkEnabled: true,
        },
      };
      await insertProject(tx.db, project);
      await runProjectCreatedHooks(tx, project);
    }

    const seeded: ProjectKeyValues = {
      ...(seed.publishableClientKey ? { publishable_client_key: seed.publishableClientKey } : {}),
      ...(seed.secretServerKey ? { secret_server_key: seed.secretServerKey } : {}),
      ...(seed.superSecretAdminKey ? { super_secret_admin_key: seed.superSecretAdminKey } : {}),
    };
    if (Object.keys(seeded).length > 0) {
      const missing: ProjectKeyValues = {};
      for (const [kind, value] of Object.entries(seeded) as Array<[keyof ProjectKeyValues, string]>) {
        if (!(await hasValidProjectKey(tx.db, INTERNAL_PROJECT_ID, kind, sha256Hex(value), tx.now))) missing[kind] = value;
      }
      if (Object.keys(missing).length > 0) {
        await storeKeySet(tx.db, INTERNAL_PROJECT_ID, missing, {
          description: 'Seeded from the environment',
          now: tx.now,
          expiresAt: null,
        });
      }
      return { generatedKeys: null };
    }
    const existing = await tx.db
      .selectFrom('internal_api_keys')
      .select('id')
      .where('project_id', '=', INTERNAL_PROJECT_ID)
      .executeTakeFirst();
    if (existing) return { generatedKeys: null };
    const values = generateKeyValues({ publishable: true, secret: true, admin: true });
    await storeKeySet(tx.db, INTERNAL_PROJECT_ID, values, { description: 'Generated on first start', now: tx.now, expiresAt: null });
    return { generatedKeys: values };
  });
  await ctx.flush();
  return result;
}
