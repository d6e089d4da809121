// The key that encrypts secrets at rest (secret-box.ts). From SECRETS_KEY when set (required
// with DATABASE_URL: config.ts stops the server without it, since a key generated on one
// instance's disk would not reach the others). For the embedded store (one instance, its data
// folder) the key is generated on first start into DATA_DIR/secrets.key, readable by the
// owner only, and reused after; setting SECRETS_KEY keeps it out of backups of that folder.
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, parseSecretsKey } from '../config.js';

export const SECRETS_KEY_FILE = 'secrets.key';

/** The configured key, or the data folder's own (created the first time, atomically: two starts at once agree). */
export async function secretsKeyFor(config: { secretsKey: Buffer | null; dataDir: string }): Promise<Buffer> {
  if (config.secretsKey) return config.secretsKey;
  await mkdir(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, SECRETS_KEY_FILE);
  const existing = await readKeyFile(file);
  if (existing) return existing;
  // Written whole under another name, then linked into place: a reader never sees half a
  // key, and if another start linked its key first, that one is read and used.
  const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(draft);
  }
  await chmod(file, 0o600);
  const created = await readKeyFile(file);
  if (!created) throw new Error(`${file} could not be created`);
  return created;
}

async function readKeyFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = parseSecretsKey(text);
  if (!key)
    throw new ConfigError(
      `${file} does not hold a 32-byte key (base64 or hex): restore it from a backup, or set SECRETS_KEY`,
    );
  return key;
}
