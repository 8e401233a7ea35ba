export { apiRoot } from './api-root.ts';
export { jwks } from './jwks.ts';
export { anonymousJwks } from './anonymous-jwks.ts';
export { restrictedJwks } from './restricted-jwks.ts';
export { checkFeatureSupport } from './check-feature-support.ts';
export { getComponentVersions } from './get-component-versions.ts';
