import { defineOperation } from '../operations/define.ts';
import { listInternalApiKeys as listRows } from './queries.ts';
import { toInternalApiKey, InternalApiKeyOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

/** Lists every key set of the project, newest first (admin access). */
export const listInternalApiKeys = defineOperation({
  id: 'internalApiKeys.list',
  method: 'GET',
  path: '/internal/api-keys',
  summary: 'List project API keys.',
  access: ['admin'],
  input: {},
  errors: [],
  output: listOutput(InternalApiKeyOutput),
  async run(ctx) {
    const rows = await listRows(ctx.db, ctx.auth.project.id);
    return { items: rows.map(toInternalApiKey), is_paginated: false };
  },
});
