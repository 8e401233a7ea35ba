import type { TransportRequest, TransportResponse, Transport } from './transport.ts';

/** A scripted answer for the fake transport: JSON body, status, extra headers, or a thrown network error. */
export type FakeAnswer =
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string>; knownError?: string }
  | 'network-error';

/** An unsigned JWT with the given claims (the SDK never checks signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'none' })}.${b64(claims)}.sig`;
}

/**
 * A transport answering from `handler(request)` and recording every request, for SDK unit
 * tests without a server. Known errors get the `x-stack-known-error` header and `{code}` body.
 */
export function fakeTransport(handler: (req: TransportRequest, index: number) => FakeAnswer): Transport & { requests: TransportRequest[] } {
  const requests: TransportRequest[] = [];
  const transport = (async (req: TransportRequest): Promise<TransportResponse> => {
    requests.push(req);
    const answer = handler(req, requests.length - 1);
    if (answer === 'network-error') throw new TypeError('fetch failed');
    const headers: Record<string, string> = { ...(answer.headers ?? {}) };
    let text = answer.text ?? '';
    if (answer.knownError) {
      headers['x-stack-known-error'] = answer.knownError;
      text = JSON.stringify({
        code: answer.knownError,
        details: (answer.json as { details?: unknown } | undefined)?.details ?? {},
        error: `error ${answer.knownError}`,
      });
      headers['content-type'] = 'application/json';
    } else if (answer.json !== undefined) {
      text = JSON.stringify(answer.json);
      headers['content-type'] = 'application/json';
    }
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    return { status: answer.status ?? 200, headers: { get: (n: string) => lower[n.toLowerCase()] ?? null }, text };
  }) as Transport & { requests: TransportRequest[] };
  transport.requests = requests;
  return transport;
}
