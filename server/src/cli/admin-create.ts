/**
 * `npm run admin:create -- --email a@b.tz --password '…' [--first-name Asha] [--phone 0712…]`:
 * create a platform administrator. They then enrol an authenticator at /accounts/mfa/totp/setup;
 * admin routes need a sign-in with that second factor.
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../boot.js';
import { ConfigError, loadConfig } from '../env.js';
import { createLogger } from '../lib/logger.js';
import { createPlatformAdmin } from '../modules/admin/admin.exports.js';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    phone: { type: 'string' },
  },
});

try {
  const config = loadConfig();
  const handle = await openDatabase(config, createLogger('warn'));
  try {
    const user = await createPlatformAdmin(handle.db, {
      email: values.email ?? '',
      password: values.password ?? '',
      first_name: values['first-name'] ?? 'Admin',
      last_name: values['last-name'] ?? '',
      phone: values.phone,
    });
    console.log(`platform admin created: ${user.email} (${user.id})`);
  } finally {
    await handle.close();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : (err as Error).message);
  process.exit(1);
}
