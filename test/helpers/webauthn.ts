import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for API tests: ES256 (P-256) credentials, "none" attestation,
 * discoverable (it keeps the user handle), user present and verified. It answers the server's
 * `options_json` the way a browser would, with the RP id set to the origin's hostname (what the
 * SDK does with the sentinel). The browser suite uses Chromium's virtual authenticator instead.
 * @see WebAuthn L3 §6.1 (authenticator data), §6.5.4 (attested credential data), §8.7 (none)
 */

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Uint8Array;
  userHandle: string;
  rpId: string;
  counter: number;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  private authData(rpId: string, flags: number, counter: number, attested?: Credential): Buffer {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), counterBytes];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(attested.id.length);
      parts.push(Buffer.alloc(16), len, attested.id, Buffer.from(attested.cose));
    }
    return Buffer.concat(parts);
  }

  /** Answers `navigator.credentials.create()` for registration options, as `RegistrationResponseJSON`. */
  register(options: any, origin: string, overrides: { challenge?: string } = {}) {
    const rpId = new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credential: Credential = { id: randomBytes(20), privateKey, cose, userHandle: options.user.id, rpId, counter: 0 };
    this.credentials.push(credential);
    const authData = this.authData(rpId, 0x01 | 0x04 | 0x40, 0, credential);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as any,
    );
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: overrides.challenge ?? options.challenge,
      origin,
      crossOrigin: false,
    });
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers `navigator.credentials.get()` with credential `index`, as `AuthenticationResponseJSON`. */
  authenticate(options: any, origin: string, overrides: { challenge?: string; index?: number } = {}) {
    const credential = this.credentials[overrides.index ?? this.credentials.length - 1];
    if (!credential) throw new Error('no credential registered');
    credential.counter += 1;
    const authData = this.authData(credential.rpId, 0x01 | 0x04, credential.counter);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: overrides.challenge ?? options.challenge, origin, crossOrigin: false }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
