// Secrets the server must read back (webhook signing secrets: it signs with them) are kept
// encrypted at rest, so a copy of the database (a backup, a dump, read-only SQL access) does
// not hand them out. AES-256-GCM from node:crypto: authenticated encryption built into Node,
// so no extra library (and no native build) is needed for it.
// Stored form: `enc:v1:` + base64url(12-byte nonce | 16-byte tag | ciphertext). The prefix
// tells sealed values from the plain ones written before encryption existed, and leaves room
// for a v2 (another key or cipher) later. The caller's `context` (e.g. the endpoint id) is
// bound in as associated data, so a sealed value copied to another row does not open there.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SEALED_PREFIX = 'enc:v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

export interface SecretBox {
  seal(plain: string, context: string): string;
  /** The plain value; a value stored before encryption existed (no prefix) comes back as it is. */
  open(stored: string, context: string): string;
}

export const isSealed = (stored: string) => stored.startsWith(SEALED_PREFIX);

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretBoxError('the secrets key must be 32 bytes');
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(stored, context) {
      if (!isSealed(stored)) return stored;
      const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError('a sealed secret is cut short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError('a sealed secret does not open with this key');
      }
    },
  };
}
