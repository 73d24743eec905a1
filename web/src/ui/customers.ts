/** The store's customers with what each owes, and adding one (queued like a sale; works offline). */
import type { Till } from '@duka/client-sdk';
import type { Customer } from '@duka/shared';
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { owes } from './customer-picker.js';
import { errorText } from './errors.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';

export function Customers({ till, version, onChanged }: { till: Till; version: number; onChanged: () => void }) {
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const customers = useLoad(
    () => till.customers({ search: search.trim() || undefined, limit: 100 }),
    [till, search, version],
    [] as Customer[],
  );

  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const customer = await till.createCustomer({ name: name.trim(), ...(phone.trim() ? { phone: phone.trim() } : {}) });
      setMessage({ error: false, text: t('customers.saved', { name: customer.name }) });
      setName('');
      setPhone('');
      onChanged();
    } catch (err) {
      setMessage({ error: true, text: errorText(err) });
    }
  };

  return html`
    <section class="customers" data-testid="customers">
      <h2>${t('customers.title')}</h2>
      <form class="new-customer" onSubmit=${create} data-testid="customer-form">
        <strong>${t('customers.new')}</strong>
        <input required data-testid="customer-name" placeholder=${t('customers.name')} value=${name} onInput=${(e: any) => setName(e.currentTarget.value)} />
        <input type="tel" data-testid="customer-phone" placeholder=${t('customers.phone')} value=${phone} onInput=${(e: any) => setPhone(e.currentTarget.value)} />
        <button type="submit" class="primary" data-testid="customer-save">${t('customers.save')}</button>
      </form>
      ${message ? html`<p class=${message.error ? 'error' : 'ok'} role="status" data-testid="customer-message">${message.text}</p>` : null}
      <input type="search" data-testid="customer-search" placeholder=${t('customers.search')} value=${search} onInput=${(e: any) => setSearch(e.currentTarget.value)} />
      ${customers.length === 0 ? html`<p class="empty">${t('customers.none')}</p>` : null}
      <table>
        <tbody>
          ${customers.map(
            (c) => html`
              <tr key=${c.id} data-testid="customer-row" data-customer-id=${c.id}>
                <td>${c.name}</td>
                <td>${c.phone ?? ''}</td>
                <td class=${`num ${c.outstanding_balance > 0 ? 'owing' : ''}`} data-testid="customer-owes" data-amount=${c.outstanding_balance}>${owes(c)}</td>
              </tr>
            `,
          )}
        </tbody>
      </table>
    </section>
  `;
}
