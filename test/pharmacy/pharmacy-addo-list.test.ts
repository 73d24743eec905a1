import { AddoListChange, AddoListMeta, AddoListPage, AddoMedicine, Envelope, PagedEnvelope, PageMeta } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createStaff, registerOwner, type Session, mfaAdminToken } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const UNKNOWN = '0190a6f0-0000-7000-8000-000000000000';
const ListPage = AddoListPage;
const paracetamol = { generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'tablet' } as const;
const amoxicillin = { generic_name: 'Amoxicillin', strength: '250 mg', dosage_form: 'capsule', notes: 'Blister of 10' } as const;
const ors = { generic_name: 'Oral rehydration salts', strength: '20.5 g', dosage_form: 'powder' } as const;

describe('pharmacy: the ADDO-permitted medicines list', () => {
  let t: TestApp;
  let admin: { token: string; passwordOnly: string; userId: string };
  let owner: Session;
  let cashier: string;
  const send = (method: string, path: string, body?: unknown) => t.request(method, path, { token: admin.token, body });
  const list = async (path: string, token = admin.token) => {
    const res = await t.request('GET', path, { token });
    expect(res.status, res.text).toBe(200);
    const page = ListPage.parse(res.body);
    return { data: page.data, meta: AddoListMeta.parse(page.meta) };
  };
  const history = async (query = '') => {
    const res = await send('GET', `/admin/pharmacy/addo-list/history${query}`);
    expect(res.status, res.text).toBe(200);
    const page = PagedEnvelope(AddoListChange).parse(res.body);
    return { data: page.data, meta: PageMeta.parse(page.meta) };
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await mfaAdminToken(t);
    owner = await registerOwner(t, {
      shop: { name: 'Duka la Dawa Mwenge', business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
    cashier = (await createStaff(t, owner)).token;
  });
  afterAll(() => t.close());

  it('starts empty at version 0', async () => {
    const empty = await list('/admin/pharmacy/addo-list');
    expect(empty.data).toEqual([]);
    expect(empty.meta).toEqual({ page: 1, page_size: 20, total: 0, total_pages: 0, version: 0 });
  });

  // An owner, a cashier, a password-only admin and no token: test/api/access-rules.test.ts.
  it('refuses bad input with 400 naming the field, making no version', async () => {
    const cases: Array<[unknown, string]> = [
      [{ strength: '500 mg', dosage_form: 'tablet' }, 'generic_name'],
      [{ ...paracetamol, generic_name: '   ' }, 'generic_name'],
      [{ generic_name: 'Paracetamol', dosage_form: 'tablet' }, 'strength'],
      [{ ...paracetamol, strength: 500 }, 'strength'],
      [{ ...paracetamol, dosage_form: 'lozenge' }, 'dosage_form'],
      [{ ...paracetamol, notes: 'x'.repeat(501) }, 'notes'],
    ];
    for (const [body, field] of cases) {
      const res = await send('POST', '/admin/pharmacy/addo-list', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field })]);
    }
    expect((await send('GET', '/admin/pharmacy/addo-list?page=0')).body.errors).toEqual([expect.objectContaining({ field: 'page' })]);
    expect((await send('GET', '/admin/pharmacy/addo-list/history?since_version=-1')).body.errors).toEqual([
      expect.objectContaining({ field: 'since_version' }),
    ]);
    expect((await list('/admin/pharmacy/addo-list')).meta.version).toBe(0);
  });

  let para: z.infer<typeof AddoMedicine>;
  let amox: z.infer<typeof AddoMedicine>;

  it('adds entries, each one a new version, and refuses a duplicate ignoring case and spaces with 409', async () => {
    const first = await send('POST', '/admin/pharmacy/addo-list', { ...paracetamol, generic_name: '  Paracetamol ' });
    expect(first.status, first.text).toBe(201);
    para = Envelope(AddoMedicine).parse(first.body).data;
    expect(first.body.message).toBe('medicine added to the ADDO list');
    expect(para).toMatchObject({ ...paracetamol, notes: null, version_added: 1, version_updated: 1 });
    const second = await send('POST', '/admin/pharmacy/addo-list', amoxicillin);
    expect(second.status, second.text).toBe(201);
    amox = Envelope(AddoMedicine).parse(second.body).data;
    expect(amox).toMatchObject({ ...amoxicillin, version_added: 2, version_updated: 2 });

    for (const dup of [
      paracetamol,
      { generic_name: 'PARACETAMOL', strength: '500mg', dosage_form: 'tablet' },
      { generic_name: 'para cetamol', strength: '500 MG', dosage_form: 'tablet' },
    ]) {
      const res = await send('POST', '/admin/pharmacy/addo-list', dup);
      expect(res.status, JSON.stringify(dup)).toBe(409);
      expect(res.body.errors).toEqual([
        {
          code: 'DUPLICATE',
          field: 'generic_name',
          message: 'this medicine (generic name, strength and dosage form) is already on the ADDO list',
        },
      ]);
    }
    // Another strength or form is another medicine.
    expect(
      (await send('POST', '/admin/pharmacy/addo-list', { ...paracetamol, strength: '120 mg/5 ml', dosage_form: 'syrup' })).status,
    ).toBe(201);

    const page = await list('/admin/pharmacy/addo-list');
    expect(page.meta).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1, version: 3 });
    expect(page.data.map((m) => [m.generic_name, m.strength, m.dosage_form])).toEqual([
      ['Amoxicillin', '250 mg', 'capsule'],
      ['Paracetamol', '120 mg/5 ml', 'syrup'],
      ['Paracetamol', '500 mg', 'tablet'],
    ]);
  });

  it('corrects an entry as a new version; a correction into a duplicate is 409, one that changes nothing makes no version', async () => {
    const res = await send('PATCH', `/admin/pharmacy/addo-list/${amox.id}`, { strength: '500 mg', notes: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('ADDO list entry corrected');
    expect(Envelope(AddoMedicine).parse(res.body).data).toMatchObject({
      id: amox.id,
      generic_name: 'Amoxicillin',
      strength: '500 mg',
      dosage_form: 'capsule',
      notes: null,
      version_added: 2,
      version_updated: 4,
    });

    const dup = await send('PATCH', `/admin/pharmacy/addo-list/${amox.id}`, { generic_name: 'paracetamol', dosage_form: 'tablet' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'generic_name' });

    const same = await send('PATCH', `/admin/pharmacy/addo-list/${amox.id}`, { strength: '500 mg' });
    expect(same.status).toBe(200);
    expect(same.body.data.version_updated).toBe(4);

    const empty = await send('PATCH', `/admin/pharmacy/addo-list/${amox.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', message: 'send at least one field' })]);
    const bad = await send('PATCH', `/admin/pharmacy/addo-list/${amox.id}`, { dosage_form: 'pill' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'dosage_form' })]);
    expect((await send('PATCH', `/admin/pharmacy/addo-list/${UNKNOWN}`, { strength: '1 g' })).status).toBe(404);
    expect((await list('/admin/pharmacy/addo-list')).meta.version).toBe(4);
  });

  it('removes an entry as a new version: off the list, kept in the history; a second removal is 404', async () => {
    const res = await send('DELETE', `/admin/pharmacy/addo-list/${para.id}`);
    expect(res.status, res.text).toBe(204);
    const page = await list('/admin/pharmacy/addo-list');
    expect(page.meta).toMatchObject({ total: 2, version: 5 });
    expect(page.data.map((m) => m.id)).not.toContain(para.id);

    const again = await send('DELETE', `/admin/pharmacy/addo-list/${para.id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('ADDO list entry not found');
    expect((await send('PATCH', `/admin/pharmacy/addo-list/${para.id}`, { strength: '1 g' })).status).toBe(404);
    expect(
      await t.db.db.selectFrom('addo_medicines').select(['version_added', 'version_removed']).where('id', '=', para.id).executeTakeFirst(),
    ).toEqual({ version_added: 1, version_removed: 5 });

    // Once removed, the same medicine may be added again: a new entry.
    const back = await send('POST', '/admin/pharmacy/addo-list', { ...paracetamol, notes: 'Back on the list' });
    expect(back.status, back.text).toBe(201);
    expect(back.body.data).toMatchObject({ ...paracetamol, notes: 'Back on the list', version_added: 6 });
    expect(back.body.data.id).not.toBe(para.id);
  });

  it('shows each change in its version with the admin who made it', async () => {
    const h = await history();
    expect(h.meta).toEqual({ page: 1, page_size: 20, total: 6, total_pages: 1 });
    expect(h.data.map((c) => [c.version, c.kind, c.entry.generic_name, c.entry.strength, c.entry.dosage_form])).toEqual([
      [6, 'added', 'Paracetamol', '500 mg', 'tablet'],
      [5, 'removed', 'Paracetamol', '500 mg', 'tablet'],
      [4, 'corrected', 'Amoxicillin', '500 mg', 'capsule'],
      [3, 'added', 'Paracetamol', '120 mg/5 ml', 'syrup'],
      [2, 'added', 'Amoxicillin', '250 mg', 'capsule'],
      [1, 'added', 'Paracetamol', '500 mg', 'tablet'],
    ]);
    expect(h.data.every((c) => c.user_id === admin.userId && c.user_name === 'Platform Admin')).toBe(true);
    const correction = h.data.find((c) => c.version === 4)!;
    expect(correction.entry_id).toBe(amox.id);
    expect(correction.previous).toEqual(amoxicillin);
    expect(correction.entry).toEqual({ ...amoxicillin, strength: '500 mg', notes: null });
    expect(h.data.filter((c) => c.kind !== 'corrected').every((c) => c.previous === null)).toBe(true);

    expect((await history(`?entry_id=${para.id}`)).data.map((c) => [c.version, c.kind])).toEqual([
      [5, 'removed'],
      [1, 'added'],
    ]);
    expect((await history('?since_version=4')).data.map((c) => c.version)).toEqual([6, 5]);
    const paged = await history('?page=2&page_size=4');
    expect(paged.meta).toEqual({ page: 2, page_size: 4, total: 6, total_pages: 2 });
    expect(paged.data.map((c) => c.version)).toEqual([2, 1]);
  });

  it('writes an audit entry for every change, shown in the admin activity feed', async () => {
    const res = await send('GET', '/admin/monitoring/activity?action=admin.addo_list');
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.total).toBe(6);
    expect(res.body.data.map((e: { action: string; description: string }) => [e.action, e.description])).toEqual([
      ['admin.addo_list.add', 'Platform admin added Paracetamol 500 mg tablet to the ADDO list (version 6)'],
      ['admin.addo_list.remove', 'Platform admin removed Paracetamol 500 mg tablet from the ADDO list (version 5)'],
      ['admin.addo_list.correct', 'Platform admin corrected Amoxicillin 250 mg capsule on the ADDO list: strength, notes (version 4)'],
      ['admin.addo_list.add', 'Platform admin added Paracetamol 120 mg/5 ml syrup to the ADDO list (version 3)'],
      ['admin.addo_list.add', 'Platform admin added Amoxicillin 250 mg capsule to the ADDO list (version 2)'],
      ['admin.addo_list.add', 'Platform admin added Paracetamol 500 mg tablet to the ADDO list (version 1)'],
    ]);
    expect(
      res.body.data.every(
        (e: { user_id: string; user_name: string; org_id: string | null; entity: string }) =>
          e.user_id === admin.userId && e.user_name === 'Platform Admin' && e.org_id === null && e.entity === 'addo_medicine',
      ),
    ).toBe(true);
  });

  it('an owner and a cashier read the list in force with its version, searched and paged', async () => {
    for (const token of [owner.token, cashier]) {
      const page = await list('/pharmacy/addo-list', token);
      expect(page.meta).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1, version: 6 });
      expect(page.data.map((m) => [m.generic_name, m.strength, m.dosage_form, m.notes])).toEqual([
        ['Amoxicillin', '500 mg', 'capsule', null],
        ['Paracetamol', '120 mg/5 ml', 'syrup', null],
        ['Paracetamol', '500 mg', 'tablet', 'Back on the list'],
      ]);
    }
    expect((await list('/pharmacy/addo-list?search=PARACET', cashier)).data.map((m) => m.strength)).toEqual(['120 mg/5 ml', '500 mg']);
    expect((await list('/pharmacy/addo-list?search=5%20ml', cashier)).data.map((m) => m.dosage_form)).toEqual(['syrup']);
    expect((await list('/pharmacy/addo-list?dosage_form=capsule', cashier)).data.map((m) => m.generic_name)).toEqual(['Amoxicillin']);
    const second = await list('/pharmacy/addo-list?page=2&page_size=2', owner.token);
    expect(second.meta).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2, version: 6 });
    expect(second.data.map((m) => m.strength)).toEqual(['500 mg']);
    const bad = await t.request('GET', '/pharmacy/addo-list?dosage_form=pill', { token: cashier });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'dosage_form' })]);
  });

  it('a new ADDO entry reaches shops at once: the version they hold tells them the list changed', async () => {
    expect((await send('POST', '/admin/pharmacy/addo-list', ors)).status).toBe(201);
    const page = await list('/pharmacy/addo-list?search=rehydration', owner.token);
    expect(page.meta.version).toBe(7);
    expect(page.data).toEqual([expect.objectContaining({ ...ors, notes: null, version_added: 7, version_updated: 7 })]);
  });

  it('admins writing at the same moment get one version each, and only one of the same medicine goes on', async () => {
    const names = ['Albendazole', 'Mebendazole', 'Ferrous sulphate', 'Folic acid'];
    const added = await Promise.all(
      names.map((generic_name) => send('POST', '/admin/pharmacy/addo-list', { generic_name, strength: '400 mg', dosage_form: 'tablet' })),
    );
    expect(added.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(added.map((r) => r.body.data.version_added as number).sort((x, y) => x - y)).toEqual([8, 9, 10, 11]);
    const same = await Promise.all(
      [1, 2, 3].map(() =>
        send('POST', '/admin/pharmacy/addo-list', { generic_name: 'Zinc sulphate', strength: '20 mg', dosage_form: 'tablet' }),
      ),
    );
    expect(same.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await list('/pharmacy/addo-list?search=zinc', cashier)).meta).toMatchObject({ total: 1, version: 12 });
    expect((await history()).meta.total).toBe(12);
  });

  it('is in the OpenAPI document with its schemas', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    for (const [path, methods] of [
      ['/pharmacy/addo-list', ['get']],
      ['/admin/pharmacy/addo-list', ['get', 'post']],
      ['/admin/pharmacy/addo-list/{id}', ['patch', 'delete']],
      ['/admin/pharmacy/addo-list/history', ['get']],
    ] as const) {
      for (const method of methods) expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.paths['/admin/pharmacy/addo-list'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreateAddoMedicineInput',
    );
    expect(Object.keys(doc.components.schemas.AddoMedicine.properties).sort()).toEqual([
      'created_at',
      'dosage_form',
      'generic_name',
      'id',
      'notes',
      'strength',
      'updated_at',
      'version_added',
      'version_updated',
    ]);
    expect(doc.components.schemas.AddoChangeKind.enum).toEqual(['added', 'corrected', 'removed']);
    expect(doc.components.schemas.AddoListMeta.properties.version).toBeDefined();
  });
});
