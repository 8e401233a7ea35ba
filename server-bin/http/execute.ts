import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from 'koa';
import type { Core, AnyOperation } from '../../core/index.ts';
import { executeOperation, errorResponse, type OperationResponse } from '../protocol/render.ts';
import { operationBody, readRequestBody } from './body.ts';
import { clientAddressFromRequest } from './client-address.ts';
import { credentialsFromHeaders } from '../protocol/credentials.ts';

/** Request headers with repeated ones joined by ', ' (lowercase names, as node:http gives them). */
export function joinedHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function firstValues(query: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value[0] ?? '' : value;
  }
  return out;
}

/** Turns a Koa request into an operation request and runs it; never throws. */
export async function executeForHttp(core: Core, op: AnyOperation, ctx: Context, trustedProxyHops = 0): Promise<OperationResponse> {
  let body: unknown;
  try {
    const noBody = ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS';
    body = noBody && !op.rawBody ? undefined : await operationBody(op, ctx.method, joinedHeaders(ctx.headers), await readRequestBody(ctx.req));
  } catch (error) {
    return errorResponse(core.runtime, error, ctx.state.requestId);
  }
  return executeForProtocol(core, op, {
    method: ctx.method,
    // The path as the client sent it (/api/latest is routed as /api/v1 without rewriting it).
    pathname: ctx.path,
    headers: joinedHeaders(ctx.headers),
    params: { ...(ctx.params as Record<string, string>) },
    query: firstValues(ctx.query),
    body,
    clientAddress: clientAddressFromRequest(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for') || undefined, trustedProxyHops),
  }, ctx.state.requestId);
}

/** A request as the protocol layer sees it once the transport has read it. */
export interface ProtocolRequest {
  method: string;
  /** The path as sent, without the query string (SCHEMA_ERROR messages name it). */
  pathname: string;
  /** Request headers, lowercase names; repeated headers joined. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Decoded path parameters. */
  params: Record<string, string>;
  /** Query parameters, the first value of each. */
  query: Record<string, string>;
  /** The parsed body, or undefined. */
  body: unknown;
  /** The caller's address (server-bin/http/client-address.ts), or null. */
  clientAddress: string | null;
}

/**
 * Runs an operation for a request read by any transport (Koa, or the in-process dispatch):
 * the credentials come from the headers (server-bin/protocol/credentials.ts); an unexpected
 * error is logged. Never throws.
 */
export async function executeForProtocol(core: Core, op: AnyOperation, request: ProtocolRequest, requestId: string): Promise<OperationResponse> {
  const response = await executeOperation(core.runtime, op, {
    method: request.method,
    pathname: request.pathname,
    credentials: credentialsFromHeaders(request.headers),
    params: request.params,
    query: request.query,
    body: request.body,
    clientAddress: request.clientAddress,
  }, requestId);
  if (response.cause) core.runtime.log.error({ request_id: requestId, operation: op.id, err: (response.cause as Error)?.stack ?? String(response.cause) }, 'unexpected error');
  return response;
}

/** The response for an error thrown outside any operation. */
export function errorResponseFor(core: Core, error: unknown, requestId: string): OperationResponse {
  const response = errorResponse(core.runtime, error, requestId);
  if (response.cause) core.runtime.log.error({ request_id: requestId, err: (response.cause as Error)?.stack ?? String(response.cause) }, 'unexpected error');
  return response;
}
