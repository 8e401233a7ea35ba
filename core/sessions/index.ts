export { createSession } from './create-session.ts';
export { refreshCurrentSession } from './refresh-current-session.ts';
export { deleteCurrentSession } from './delete-current-session.ts';
export { listSessions } from './list-sessions.ts';
export { deleteSession } from './delete-session.ts';
export { issueSession, refreshSession } from './issue.ts';
export { findRefreshTokenByHash, findRefreshToken } from './queries.ts';
export { revokeAfterPasswordChange, callerSessionOf } from './credential-change.ts';
export { revokeUserSessions } from './revoke.ts';
