/** Adding a cashier or manager: the server texts them a temporary password (POST /staff). */
import type { StaffMember } from '@duka/shared';
import { signal } from '@preact/signals';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { navigate } from '../../ui/router.js';
import { FLAGS, type Flag, t } from './messages.js';
import { useStoreNames } from './names.js';

/** The phone a temporary password was just texted to, for the new member's page to say so once. */
export const justAdded = signal<string | null>(null);

export function AddStaff() {
  const stores = useStoreNames();
  const form = useValues({ first_name: '', last_name: '', phone: '', role: 'staff', store_id: '' });
  const [flags, setFlagValues] = useState<Partial<Record<Flag, boolean>>>({});
  const setFlags = (f: Flag, v: boolean) => setFlagValues((was) => ({ ...was, [f]: v }));
  const submission = useSubmit(async () => {
    const { store_id, ...fields } = form.values;
    const chosen = Object.fromEntries(FLAGS.filter((f) => flags[f] !== undefined).map((f) => [f, flags[f]]));
    const { data } = await api<StaffMember>('POST', '/staff', { body: { ...fields, ...(store_id ? { store_id } : {}), ...chosen } });
    justAdded.value = data.phone;
    navigate(`staff/${data.id}`);
  });
  const error = submission.error;
  // A manager's flags default to on, a cashier's to off (the server's rule): the boxes show that until ticked.
  const checked = (f: Flag) => flags[f] ?? form.values.role === 'manager';
  return html`<section class="staff-add">
    <h1>${t('add.title')}</h1>
    <form class="stack card" data-testid="staff-form" onSubmit=${submission.submit}>
      <${ErrorBanner} error=${error} />
      <div class="two">
        <${Field} label=${t('first_name')} name="first_name" error=${error}><input data-testid="staff-first_name" required ...${form.bind('first_name')} /></${Field}>
        <${Field} label=${t('last_name')} name="last_name" error=${error}><input data-testid="staff-last_name" ...${form.bind('last_name')} /></${Field}>
      </div>
      <${Field} label=${t('phone')} name="phone" error=${error}><input type="tel" data-testid="staff-phone" required ...${form.bind('phone')} /></${Field}>
      <div class="two">
        <${Field} label=${t('role')} name="role" error=${error}>
          <select data-testid="staff-role-input" ...${form.bind('role')} onChange=${form.bind('role').onInput}>
            <option value="staff">${t('role.staff')}</option><option value="manager">${t('role.manager')}</option>
          </select>
        </${Field}>
        <${Field} label=${t('store')} name="store_id" error=${error}>
          <select data-testid="staff-store" ...${form.bind('store_id')} onChange=${form.bind('store_id').onInput}>
            <option value="">${t('store.current')}</option>
            ${[...stores].map(([id, name]) => html`<option value=${id}>${name}</option>`)}
          </select>
        </${Field}>
      </div>
      <fieldset class="flags">
        <legend>${t('permissions')}</legend>
        ${FLAGS.map(
          (f) => html`<label class="check" data-field=${f}>
            <input type="checkbox" data-testid=${`staff-${f}`} checked=${checked(f)} onChange=${(e: Event) => setFlags(f, (e.currentTarget as HTMLInputElement).checked)} />
            ${t(f)}
          </label>`,
        )}
      </fieldset>
      <button class="primary" type="submit" disabled=${submission.busy} data-testid="staff-submit">${submission.busy ? core('loading') : t('add.submit')}</button>
    </form>
  </section>`;
}
