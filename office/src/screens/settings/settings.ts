/**
 * Settings: the organisation and this store, TRA receipts, mobile money, the SMS sender, the plan
 * and the tills. Each section is its own file and is shown only to whoever may read it (access.ts).
 */
import { may } from '../../access.js';
import { html } from '../../ui/html.js';
import { BillingSection } from './billing.js';
import { DevicesSection } from './devices.js';
import { FiscalSection } from './fiscal.js';
import { t } from './messages.js';
import { MobileMoneySection } from './mobile-money.js';
import { OrganisationSection, StoreSection } from './organisation.js';
import { SmsSection } from './sms.js';

export function Screen() {
  return html`<section class="settings">
    <header class="screen-head"><h1>${t('title')}</h1></header>
    ${may('GET /accounts/organisation') ? html`<${OrganisationSection} />` : null}
    ${may('GET /stores/{id}') ? html`<${StoreSection} />` : null}
    ${may('GET /stores/{id}/fiscal') ? html`<${FiscalSection} />` : null}
    ${may('GET /payments/collection-accounts') ? html`<${MobileMoneySection} />` : null}
    ${may('GET /sms/account') && may('GET /accounts/organisation') ? html`<${SmsSection} />` : null}
    ${may('GET /subscriptions/current') ? html`<${BillingSection} />` : null}
    ${may('GET /sync/devices') ? html`<${DevicesSection} />` : null}
  </section>`;
}
