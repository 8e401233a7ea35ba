/**
 * Transport security headers for every response (ASVS 5.0 V3.4): browsers must
 * not sniff content types, and with an https base URL they keep to https for a year, on
 * subdomains too (RFC 6797). No HSTS over http: browsers ignore it there.
 *
 * @returns header name → value pairs.
 */
export function securityHeaders(baseUrl: string): Array<[string, string]> {
  const headers: Array<[string, string]> = [['x-content-type-options', 'nosniff']];
  if (baseUrl.startsWith('https:')) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}
