// Webhook signing secrets at rest: sealed with the secrets key (server/secrets/secret-box.ts),
// bound to their endpoint. They never enter events (webhook_secrets is delivery state, not a
// projection), so the sealed column is their only copy. At start, secrets stored in the clear
// by an earlier version are sealed, and a key that does not open the sealed ones stops the
// server: delivering unsigned, or signing with the wrong secret, would fail every receiver.
import { sql, type Kysely } from 'kysely';
import { ConfigError } from '../config.js';
import { isSealed, SecretBoxError, type SecretBox } from '../secrets/secret-box.js';

const contextOf = (endpointId: string) => `webhook-secret:${endpointId}`;

export const sealWebhookSecret = (box: SecretBox, endpointId: string, secret: string) =>
  box.seal(secret, contextOf(endpointId));

export const openWebhookSecret = (box: SecretBox, endpointId: string, stored: string) =>
  box.open(stored, contextOf(endpointId));

/** Seals every secret still in the clear and checks that the sealed ones open; returns how many it sealed. */
export async function sealStoredWebhookSecrets(db: Kysely<any>, box: SecretBox): Promise<number> {
  const rows = await sql<{
    endpoint_id: string;
    secret: string;
  }>`select endpoint_id::text as endpoint_id, secret from webhook_secrets`.execute(db);
  const unreadable: string[] = [];
  let sealed = 0;
  for (const row of rows.rows) {
    if (isSealed(row.secret)) {
      try {
        openWebhookSecret(box, row.endpoint_id, row.secret);
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        unreadable.push(row.endpoint_id);
      }
      continue;
    }
    // Only if still the same plain value: another instance starting now may have sealed it.
    const result = await sql`update webhook_secrets set secret = ${sealWebhookSecret(box, row.endpoint_id, row.secret)}
      where endpoint_id = ${row.endpoint_id} and secret = ${row.secret}`.execute(db);
    sealed += Number(result.numAffectedRows ?? 0);
  }
  if (unreadable.length) {
    throw new ConfigError(
      `the secrets key does not open the signing secrets of ${unreadable.length} webhook endpoint(s) (${unreadable.slice(0, 3).join(', ')}${unreadable.length > 3 ? ', ...' : ''}): ` +
        'they were encrypted with another key. Start with the key they were stored with (SECRETS_KEY, or DATA_DIR/secrets.key on the embedded store)',
    );
  }
  return sealed;
}
