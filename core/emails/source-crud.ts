import * as v from 'valibot';
import { KnownError, StatusError } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import { uuid } from '../lib/random.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { deleteSource, findSource, insertSource, updateSource, type EmailSourceTable } from './queries.ts';
import { renderInSandbox } from './sandbox.ts';
import { findDraft, findTemplate, findTheme, resolveTheme, themeIdToColumn, type EmailSource } from './sources.ts';
import { DEFAULT_TEMPLATES, DEFAULT_THEME_ID, DEFAULT_THEME_SOURCE, DEFAULT_THEMES } from './defaults.ts';

/** Shared pieces of the theme, template and draft operations (admin, `/internal/email-*`). */

export const SourceIdParamsSchema = v.strictObject({ id: v.pipe(v.string(), v.minLength(1)) });
export const DisplayNameSchema = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(256, 'must be at most 256 characters'),
);

export type SourceKind = 'theme' | 'template' | 'draft';
const TABLE: Record<SourceKind, EmailSourceTable> = { theme: 'email_themes', template: 'email_templates', draft: 'email_drafts' };
const LABEL: Record<SourceKind, string> = { theme: 'Email theme', template: 'Email template', draft: 'Email draft' };

const STARTER: Record<SourceKind, string> = {
  theme: DEFAULT_THEME_SOURCE,
  template: `import { Text } from '@react-email/components';
import { Subject, NotificationCategory, Props } from '@stackframe/emails';

export function EmailTemplate({ user, project }: Props<any>) {
  return (
    <>
      <Subject value={"Hello from " + project.displayName} />
      <NotificationCategory value="Transactional" />
      <Text>Hi {user.displayName ?? 'there'}!</Text>
    </>
  );
}
`,
  draft: `import { Text } from '@react-email/components';
import { Subject, NotificationCategory, Props } from '@stackframe/emails';

export function EmailTemplate({ user, project }: Props<any>) {
  return (
    <>
      <Subject value={"News from " + project.displayName} />
      <NotificationCategory value="Marketing" />
      <Text>Hi {user.displayName ?? 'there'}!</Text>
    </>
  );
}
`,
};

/** The source or a 404 text error. */
export async function getSourceOrThrow(ctx: OperationContext, kind: SourceKind, projectId: string, id: string): Promise<EmailSource> {
  const found =
    kind === 'theme'
      ? await findTheme(ctx.db, projectId, id)
      : kind === 'template'
        ? await findTemplate(ctx.db, projectId, id)
        : await findDraft(ctx.db, projectId, id);
  if (!found) throw new StatusError('not-found', `${LABEL[kind]} not found.`);
  return found;
}

/** Creates a row with the starter source (or `tsxSource`) and returns its id. */
export async function createSource(
  ctx: OperationContext,
  kind: SourceKind,
  projectId: string,
  fields: { displayName: string; tsxSource?: string; themeId?: string | null | false },
): Promise<string> {
  const id = uuid();
  await insertSource(ctx.db, TABLE[kind], {
    project_id: projectId,
    id,
    display_name: fields.displayName,
    tsx_source: fields.tsxSource ?? STARTER[kind],
    theme_id: themeIdToColumn(fields.themeId ?? null),
    sent_at: null,
    created_at: ctx.now,
  });
  return id;
}

/** Applies changes; a built-in default is copied into a row (an override) on its first change. */
export async function saveSource(
  ctx: OperationContext,
  kind: SourceKind,
  projectId: string,
  current: EmailSource,
  changes: { displayName?: string; tsxSource?: string; themeId?: string | null | false },
): Promise<void> {
  const table = TABLE[kind];
  if (!(await findSource(ctx.db, table, projectId, current.id))) {
    await insertSource(ctx.db, table, {
      project_id: projectId,
      id: current.id,
      display_name: changes.displayName ?? current.displayName,
      tsx_source: changes.tsxSource ?? current.tsxSource,
      theme_id: themeIdToColumn(changes.themeId === undefined ? current.themeId : changes.themeId),
      sent_at: null,
      created_at: ctx.now,
    });
    return;
  }
  await updateSource(ctx.db, table, projectId, current.id, {
    ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
    ...(changes.tsxSource !== undefined ? { tsx_source: changes.tsxSource } : {}),
    ...(changes.themeId !== undefined ? { theme_id: themeIdToColumn(changes.themeId) } : {}),
  });
}

/**
 * Deletes a row. Deleting an override of a built-in default restores the default; a default
 * without an override, or the project's current theme, cannot be deleted (400 text).
 */
export async function removeSource(
  ctx: OperationContext,
  kind: SourceKind,
  projectId: string,
  id: string,
  currentThemeId: string | null,
): Promise<void> {
  if (kind === 'theme' && id === (currentThemeId ?? DEFAULT_THEME_ID))
    throw new StatusError('bad-request', "The project's current email theme cannot be deleted.");
  const deleted = await deleteSource(ctx.db, TABLE[kind], projectId, id);
  if (deleted) return;
  const isDefault =
    (kind === 'theme' && DEFAULT_THEMES.some((t) => t.id === id)) ||
    (kind === 'template' && Object.values(DEFAULT_TEMPLATES).some((t) => t.id === id));
  if (isDefault) throw new StatusError('bad-request', `A built-in ${LABEL[kind].toLowerCase()} cannot be deleted.`);
  throw new StatusError('not-found', `${LABEL[kind]} not found.`);
}

/** Renders a template or theme once with sample props, to refuse broken TSX on save (EMAIL_RENDERING_ERROR). */
export async function validateRender(
  ctx: OperationContext,
  kind: SourceKind,
  tsxSource: string,
  themeId: string | null | false,
): Promise<string> {
  const project = ctx.auth!.project;
  const props = { user: { displayName: 'John Doe' }, project: { displayName: project.displayName }, variables: {} };
  if (kind === 'theme') {
    return (
      await renderInSandbox(
        { themeSource: tsxSource, templateSource: 'export function EmailTemplate() { return <p>Preview</p>; }', props },
        project.id,
      )
    ).html;
  }
  const theme = await resolveTheme(ctx.db, project, themeId);
  return (await renderInSandbox({ themeSource: theme?.tsxSource ?? null, templateSource: tsxSource, props }, project.id)).html;
}

/**
 * `theme_id` of templates, drafts and sends: a theme's UUID, `null` (the project's theme) or
 * `false` (no theme), as upstream's schema; anything else is a SCHEMA_ERROR.
 */
/**
 * Custom templates need the project's own SMTP server: on the shared server upstream refuses to
 * create, change or delete them (REQUIRES_CUSTOM_EMAIL_SERVER), and so does Gatehouse, which keeps
 * the operator's shared server to the built-in emails.
 */
export function requireCustomEmailServer(ctx: OperationContext): void {
  if (ctx.auth!.project.config.emailConfig.type === 'shared') throw new KnownError('REQUIRES_CUSTOM_EMAIL_SERVER');
}

/** Template `variables`: a JSON object (an array or a scalar is a SCHEMA_ERROR). */
export const VariablesSchema = v.optional(
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'must be an object'),
);

export const ThemeIdFieldSchema = v.optional(
  v.nullable(v.union([UuidSchema, v.literal(false)], 'must be a theme id (UUID), null or false')),
);
