import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { PasskeyOptions, PasskeyResponse } from '#contract/passkeys';

// A software authenticator for the tests (ADR 057): an ES256 key pair made with node:crypto, the attestation 'none'
// and the assertions built by hand, byte for byte as WebAuthn lays them out, so that the server's real checks run.

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64 = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');

/** Authenticator data flags: user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class TestAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys: { privateKey: KeyObject; publicKey: KeyObject };
  counter = 0;

  constructor(
    /** The site's origin (http://127.0.0.1:port in the tests); its host is the RP id. */
    readonly origin: string,
    /** The user handle the server gave at registration (the account's id), answered by a password-less sign-in. */
    private userHandle?: string,
  ) {
    this.keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private rpIdHash() {
    return sha256(new URL(this.origin).hostname);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The COSE form of the public key, as a registration carries it and the passkeys table keeps it. */
  cosePublicKey(): Buffer {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    return Buffer.from(isoCBOR.encode(cose));
  }

  /** The row a registration would have stored for `userId` (fixtures that skip the ceremony). */
  row(userId: string, name = 'Тестовый ключ') {
    this.userHandle = Buffer.from(userId).toString('base64url');
    return {
      userId,
      credentialId: this.id,
      publicKey: b64(this.cosePublicKey()),
      counter: this.counter,
      transports: ['internal'],
      name,
    };
  }

  /** navigator.credentials.create() answering the server's options, attestation 'none'. */
  register(options: PasskeyOptions): PasskeyResponse {
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.rpIdHash(),
      Buffer.from([UP | UV | AT]),
      this.counterBytes(),
      Buffer.alloc(16), // AAGUID
      idLength,
      this.credentialId,
      this.cosePublicKey(),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    const user = (options as { user?: { id?: string } }).user;
    if (user?.id) this.userHandle = user.id;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() answering the server's options; `tamper` makes a wrong answer for the tests. */
  assert(options: PasskeyOptions, tamper: { signature?: boolean; origin?: string } = {}): PasskeyResponse {
    this.counter++;
    const authData = Buffer.concat([this.rpIdHash(), Buffer.from([UP | UV]), this.counterBytes()]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tamper.origin);
    let signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    if (tamper.signature) signature = sign('sha256', Buffer.from('something else'), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }

  private counterBytes() {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(this.counter);
    return b;
  }
}
