import type { Db } from '../db/client.ts';
import { deployment } from './schema.ts';

/** The deployment's id (ADR 061): made by the first instance to ask, read by every later one. */
export async function deploymentId(db: Db): Promise<string> {
  await db.insert(deployment).values({}).onConflictDoNothing();
  const [row] = await db.select({ id: deployment.id }).from(deployment);
  if (!row) throw new Error('deployment: no id row after writing it');
  return row.id;
}

/** What the deployment's Redis keys and channels start with: REDIS_PREFIX, else one made of its id. */
export async function redisPrefix(db: Db, configured: string | undefined): Promise<string> {
  return configured ?? `podryad:${await deploymentId(db)}:`;
}
