import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { Project } from '../projects/index.ts';
import { BUILT_IN_EMAIL_KINDS, type BuiltInEmailKind } from './built-in.ts';
import { DEFAULT_TEMPLATES, DEFAULT_THEME_ID, DEFAULT_THEME_SOURCE } from './defaults.ts';
import { findSource, listSources, type EmailSourceRow } from './queries.ts';

/** A theme, template or draft as the API shows it. */
export interface EmailSource {
  id: string;
  displayName: string;
  tsxSource: string;
  themeId: string | null;
  sentAt: number | null;
  /** True for a built-in default that no row overrides. */
  isDefault: boolean;
}

const fromRow = (r: EmailSourceRow): EmailSource => ({
  id: r.id, displayName: r.display_name, tsxSource: r.tsx_source, themeId: r.theme_id, sentAt: r.sent_at === null ? null : Number(r.sent_at), isDefault: false,
});

const defaultTheme: EmailSource = { id: DEFAULT_THEME_ID, displayName: 'Default Light', tsxSource: DEFAULT_THEME_SOURCE, themeId: null, sentAt: null, isDefault: true };

const defaultTemplates = (): EmailSource[] => BUILT_IN_EMAIL_KINDS.map((k) => ({
  id: DEFAULT_TEMPLATES[k].id, displayName: DEFAULT_TEMPLATES[k].displayName, tsxSource: DEFAULT_TEMPLATES[k].source, themeId: null, sentAt: null, isDefault: true,
}));

function merge(defaults: EmailSource[], rows: EmailSourceRow[]): EmailSource[] {
  const byId = new Map(rows.map((r) => [r.id, fromRow(r)]));
  return [...defaults.map((d) => byId.get(d.id) ?? d), ...rows.filter((r) => !defaults.some((d) => d.id === r.id)).map(fromRow)];
}

/** The project's themes: the default (or its override) first, then its own. */
export async function listThemes(db: Kysely<Database>, projectId: string): Promise<EmailSource[]> {
  return merge([defaultTheme], await listSources(db, 'email_themes', projectId));
}

/** The project's templates: the built-in ones (or their overrides), then its own. */
export async function listTemplates(db: Kysely<Database>, projectId: string): Promise<EmailSource[]> {
  return merge(defaultTemplates(), await listSources(db, 'email_templates', projectId));
}

export async function listDrafts(db: Kysely<Database>, projectId: string): Promise<EmailSource[]> {
  return (await listSources(db, 'email_drafts', projectId)).map(fromRow);
}

export async function findTheme(db: Kysely<Database>, projectId: string, id: string): Promise<EmailSource | null> {
  const row = await findSource(db, 'email_themes', projectId, id);
  if (row) return fromRow(row);
  return id === DEFAULT_THEME_ID ? defaultTheme : null;
}

export async function findTemplate(db: Kysely<Database>, projectId: string, id: string): Promise<EmailSource | null> {
  const row = await findSource(db, 'email_templates', projectId, id);
  if (row) return fromRow(row);
  return defaultTemplates().find((t) => t.id === id) ?? null;
}

export async function findDraft(db: Kysely<Database>, projectId: string, id: string): Promise<EmailSource | null> {
  const row = await findSource(db, 'email_drafts', projectId, id);
  return row ? fromRow(row) : null;
}

/** The theme an email uses: `themeId` when given, else the project's `email_theme`, else the default. */
export async function resolveTheme(db: Kysely<Database>, project: Project, themeId?: string | null): Promise<EmailSource> {
  const id = themeId ?? project.config.emailThemeId ?? DEFAULT_THEME_ID;
  return (await findTheme(db, project.id, id)) ?? defaultTheme;
}

/** The template of a built-in email (the project's override or the default). */
export async function builtInTemplate(db: Kysely<Database>, projectId: string, kind: BuiltInEmailKind): Promise<EmailSource> {
  return (await findTemplate(db, projectId, DEFAULT_TEMPLATES[kind].id))!;
}
