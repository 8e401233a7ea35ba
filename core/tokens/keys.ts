import { createECDH, createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** The three audiences of a project's tokens (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx). */
export type AudienceKind = 'default' | 'restricted' | 'anonymous';

/** One derived P-256 key pair with its public JWK. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: { kty: 'EC'; alg: 'ES256'; crv: 'P-256'; kid: string; x: string; y: string };
}

/** `aud` claim for a project and audience kind: `<id>`, `<id>:restricted` or `<id>:anon`. */
export function audienceFor(projectId: string, kind: AudienceKind): string {
  return kind === 'default' ? projectId : kind === 'restricted' ? `${projectId}:restricted` : `${projectId}:anon`;
}

// The P-256 group order; a derived scalar must be in [1, n-1].
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

function deriveScalar(seed: string): Buffer {
  let digest = createHash('sha256').update(seed).digest();
  for (let i = 0; ; i++) {
    const n = BigInt(`0x${digest.toString('hex')}`);
    if (n > 0n && n < P256_ORDER) return digest;
    digest = createHash('sha256').update(digest).update(String(i)).digest();
  }
}

function keyFromScalar(d: Buffer): SigningKey {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey(); // 0x04 || x || y
  const x = pub.subarray(1, 33).toString('base64url');
  const y = pub.subarray(33, 65).toString('base64url');
  const kid = createHash('sha256').update(pub).digest('base64url').slice(0, 16);
  const privateKey = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d: d.toString('base64url') }, format: 'jwk' });
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
  return { kid, privateKey, publicKey, publicJwk: { kty: 'EC', alg: 'ES256', crv: 'P-256', kid, x, y } };
}

/**
 * Derives an audience's signing keys deterministically from the server secret, so every process
 * sharing the secret signs and verifies alike with no key table (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx "Key
 * derivation": private scalar = SHA-256 of a per-audience secret).
 *
 * Two keys per audience, as upstream: the first signs, both verify (room for rotation).
 * Results are cached; the cache is bounded so random audiences cannot grow it without limit.
 */
export function createKeyRing(secret: string) {
  const cache = new LRUCache<string, SigningKey[]>({ max: 5000 });
  return {
    keysFor(audience: string): SigningKey[] {
      let keys = cache.get(audience);
      if (!keys) {
        keys = ['v1', 'v2'].map((version) => keyFromScalar(deriveScalar(`gatehouse-jwt:${version}:${secret}:${audience}`)));
        cache.set(audience, keys);
      }
      return keys;
    },
  };
}
export type KeyRing = ReturnType<typeof createKeyRing>;
