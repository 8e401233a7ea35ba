/**
 * A project's claims template (`oidc.claimsTemplate`): custom claims added to the tokens the
 * project issues, each a claim name mapped to a template string over the signed-in user, their
 * selected team, and their permissions. The language is placeholders only, never code:
 *
 * - `"{{user.server_metadata.plan}}"` — a template that is exactly one placeholder gives the value
 *   as it is (a string, number, boolean, object or array); absent → the claim is left out;
 * - `"tier-{{team.client_metadata.tier}}"` — placeholders inside text are replaced by the value as
 *   text (objects and arrays as JSON; absent or null as empty).
 *
 * Paths (dot-separated): `user.` `id`, `display_name`, `primary_email`, `primary_email_verified`,
 * `profile_image_url`, `signed_up_at` (seconds), `is_anonymous`, `project_permissions` (ids,
 * inherited ones included), `team_ids`, and `client_metadata.…`, `client_read_only_metadata.…`,
 * `server_metadata.…` (any depth); `team.` (the user's selected team, absent when none) `id`,
 * `display_name`, `profile_image_url`, `permissions` (the user's permission ids in it), and its
 * three metadata the same way.
 */

/** Fields of `user.` and `team.`: terminal values, lists, and metadata objects walked further. */
const USER_FIELDS = [
  'id',
  'display_name',
  'primary_email',
  'primary_email_verified',
  'profile_image_url',
  'signed_up_at',
  'is_anonymous',
  'project_permissions',
  'team_ids',
];
const TEAM_FIELDS = ['id', 'display_name', 'profile_image_url', 'permissions'];
const METADATA_FIELDS = ['client_metadata', 'client_read_only_metadata', 'server_metadata'];

/**
 * Claim names a template may not set: registered JWT claims (RFC 7519 §4.1), those of RFC 9068
 * §2.2 and RFC 8693 §4, OpenID Connect's ID-token and standard claims (Core §2, §5.1), and the
 * claims of Gatehouse's own access tokens (Stack Auth's, which clients read).
 */
const RESERVED_CLAIMS = new Set([
  ...['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti', 'typ', 'alg', 'kid'],
  ...['scope', 'client_id', 'azp', 'cnf', 'act', 'may_act', 'auth_time', 'acr', 'amr', 'nonce', 'sid'],
  ...['at_hash', 'c_hash', 's_hash', '_claim_names', '_claim_sources', 'gty', 'token_type'],
  ...['name', 'given_name', 'family_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture', 'website'],
  ...['email', 'email_verified', 'gender', 'birthdate', 'zoneinfo', 'locale', 'phone_number', 'phone_number_verified', 'address'],
  'updated_at',
  ...['project_id', 'branch_id', 'refresh_token_id', 'role', 'selected_team_id', 'signed_up_at', 'is_anonymous'],
  ...['is_restricted', 'restricted_reason', 'requires_totp_mfa'],
]);

/** Bounds of a template (checked at save) and of what it renders (checked per token). */
export const CLAIMS_TEMPLATE_LIMITS = {
  claims: 30,
  templateLength: 500,
  placeholders: 10,
  pathSegments: 12,
  /** A rendered claim whose JSON is longer is left out. */
  claimJsonLength: 2048,
  /** Claims past this much JSON in total are left out. */
  totalJsonLength: 8192,
} as const;

const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const SEGMENT = /^[A-Za-z0-9_$-]{1,128}$/;

/** One parsed template: literal text and paths, alternating (`parts[0]` text, `parts[1]` path, …). */
export interface ParsedTemplate {
  /** True when the template is exactly one placeholder: the value is kept as it is. */
  whole: boolean;
  texts: string[];
  paths: string[][];
}

