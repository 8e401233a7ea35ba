/**
 * The input rules the server enforces that clients may check before sending: one public module,
 * free of storage and transport, that the hosted pages, the dashboard and the server share, so a
 * form accepts exactly what the API accepts.
 *
 * - `isValidEmail` / `normalizeEmail`: product-spec §5 email rule; trim + lowercase (wire-protocol §3.7).
 * - `isValidDomainUrl` / `isProductionSafeDomainUrl`: trusted-domain patterns (product-spec §5).
 */
export { isValidEmail, normalizeEmail } from './lib/email.ts';
export { isValidDomainUrl, isProductionSafeDomainUrl } from './config/domains.ts';
