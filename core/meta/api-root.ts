import { defineOperation, reply } from '../operations/define.ts';
import { TextOutput } from '../operations/output.ts';

/**
 * Answers a text greeting that names the resolved caller (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/).
 * Any query parameter is a schema error.
 */
export const apiRoot = defineOperation({
  id: 'meta.root',
  method: 'GET',
  path: '/',
  summary: 'Greeting; shows how the request was authenticated.',
  access: 'public',
  input: {},
  errors: [],
  output: TextOutput,
  async run(ctx) {
    const head = 'Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\n';
    const auth = ctx.auth;
    if (!auth) return reply.text(`${head}Authentication: None`);
    const level = auth.accessType[0]!.toUpperCase() + auth.accessType.slice(1);
    return reply.text(
      `${head}Authentication: ${level}\n  Project: ${auth.project.id}\n  User: ${auth.user ? (auth.user.primary_email ?? auth.user.id) : 'None'}`,
    );
  },
});
