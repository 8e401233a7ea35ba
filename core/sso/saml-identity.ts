import type { Profile } from '@node-saml/node-saml';
import { KnownError } from '../errors/index.ts';
import type { ProviderUserInfo } from '../auth-oauth/index.ts';
import type { AttributeMapping } from './connection.ts';
import { groupValues } from './group-permissions.ts';

/** Attribute names IdPs commonly use for the address (Okta, Entra ID, Google Workspace, eduPerson `mail`). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailaddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
/** …and for the display name. */
const NAME_ATTRIBUTES = [
  'name',
  'displayName',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  'urn:oid:2.16.840.1.113730.3.1.241',
];
const GIVEN = ['givenName', 'firstName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'];
const FAMILY = ['sn', 'surname', 'lastName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4'];

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

function first(attributes: Record<string, unknown>, names: readonly string[]): string | null {
  for (const name of names) {
    const raw = attributes[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 256);
  }
  return null;
}

/**
 * The account a validated SAML assertion names: `NameID` as the account id (its format's
 * stability is the IdP's promise: persistent ids are recommended, docs/sso.md), the address from
 * the mapped attribute (or the common names, or an email-format NameID), the display name from the
 * mapped attribute (or the common names, or given + family name).
 *
 * @throws KnownError SSO_RESPONSE_INVALID `reason: no subject` when the assertion has no NameID
 */
export function samlIdentity(profile: Profile, mapping: AttributeMapping): Omit<ProviderUserInfo, 'emailVerified'> {
  const accountId = typeof profile.nameID === 'string' ? profile.nameID.trim() : '';
  if (!accountId || accountId.length > 1024) throw new KnownError('SSO_RESPONSE_INVALID', { reason: 'no subject' });
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const mappedEmail = first(attributes, mapping.email ? [mapping.email] : EMAIL_ATTRIBUTES);
  const fromNameId = profile.nameIDFormat === EMAIL_FORMAT || EMAIL_SHAPE.test(accountId) ? accountId : null;
  const candidate = mappedEmail ?? fromNameId;
  const email = candidate && EMAIL_SHAPE.test(candidate) ? candidate : null;
  const given = first(attributes, GIVEN);
  const family = first(attributes, FAMILY);
  const displayName =
    first(attributes, mapping.name ? [mapping.name] : NAME_ATTRIBUTES) ?? ([given, family].filter(Boolean).join(' ') || null);
  return { accountId, email, displayName, profileImageUrl: null };
}

/** Attribute names IdPs commonly use for group membership (Okta's configured `groups`, Entra ID's groups claim, AD FS, LDAP). */
const GROUP_ATTRIBUTES = [
  'groups',
  'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
  'http://schemas.xmlsoap.org/claims/Group',
  'memberOf',
];

/** The groups a validated assertion names: the mapped attribute's values, or the first common group attribute present. */
export function samlGroups(profile: Profile, mapping: AttributeMapping): string[] {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const name = (mapping.groups ? [mapping.groups] : GROUP_ATTRIBUTES).find((n) => attributes[n] !== undefined);
  return name === undefined ? [] : groupValues(attributes[name]);
}
