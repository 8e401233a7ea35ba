/**
 * Team membership checks, below both teams and permissions (and request authentication), so
 * that none of them has to import another for the one question they share: is this user a
 * member of this team?
 */
export { isTeamMember } from './queries.ts';
