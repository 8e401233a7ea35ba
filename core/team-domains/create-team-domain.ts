import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { secureRandomString } from '../lib/random.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from './access.ts';
import { countTeamDomains, findTeamDomain, insertTeamDomain, MAX_DOMAINS_PER_TEAM } from './queries.ts';
import { DomainSchema, TeamDomainOutput, TeamParamsSchema, toTeamDomain } from './schemas.ts';

/**
 * `POST /teams/{team_id}/domains {domain}`: the team claims an email domain and gets its DNS
 * challenge: a TXT record named `_gatehouse-challenge.<domain>` holding `challenge.value` (a
 * random 160-bit string), to publish and then prove with `POST …/domains/{domain}/verify`.
 * The domain is normalized (lowercase, punycode). Server and admin callers, or a client with
 * `$manage_sso` in the team. At most 50 domains per team (SCHEMA_ERROR beyond).
 *
 * Errors: TEAM_NOT_FOUND, TEAM_PERMISSION_REQUIRED, TEAM_DOMAIN_ALREADY_EXISTS (this team claims it
 * already). Another team may claim the same domain; only one can hold it verified at a time.
 * Emits `team_domain.created`.
 */
export const createTeamDomain = defineOperation({
  id: 'teamDomains.create',
  method: 'POST',
  path: '/teams/:team_id/domains',
  summary: 'Claim an email domain for a team; answers the DNS TXT challenge that proves it.',
  access: ['client', 'server', 'admin'],
  input: { params: TeamParamsSchema, body: v.strictObject({ domain: DomainSchema }) },
  errors: [...MANAGE_SSO_ERRORS, 'TEAM_DOMAIN_ALREADY_EXISTS', 'SCHEMA_ERROR'],
  created: true,
  output: TeamDomainOutput,
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    const create = ctx.transaction(async (tx) => {
      await requireCanManageSso(tx, params.team_id);
      if (await findTeamDomain(tx.db, projectId, params.team_id, body.domain)) {
        throw new KnownError('TEAM_DOMAIN_ALREADY_EXISTS', { team_id: params.team_id, domain: body.domain });
      }
      if ((await countTeamDomains(tx.db, projectId, params.team_id)) >= MAX_DOMAINS_PER_TEAM) {
        throw new KnownError('SCHEMA_ERROR', { message: `A team may claim at most ${MAX_DOMAINS_PER_TEAM} domains.` });
      }
      const row = {
        project_id: projectId,
        team_id: params.team_id,
        domain: body.domain,
        challenge_value: `gatehouse-domain-verification=${secureRandomString(160)}`,
        verified_domain: null,
        verified_at: null,
        sso_enforced: false,
        created_at: tx.now,
      };
      await insertTeamDomain(tx.db, row);
      await emitWebhookEvent(tx, projectId, 'team_domain.created', { team_id: row.team_id, domain: row.domain });
      return toTeamDomain(row);
    });
    // The same claim sent twice at once: the primary key decides.
    return create.catch((error: unknown) => {
      if (ctx.runtime.storage.isUniqueViolation(error))
        throw new KnownError('TEAM_DOMAIN_ALREADY_EXISTS', { team_id: params.team_id, domain: body.domain });
      throw error;
    });
  },
});
