import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { Project } from '../projects/index.ts';
import { BUILT_IN_EMAIL_KINDS, type BuiltInEmailKind } from './built-in.ts';
import { DEFAULT_TEMPLATES, DEFAULT_THEME_ID, DEFAULT_THEMES } from './defaults.ts';
import { findSource, listSources, type EmailSourceRow } from './queries.ts';

/** A theme, template or draft as the API shows it. */
export interface EmailSource {
  id: string;
  displayName: string;
  tsxSource: string;
  /** The theme it renders with: an id, null for the project's theme, false for none. */
  themeId: string | null | false;
  sentAt: number | null;
  /** True for a built-in default that no row overrides. */
  isDefault: boolean;
}

/** Stored `theme_id` meaning "no theme" (wire `theme_id: false`). */
export const NO_THEME = '';

/** Wire/domain theme id → stored column value. */
export const themeIdToColumn = (themeId: string | null | false): string | null => (themeId === false ? NO_THEME : themeId);

const fromRow = (r: EmailSourceRow): EmailSource => ({
  id: r.id,
  displayName: r.display_name,
  tsxSource: r.tsx_source,
  themeId: r.theme_id === NO_THEME ? false : r.theme_id,
  sentAt: r.sent_at === null ? null : Number(r.sent_at),
  isDefault: false,
});

const defaultThemes = (): EmailSource[] =>
  DEFAULT_THEMES.map((t) => ({ id: t.id, displayName: t.displayName, tsxSource: t.source, themeId: null, sentAt: null, isDefault: true }));
const defaultTheme = defaultThemes()[0]!;

const defaultTemplates = (): EmailSource[] =>
  BUILT_IN_EMAIL_KINDS.map((k) => ({
    id: DEFAULT_TEMPLATES[k].id,
    displayName: DEFAULT_TEMPLATES[k].displayName,
    tsxSource: DEFAULT_TEMPLATES[k].source,
    themeId: null,
    sentAt: null,
    isDefault: true,
  }));

function merge(defaults: EmailSource[], rows: EmailSourceRow[]): EmailSource[] {
  const byId = new Map(rows.map((r) => [r.id, fromRow(r)]));
  return [...defaults.map((d) => byId.get(d.id) ?? d), ...rows.filter((r) => !defaults.some((d) => d.id === r.id)).map(fromRow)];
}

/** The project's themes: upstream's built-in ones (Default Light, Dark, Colorful, or their overrides) first, then its own. */
export async function listThemes(db: Kysely<Database>, projectId: string): Promise<EmailSource[]> {
  return merge(defaultThemes(), await listSources(db, 'email_themes', projectId));
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
  return defaultThemes().find((t) => t.id === id) ?? null;
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

/**
 * The theme an email uses: `themeId` when given, else the project's `email_theme`, else the
 * default; null when `themeId` is false (no theme, upstream's `theme_id: false`).
 */
export async function resolveTheme(db: Kysely<Database>, project: Project, themeId?: string | null | false): Promise<EmailSource | null> {
  if (themeId === false) return null;
  const id = themeId ?? project.config.emailThemeId ?? DEFAULT_THEME_ID;
  return (await findTheme(db, project.id, id)) ?? defaultTheme;
}

/** Whether `id` names a theme of the project (built-in or its own). */
export async function themeExists(db: Kysely<Database>, projectId: string, id: string): Promise<boolean> {
  return (await findTheme(db, projectId, id)) !== null;
}

/** The template of a built-in email (the project's override or the default). */
export async function builtInTemplate(db: Kysely<Database>, projectId: string, kind: BuiltInEmailKind): Promise<EmailSource> {
  return (await findTemplate(db, projectId, DEFAULT_TEMPLATES[kind].id))!;
}
