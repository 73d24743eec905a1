/** One member: permissions, shift and status, a password reset and deactivation, each confirmed first where it cannot be undone. */
import type { StaffMember } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { api, type ApiError } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { Confirm } from '../../ui/confirm.js';
import { ErrorBanner, Field, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { follow, href } from '../../ui/router.js';
import { justAdded } from './add.js';
import { FLAGS, type Flag, SHIFTS, t } from './messages.js';
import { fullName } from './names.js';

export function StaffDetail({ id }: { id: string }) {
  const [member, setMember] = useState<StaffMember | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(justAdded.value ? t('added', { phone: justAdded.value }) : null);
  useEffect(() => {
    justAdded.value = null;
    api<StaffMember>('GET', `/staff/${id}`).then(
      (a) => setMember(a.data),
      (e: ApiError) => setError(e),
    );
  }, [id]);
  const act = (path: string, method: 'POST' | 'DELETE', done: string) =>
    useSubmit(async () => {
      setNotice(null);
      await api(method, path);
      setNotice(done);
      if (method === 'DELETE') setMember((m) => m && { ...m, is_active: false, employment_status: 'inactive' });
    });
  const reset = act(`/staff/${id}/reset-password`, 'POST', t('reset.done'));
  const remove = act(`/staff/${id}`, 'DELETE', t('deactivated'));

  const back = html`<a href=${href('staff')} onClick=${(e: MouseEvent) => follow(e, 'staff')}>← ${t('back')}</a>`;
  if (!member) return html`<section>${back}<${ErrorBanner} error=${error} />${error ? null : html`<p>${core('loading')}</p>`}</section>`;
  const name = fullName(member);
  return html`<section class="staff-detail" data-testid="staff-detail">
    ${back}
    <header class="screen-head">
      <h1>${name}</h1>
      <span class=${`pill ${member.employment_status}`} data-testid="staff-detail-status">${t(`status.${member.employment_status}`)}</span>
    </header>
    <p class="muted">${t(`role.${member.role as 'staff'}`)} · ${member.phone ?? '–'}</p>
    ${notice ? html`<div class="banner ok" role="status" data-testid="notice">${notice}</div>` : null}
    <div class="panels">
      ${may('PATCH /staff/{id}/permissions') ? html`<${Permissions} key=${member.updated_at} member=${member} onSaved=${setMember} />` : null}
      ${may('PATCH /staff/{id}/shift') ? html`<${Work} key=${member.updated_at} member=${member} onSaved=${setMember} />` : null}
    </div>
    ${
      member.is_active
        ? html`<div class="actions panel">
      <${ErrorBanner} error=${reset.error ?? remove.error} />
      ${may('POST /staff/{id}/reset-password') ? html`<${Confirm} label=${t('reset')} confirm=${t('reset.confirm')} testid="staff-reset" busy=${reset.busy} body=${t('reset.body', { phone: member.phone ?? '–', name })} onConfirm=${() => reset.submit()} />` : null}
      ${may('DELETE /staff/{id}') ? html`<${Confirm} danger label=${t('deactivate')} confirm=${t('deactivate.confirm')} testid="staff-deactivate" busy=${remove.busy} body=${t('deactivate.body', { name })} onConfirm=${() => remove.submit()} />` : null}
    </div>`
        : null
    }
  </section>`;
}

function Permissions({ member, onSaved }: { member: StaffMember; onSaved: (m: StaffMember) => void }) {
  const [flags, setFlags] = useState<Record<Flag, boolean>>(
    () => Object.fromEntries(FLAGS.map((f) => [f, member[f]])) as Record<Flag, boolean>,
  );
  const save = useSubmit(async () => onSaved((await api<StaffMember>('PATCH', `/staff/${member.id}/permissions`, { body: flags })).data));
  return html`<form class="panel stack" data-testid="staff-permissions" onSubmit=${save.submit}>
    <h2>${t('permissions')}</h2>
    <${ErrorBanner} error=${save.error} />
    ${FLAGS.map(
      (f) => html`<label class=${`check${save.error?.field(f) ? ' invalid' : ''}`} data-field=${f}>
        <input type="checkbox" data-testid=${`perm-${f}`} checked=${flags[f]} onChange=${(e: Event) => setFlags({ ...flags, [f]: (e.currentTarget as HTMLInputElement).checked })} />
        ${t(f)}
      </label>`,
    )}
    <small class="muted">${t('permissions.note')}</small>
    <button class="primary" type="submit" disabled=${save.busy} data-testid="perm-save">${t('permissions.save')}</button>
    ${save.done ? html`<span class="ok" role="status">${core('saved')}</span>` : null}
  </form>`;
}

function Work({ member, onSaved }: { member: StaffMember; onSaved: (m: StaffMember) => void }) {
  const [shift, setShift] = useState(member.shift ?? '');
  const [status, setStatus] = useState<string>(member.employment_status);
  const save = useSubmit(async () =>
    onSaved(
      (await api<StaffMember>('PATCH', `/staff/${member.id}/shift`, { body: { shift: shift || null, employment_status: status } })).data,
    ),
  );
  return html`<form class="panel stack" data-testid="staff-work" onSubmit=${save.submit}>
    <h2>${t('work')}</h2>
    <${ErrorBanner} error=${save.error} />
    <${Field} label=${t('shift')} name="shift" error=${save.error}>
      <select data-testid="staff-shift" value=${shift} onChange=${(e: Event) => setShift((e.currentTarget as HTMLSelectElement).value)}>
        <option value="">${t('shift.none')}</option>
        ${SHIFTS.map((s) => html`<option value=${s}>${t(`shift.${s}`)}</option>`)}
      </select>
    </${Field}>
    <${Field} label=${t('status')} name="employment_status" error=${save.error}>
      <select data-testid="staff-employment" value=${status} onChange=${(e: Event) => setStatus((e.currentTarget as HTMLSelectElement).value)}>
        ${(['active', 'on_leave', 'inactive'] as const).map((s) => html`<option value=${s}>${t(`status.${s}`)}</option>`)}
      </select>
    </${Field}>
    <button class="primary" type="submit" disabled=${save.busy} data-testid="work-save">${t('work.save')}</button>
    ${save.done ? html`<span class="ok" role="status">${core('saved')}</span>` : null}
  </form>`;
}
