/**
 * The event types Gatehouse sends, with Stack Auth's names (upstream
 * `https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/*.ts`, `*WebhookEvent`). Pure data, importing nothing,
 * so the dashboard bundles it too.
 * - `user.created` / `user.updated`: `data` is the server user object (as `GET /users/{id}`);
 *   `user.deleted`: `{ id, teams: [{ id }] }` (the teams the user was in).
 * - `team.created` / `team.updated`: the server team object; `team.deleted`: `{ id }`.
 * - `team_membership.created|deleted`: `{ team_id, user_id }`.
 * - `team_permission.created|deleted`: `{ id, user_id, team_id }`;
 *   `project_permission.created|deleted`: `{ id, user_id }`.
 * - Gatehouse's own (issue 32): `team_domain.created|verified|deleted`: `{ team_id, domain }`;
 *   `team_domain.updated`: the domain object (as `GET /teams/{id}/domains`);
 *   `scim_user.provisioned|updated|deprovisioned`: `{ team_id, user_id, active }` (deprovisioned:
 *   `deleted` too); `scim_group.created|updated|deleted`: `{ team_id, group_id, display_name }`;
 *   `sso_connection.created|updated`: the connection object (as `GET /teams/{id}/sso-connections/{id}`,
 *   never a secret); `sso_connection.deleted`: `{ id, team_id }`.
 * - Gatehouse's own (issue 31, the identity provider): `oauth_grant.created`: a user authorized a
 *   client (consent given, or a `skip_consent` client approved), `{ grant_id, client_id, user_id,
 *   scopes }`; `oauth_grant.revoked`: that authorization ended (the user revoked the app, the
 *   client revoked a refresh token, a reused refresh token), `{ grant_id, client_id, user_id }`.
 * - `stack.test`: the dashboard's test event (`POST /internal/send-test-webhook`), never subscribed to.
 */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'team.created',
  'team.updated',
  'team.deleted',
  'team_membership.created',
  'team_membership.deleted',
  'team_permission.created',
  'team_permission.deleted',
  'project_permission.created',
  'project_permission.deleted',
  'team_domain.created',
  'team_domain.updated',
  'team_domain.verified',
  'team_domain.deleted',
  'scim_user.provisioned',
  'scim_user.updated',
  'scim_user.deprovisioned',
  'scim_group.created',
  'scim_group.updated',
  'scim_group.deleted',
  'oauth_grant.created',
  'oauth_grant.revoked',
  'sso_connection.created',
  'sso_connection.updated',
  'sso_connection.deleted',
  'stack.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The types an endpoint may subscribe to: every type but the test event. */
export const SUBSCRIBABLE_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((t): t is Exclude<WebhookEventType, 'stack.test'> => t !== 'stack.test');
