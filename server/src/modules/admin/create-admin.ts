import { Email, Password } from '@duka/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { hashSecret } from '../../lib/crypto.js';
import { normalisePhone } from '../../lib/phone.js';
import { insertUser } from '../tenancy/tenancy.exports.js';

const Input = z.object({
  email: Email,
  password: Password,
  first_name: z.string().min(1),
  last_name: z.string(),
  phone: z.string().optional(),
});

/** A platform administrator (no organisation). Refuses an email or phone that already has an account. */
export async function createPlatformAdmin(db: Kysely<Database>, raw: z.input<typeof Input>) {
  const parsed = Input.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`--${issue.path.join('.').replace('_', '-')} ${issue.message}`);
  }
  const input = parsed.data;
  const phone = input.phone ? normalisePhone(input.phone) : null;
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('email', '=', input.email), ...(phone ? [eb('phone', '=', phone)] : [])]))
    .executeTakeFirst();
  if (taken) throw new Error('an account with this email or phone already exists');
  const now = Date.now();
  const user = await insertUser(
    db,
    {
      org_id: null,
      store_id: null,
      first_name: input.first_name,
      last_name: input.last_name,
      phone,
      email: input.email,
      password_hash: await hashSecret(input.password),
      role: 'admin',
      email_verified_at: now,
    },
    now,
  );
  return { id: user.id, email: user.email };
}
