export { apiRoot } from './api-root.ts';
export { jwks, anonymousJwks, restrictedJwks } from './jwks.ts';
