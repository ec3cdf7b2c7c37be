/**
 * Webhook signing secrets at rest. Unlike API keys they cannot be hashed (we sign with them, and
 * verify inbound signatures with them), so they are encrypted: AES-256-GCM, with the record they
 * belong to as associated data, so a sealed secret copied onto another endpoint does not open.
 * The first key seals; every key opens, so an operator can rotate keys (new first, old after).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

type Key = { id: string; bytes: Buffer };

export class SecretBox {
  private readonly keys: Key[];

  constructor(keys: Buffer[]) {
    if (keys.length === 0 || keys.some((k) => k.length !== 32)) throw new Error('SecretBox needs one or more 32-byte keys');
    this.keys = keys.map((bytes) => ({ id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes }));
  }

  /** `context` names the record the secret belongs to (e.g. `webhook_endpoint:<org>:<id>`). */
  seal(plaintext: string, context: string): string {
    const key = this.keys[0] as Key;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key.bytes, iv).setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, key.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, keyId, iv, tag, body] = sealed.split('.');
    const key = this.keys.find((k) => k.id === keyId);
    if (version !== VERSION || !key || iv === undefined || tag === undefined || body === undefined) {
      throw new Error(`a webhook secret was sealed with key ${keyId ?? '?'}, which is not configured (WEBHOOK_SECRETS_KEY)`);
    }
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
