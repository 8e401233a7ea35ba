import { INTERNAL_PROJECT_ID } from '../../core/index.ts';

/**
 * The hosted page where a user enters a device's user code (RFC 8628 §3.2 `verification_uri`):
 * `<base url>/projects/<id>/handler/device` (`/handler/device` for the internal project). The
 * hosted pages send it on to the issuer's code entry (`<issuer>/device`), keeping `user_code`.
 */
export function deviceVerificationUri(baseUrl: string, projectId: string): string {
  return projectId === INTERNAL_PROJECT_ID ? `${baseUrl}/handler/device` : `${baseUrl}/projects/${projectId}/handler/device`;
}
