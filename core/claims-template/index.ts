import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { UserRow } from '../users/index.ts';
import { parseClaimsTemplate, renderClaims, type ParsedTemplate } from '../lib/claims-template.ts';
import { templateContext } from './template-context.ts';

/** Parsed templates by their JSON text: a project's template is parsed once, not per token. */
const parsedTemplates = new Map<string, Array<[string, ParsedTemplate]>>();

/**
 * The custom claims of a project's claims template (`oidc.claimsTemplate`, core/lib/claims-template.ts) for
 * `user`: added to Gatehouse's own access tokens and to the identity provider's ID tokens,
 * userinfo and JWT access tokens. Empty (and no query) when the project has no template.
 */
export async function customClaims(
  db: Kysely<Database>,
  projectId: string,
  template: Readonly<Record<string, string>>,
  user: UserRow,
): Promise<Record<string, unknown>> {
  if (Object.keys(template).length === 0) return {};
  const key = JSON.stringify(template);
  let claims = parsedTemplates.get(key);
  if (!claims) {
    if (parsedTemplates.size >= 500) parsedTemplates.clear();
    claims = parseClaimsTemplate(template);
    parsedTemplates.set(key, claims);
  }
  return renderClaims(claims, await templateContext(db, projectId, user, claims));
}
