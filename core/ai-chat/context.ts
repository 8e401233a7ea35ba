import type { Project } from '../projects/index.ts';
import type { AiDoc } from './options.ts';

/**
 * What the model may know about a project: its non-secret settings, listed field by field (an
 * allow-list, so a secret added to the config later stays out until someone adds it here on
 * purpose). Never keys, client secrets, SMTP credentials, email bodies or users' data.
 */
export function projectSummary(project: Project) {
  const c = project.config;
  return {
    id: project.id,
    display_name: project.displayName,
    is_production_mode: project.isProductionMode,
    sign_in: {
      password_enabled: c.credentialEnabled,
      magic_link_enabled: c.magicLinkEnabled,
      passkey_enabled: c.passkeyEnabled,
      sign_up_enabled: c.signUpEnabled,
      require_email_verification: c.requireEmailVerification,
      oauth_account_merge_strategy: c.oauthAccountMergeStrategy,
      oauth_providers: c.oauthProviders.map((p) => ({
        id: p.id,
        enabled: p.enabled,
        type: p.type,
        ...(p.type === 'standard' ? { client_id_set: !!p.clientId, client_secret_set: !!p.clientSecret } : {}),
        ...(p.issuerUrl ? { issuer_url: p.issuerUrl } : {}),
      })),
    },
    domains: { allow_localhost: c.allowLocalhost, trusted: c.domains.map((d) => d.domain) },
    teams: {
      create_team_on_sign_up: c.createTeamOnSignUp,
      client_team_creation_enabled: c.clientTeamCreationEnabled,
      team_creator_default_permissions: c.teamCreatorDefaultPermissions,
      team_member_default_permissions: c.teamMemberDefaultPermissions,
    },
    user_default_permissions: c.userDefaultPermissions,
    client_user_deletion_enabled: c.clientUserDeletionEnabled,
    api_keys: { user_api_keys: c.allowUserApiKeys, team_api_keys: c.allowTeamApiKeys },
    require_publishable_client_key: c.requirePublishableClientKey,
    email_server: c.emailConfig.type === 'standard' ? 'own SMTP server (credentials hidden)' : "shared (the server's)",
    rate_limits_enabled: c.rateLimits?.enabled ?? true,
  };
}

/** Characters of documentation sent with one question (about 3,000 tokens). */
const DOCS_BUDGET_CHARS = 12_000;

/** One `##` section of a documentation page. */
interface Section {
  page: string;
  heading: string;
  text: string;
}

function sections(docs: readonly AiDoc[]): Section[] {
  const out: Section[] = [];
  for (const doc of docs) {
    const parts = doc.text.split(/^(?=## )/m);
    for (const part of parts) {
      const heading = /^#{1,3} (.+)$/m.exec(part)?.[1]?.trim() ?? doc.name;
      out.push({ page: doc.name, heading, text: part.trim() });
    }
  }
  return out;
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'how',
  'what',
  'why',
  'can',
  'does',
  'this',
  'that',
  'with',
  'are',
  'not',
  'you',
  'turn',
  'use',
  'get',
  'set',
  'from',
  'into',
  'when',
  'where',
  'which',
  'who',
  'have',
  'has',
  'our',
  'your',
  'my',
  'its',
  'there',
  'their',
]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !STOP.has(w));
}

/**
 * The documentation sections most related to `question` (word overlap, headings counted double),
 * up to about 12,000 characters: the model gets Gatehouse's own docs without the whole folder.
 */
export function relevantDocs(docs: readonly AiDoc[], question: string): Section[] {
  const wanted = new Set(words(question));
  if (wanted.size === 0) return [];
  const scored = sections(docs)
    .map((s) => {
      let score = 0;
      for (const w of words(s.heading)) if (wanted.has(w)) score += 2;
      const seen = new Set<string>();
      for (const w of words(s.text))
        if (wanted.has(w) && !seen.has(w)) {
          seen.add(w);
          score += 1;
        }
      return { s, score };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
  const out: Section[] = [];
  let used = 0;
  for (const { s } of scored) {
    const text = s.text.length > 4000 ? `${s.text.slice(0, 4000)}\n…` : s.text;
    if (used + text.length > DOCS_BUDGET_CHARS) continue;
    out.push({ ...s, text });
    used += text.length;
  }
  return out;
}

/**
 * The system prompt: who the assistant is, its rules, the project's non-secret settings and the
 * documentation sections related to the question.
 */
export function systemPrompt(project: Project, docs: readonly AiDoc[], question: string): string {
  const related = relevantDocs(docs, question);
  return [
    "You are the assistant in the Gatehouse dashboard. Gatehouse is a self-hosted authentication and user-management server that speaks Stack Auth's REST API.",
    'You help the owner of one project: explain settings, point to the right dashboard page, and diagnose sign-in problems.',
    'Rules: answer briefly and concretely; put code, commands and configuration in fenced code blocks; say so when you do not know.',
    'You can read (never change) this project through the tools offered. You cannot see keys, secrets, password hashes or email contents, and must not ask the owner for them.',
    '',
    "The project's settings (secrets omitted):",
    '```json',
    JSON.stringify(projectSummary(project), null, 2),
    '```',
    ...(related.length > 0
      ? ['', 'Gatehouse documentation related to the question:', ...related.map((s) => `--- docs/${s.page} — ${s.heading}\n${s.text}`)]
      : []),
  ].join('\n');
}
