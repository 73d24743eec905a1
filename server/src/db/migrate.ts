/** The one migration entry point, used by the CLI, server start and tests. */
import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import { migrations } from '../../../migrations/index.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
