
export { enqueueEmail, type OutgoingEmail } from './outbox.ts';
export { sendBuiltInEmail, renderBuiltInEmail } from './send-built-in.ts';
export { linkWithCode, escapeHtml, BUILT_IN_EMAIL_KINDS, type BuiltInEmailKind } from './built-in.ts';
export { assertCallbackUrlTrusted } from './callback-url.ts';
export { startEmailWorker, stopEmailWorker, kickEmailWorker, emailWorkerIdle } from './worker.ts';
export { renderInSandbox, type RenderInput, type RenderedEmail } from './sandbox.ts';
export { DEFAULT_THEME_ID, DEFAULT_TEMPLATES } from './defaults.ts';

export { listEmails } from './list-emails.ts';
export { sendEmail } from './send-email.ts';
export { renderEmail } from './render-email.ts';
export { sendTestEmail } from './send-test-email.ts';
export { sendSignInInvitation } from './send-sign-in-invitation.ts';
export { listEmailThemes } from './list-email-themes.ts';
export { createEmailTheme } from './create-email-theme.ts';
export { getEmailTheme } from './get-email-theme.ts';
export { updateEmailTheme } from './update-email-theme.ts';
export { deleteEmailTheme } from './delete-email-theme.ts';
export { listEmailTemplates } from './list-email-templates.ts';
export { createEmailTemplate } from './create-email-template.ts';
export { getEmailTemplate } from './get-email-template.ts';
export { updateEmailTemplate } from './update-email-template.ts';
export { deleteEmailTemplate } from './delete-email-template.ts';
export { listEmailDrafts } from './list-email-drafts.ts';
export { createEmailDraft } from './create-email-draft.ts';
export { getEmailDraft } from './get-email-draft.ts';
export { updateEmailDraft } from './update-email-draft.ts';
export { deleteEmailDraft } from './delete-email-draft.ts';

export { checkEmailThemeSetting } from './theme-setting.ts';
export { listOutboxEmails } from './list-outbox-emails.ts';
export { OUTBOX_STATUS } from './outbox-wire.ts';
export { getOutboxEmail } from './get-outbox-email.ts';
export { updateOutboxEmail } from './update-outbox-email.ts';
export { getDeliveryInfo } from './get-delivery-info.ts';
