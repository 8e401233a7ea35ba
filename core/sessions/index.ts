export { createSession } from './create-session.ts';
export { refreshCurrentSession } from './refresh-session.ts';
export { deleteCurrentSession } from './delete-current-session.ts';
export { listSessions, SessionOutput } from './list-sessions.ts';
export { deleteSession } from './delete-session.ts';
export { issueSession, refreshSession, mintAccessToken, DEFAULT_REFRESH_TOKEN_TTL_MS, type IssuedSession } from './issue.ts';
export { findRefreshTokenByHash, findRefreshToken } from './queries.ts';
export { revokeSession, revokeUserSessions } from './revoke.ts';
export { revokeAfterPasswordChange, callerSessionOf } from './credential-change.ts';
