/**
 * A product's uploaded image is kept by its storage key (issue 49): `products.image_key`, its
 * address built when answering, so it survives a move or a new host name; `image` keeps only URLs
 * elsewhere on the web.
 *
 * Existing rows move over: an `image` whose path ends in `/uploads/files/<name>`, where `<name>` is
 * a file of the product's own organisation (the 128-bit random name identifies it, whatever host
 * the URL named: today's server or the one the shop moved from), gets that file's key and loses
 * the URL. Any other URL stays as it was. Re-runnable (a second run finds nothing to move). `down`
 * puts the path back (without a host) and drops the column. Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

const UPLOAD_PATH = /\/uploads\/files\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;

export async function up(db: Kysely<any>): Promise<void> {
  const columns = (await db.introspection.getTables()).find((x) => x.name === 'products')!.columns.map((c) => c.name);
  if (!columns.includes('image_key')) await db.schema.alterTable('products').addColumn('image_key', t.text).execute();
  const rows: Array<{ id: string; org_id: string; image: string }> = await db
    .selectFrom('products')
    .select(['id', 'org_id', 'image'])
    .where('image', 'like', '%/uploads/files/%')
    .execute();
  for (const row of rows) {
    const name = UPLOAD_PATH.exec(new URL(row.image, 'http://relative.invalid').pathname)?.[1];
    if (!name) continue;
    const upload: { key: string } | undefined = await db
      .selectFrom('uploads')
      .select('key')
      .where('org_id', '=', row.org_id)
      .where('file_name', '=', name)
      .executeTakeFirst();
    if (upload)
      await db
        .updateTable('products')
        .set({ image: null, image_key: upload.key })
        .where('org_id', '=', row.org_id)
        .where('id', '=', row.id)
        .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const rows: Array<{ id: string; org_id: string; image_key: string }> = await db
    .selectFrom('products')
    .select(['id', 'org_id', 'image_key'])
    .where('image_key', 'is not', null)
    .execute();
  for (const row of rows)
    await db
      .updateTable('products')
      .set({ image: `/api/v1/uploads/files/${row.image_key.slice(row.image_key.lastIndexOf('/') + 1)}` })
      .where('org_id', '=', row.org_id)
      .where('id', '=', row.id)
      .execute();
  await db.schema.alterTable('products').dropColumn('image_key').execute();
}
