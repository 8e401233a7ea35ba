export { apiRoot } from './api-root.ts';
export { jwks, anonymousJwks, restrictedJwks } from './jwks.ts';
export { checkFeatureSupport } from './check-feature-support.ts';
export { getComponentVersions } from './get-component-versions.ts';
