import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from './access.ts';
import { lookupTxt } from './dns.ts';
import { findTeamDomain, findVerifiedDomain, updateTeamDomainRow } from './queries.ts';
import { challengeRecordName, TeamDomainOutput, TeamDomainParamsSchema, toTeamDomain } from './schemas.ts';

/**
 * `POST /teams/{team_id}/domains/{domain}/verify`: looks up the TXT records of
 * `_gatehouse-challenge.<domain>` (node's DNS resolver, servers from GATEHOUSE_DNS_SERVERS) and
 * marks the domain verified when one of them equals the challenge value exactly. The lookup runs
 * outside any transaction; a domain already verified answers as it is without a lookup.
 *
 * Errors: TEAM_DOMAIN_NOT_FOUND; TEAM_DOMAIN_VERIFICATION_FAILED `{domain, record_name, reason}`
 * (`no_record`, `wrong_value` or `lookup_failed`; the domain stays unverified);
 * TEAM_DOMAIN_VERIFIED_BY_ANOTHER_TEAM (a domain is verified by one team of a project at a time:
 * that team must delete it first). Emits `team_domain.verified`.
 */
export const verifyTeamDomain = defineOperation({
  id: 'teamDomains.verify',
  method: 'POST',
  path: '/teams/:team_id/domains/:domain/verify',
  summary: "Check a team domain's DNS TXT challenge and mark the domain verified.",
  access: ['client', 'server', 'admin'],
  input: { params: TeamDomainParamsSchema },
  ignoresBody: true,
  errors: [...MANAGE_SSO_ERRORS, 'TEAM_DOMAIN_NOT_FOUND', 'TEAM_DOMAIN_VERIFICATION_FAILED', 'TEAM_DOMAIN_VERIFIED_BY_ANOTHER_TEAM'],
  output: TeamDomainOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    await requireCanManageSso(ctx, params.team_id);
    const row = await findTeamDomain(ctx.db, projectId, params.team_id, params.domain);
    if (!row) throw new KnownError('TEAM_DOMAIN_NOT_FOUND', { team_id: params.team_id, domain: params.domain });
    if (row.verified_at !== null) return toTeamDomain(row);

    const recordName = challengeRecordName(row.domain);
    const lookup = await lookupTxt(ctx.runtime, recordName);
    if (!(lookup.records as readonly string[]).includes(row.challenge_value)) {
      const reason = 'reason' in lookup ? lookup.reason : 'wrong_value';
      throw new KnownError('TEAM_DOMAIN_VERIFICATION_FAILED', { domain: row.domain, record_name: recordName, reason });
    }
    const verify = ctx.transaction(async (tx) => {
      const holder = await findVerifiedDomain(tx.db, projectId, row.domain);
      if (holder && holder.team_id !== row.team_id) throw new KnownError('TEAM_DOMAIN_VERIFIED_BY_ANOTHER_TEAM', { domain: row.domain });
      const current = await findTeamDomain(tx.db, projectId, params.team_id, params.domain);
      if (!current) throw new KnownError('TEAM_DOMAIN_NOT_FOUND', { team_id: params.team_id, domain: params.domain });
      const next = { ...current, verified_domain: current.domain, verified_at: tx.now };
      await updateTeamDomainRow(tx.db, current, { verified_domain: next.verified_domain, verified_at: next.verified_at });
      await emitWebhookEvent(tx, projectId, 'team_domain.verified', { team_id: next.team_id, domain: next.domain });
      return toTeamDomain(next);
    });
    // Two teams verifying at the same moment: the unique index on verified domains decides.
    return verify.catch((error: unknown) => {
      if (ctx.runtime.storage.isUniqueViolation(error))
        throw new KnownError('TEAM_DOMAIN_VERIFIED_BY_ANOTHER_TEAM', { domain: row.domain });
      throw error;
    });
  },
});
