import type { IncomingHttpHeaders } from 'node:http';

/** The two spellings of Stack's protocol headers (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts). */
export type HeaderPrefix = 'x-stack-' | 'x-hexclave-';

const BOTH: readonly HeaderPrefix[] = ['x-stack-', 'x-hexclave-'];
const STACK_ONLY: readonly HeaderPrefix[] = ['x-stack-'];
const HEXCLAVE_ONLY: readonly HeaderPrefix[] = ['x-hexclave-'];

/**
 * The prefixes of the protocol headers a response carries (`…known-error`, `…actual-status`,
 * `…request-id`), chosen by the request's own generation: a request that sent only `x-stack-*`
 * headers (older official SDKs) gets `x-stack-*` only, one that sent only `x-hexclave-*` (the
 * current SDK) gets `x-hexclave-*` only, and one that sent both or neither gets both.
 *
 * @see issue 14 item 1; older clients do not expect the other generation's headers.
 */
export function responsePrefixes(headers: IncomingHttpHeaders): readonly HeaderPrefix[] {
  let stack = false;
  let hexclave = false;
  for (const name in headers) {
    if (name.startsWith('x-stack-')) stack = true;
    else if (name.startsWith('x-hexclave-')) hexclave = true;
  }
  if (stack === hexclave) return BOTH;
  return stack ? STACK_ONLY : HEXCLAVE_ONLY;
}