/** Parses one template string; a sentence saying what is wrong, or the template. */
function parseTemplate(template: string): ParsedTemplate | string {
  if (template.length > CLAIMS_TEMPLATE_LIMITS.templateLength) return `is longer than ${CLAIMS_TEMPLATE_LIMITS.templateLength} characters`;
  const texts: string[] = [];
  const paths: string[][] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    texts.push(template.slice(last, match.index));
    const path = match[1]!.split('.');
    const problem = pathProblem(path, match[1]!);
    if (problem) return problem;
    paths.push(path);
    last = match.index! + match[0].length;
  }
  texts.push(template.slice(last));
  if (texts.some((t) => t.includes('{{') || t.includes('}}'))) return 'has an unclosed or nested {{ }} placeholder';
  if (paths.length > CLAIMS_TEMPLATE_LIMITS.placeholders) return `has more than ${CLAIMS_TEMPLATE_LIMITS.placeholders} placeholders`;
  return { whole: paths.length === 1 && texts[0] === '' && texts[1] === '', texts, paths };
}

function pathProblem(path: string[], text: string): string | null {
  if (path.length > CLAIMS_TEMPLATE_LIMITS.pathSegments)
    return `has a path longer than ${CLAIMS_TEMPLATE_LIMITS.pathSegments} segments: {{${text}}}`;
  if (!path.every((s) => SEGMENT.test(s))) return `has a malformed path {{${text}}} (dot-separated names of letters, digits, _ $ -)`;
  const [root, field] = path;
  const fields = root === 'user' ? USER_FIELDS : root === 'team' ? TEAM_FIELDS : null;
  if (!fields) return `has a path that does not start with user. or team.: {{${text}}}`;
  if (field !== undefined && METADATA_FIELDS.includes(field)) return null;
  if (field === undefined || !fields.includes(field))
    return `has an unknown path {{${text}}}: ${root}. is followed by one of ${[...fields, ...METADATA_FIELDS].join(', ')}`;
  return path.length === 2 ? null : `has a path that goes past ${root}.${field}, which has no fields: {{${text}}}`;
}

/**
 * What is wrong with a claims template (the config value), as one sentence for the 400 answer,
 * or null when it is valid: an object of at most 30 claim names (not reserved, see
 * RESERVED_CLAIMS) to template strings of the language above.
 */
export function claimsTemplateProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of claim names to template strings';
  const entries = Object.entries(value);
  if (entries.length > CLAIMS_TEMPLATE_LIMITS.claims) return `must have at most ${CLAIMS_TEMPLATE_LIMITS.claims} claims`;
  for (const [name, template] of entries) {
    if (!CLAIM_NAME.test(name))
      return `claim name "${name.slice(0, 80)}" must be 1-64 letters, digits, _ . : - (not starting with a digit)`;
    if (RESERVED_CLAIMS.has(name)) return `claim "${name}" is a registered or standard claim that Gatehouse sets itself`;
    if (typeof template !== 'string') return `claim "${name}" must be a template string`;
    const parsed = parseTemplate(template);
    if (typeof parsed === 'string') return `claim "${name}" ${parsed}`;
  }
  return null;
}

/** A valid template's parsed claims (call after {@link claimsTemplateProblem} said null; bad entries are skipped). */
export function parseClaimsTemplate(template: Readonly<Record<string, string>>): Array<[string, ParsedTemplate]> {
  return Object.entries(template).flatMap(([name, text]) => {
    const parsed = typeof text === 'string' && !RESERVED_CLAIMS.has(name) ? parseTemplate(text) : 'invalid';
    return typeof parsed === 'string' ? [] : [[name, parsed] as [string, ParsedTemplate]];
  });
}

/** Walks `path` in `root` (own properties only: no prototype lookups). */
function lookup(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

const asText = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/**
 * Renders parsed claims over `context` (`{ user, team }` of plain values): each claim's value,
 * left out when a whole-value placeholder is absent or when the JSON exceeds the bounds.
 */
export function renderClaims(claims: ReadonlyArray<[string, ParsedTemplate]>, context: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let total = 0;
  for (const [name, t] of claims) {
    const value = t.whole
      ? lookup(context, t.paths[0]!)
      : t.texts.map((text, i) => text + (i < t.paths.length ? asText(lookup(context, t.paths[i]!)) : '')).join('');
    if (value === undefined) continue;
    const size = JSON.stringify(value).length;
    if (size > CLAIMS_TEMPLATE_LIMITS.claimJsonLength || total + size > CLAIMS_TEMPLATE_LIMITS.totalJsonLength) continue;
    total += size;
    out[name] = value;
  }
  return out;
}
