/**
 * The screens, in the order a cashier meets them: the till opening (or refusing to), signing in,
 * the shop loading, then selling. Signing in and the first load need the network once; a till
 * signed in before opens straight to selling, online or not.
 */
import type { Receipt, Till, TillUser } from '@duka/client-sdk';
import type { Organisation, Product, Store } from '@duka/shared';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { addProduct, type Cart, emptyCart } from '../cart.js';
import { lang, setLang, shopZone, t } from '../i18n.js';
import { PrinterButton, PrinterPanel } from '../print/printer-panel.js';
import { host } from '../till-host.js';
import { Blocked } from './blocked.js';
import { Bootstrap } from './bootstrap.js';
import { CartPanel } from './cart-panel.js';
import { Conflicts } from './conflicts.js';
import { Customers } from './customers.js';
import { html } from './html.js';
import { useLoad, useSignal, useTillEvent, useTillStatus } from './hooks.js';
import { Products } from './products.js';
import { ReceiptView } from './receipt.js';
import { Sales } from './sales.js';
import { SignIn } from './sign-in.js';
import { StatusBar } from './status-bar.js';

export function App() {
  useSignal(lang);
  const state = useSignal(host);
  if (state.kind === 'opening') return html`<main class="loading" data-testid="loading">${t('loading')}</main>`;
  if (state.kind !== 'open') return html`<${Blocked} state=${state} />`;
  return html`<${TillApp} till=${state.till} />`;
}

// Set when a cashier signs out, so a reload shows the sign-in (the till remembers its last user for offline reloads).
const SIGNED_OUT_KEY = 'duka.till.signed-out';

function TillApp({ till }: { till: Till }) {
  const [user, setUser] = useState<TillUser | null | undefined>(undefined);
  const [signingIn, setSigningIn] = useState(() => localStorage.getItem(SIGNED_OUT_KEY) === '1');
  const status = useTillStatus(till);
  useEffect(() => void till.user().then(setUser), [till]);

  const signedIn = (u: TillUser) => {
    localStorage.removeItem(SIGNED_OUT_KEY);
    setSigningIn(false);
    setUser(u);
  };
  const signedOut = () => {
    localStorage.setItem(SIGNED_OUT_KEY, '1');
    setSigningIn(true);
  };

  if (user === undefined) return html`<main class="loading">${t('loading')}</main>`;
  if (!user || signingIn) {
    // With a user still known and not signed out on purpose (tokens expired), the cashier may go back to selling offline.
    const back = user && localStorage.getItem(SIGNED_OUT_KEY) !== '1' ? () => setSigningIn(false) : undefined;
    return html`<${SignIn} till=${till} onSignedIn=${signedIn} onCancel=${back} />`;
  }
  if (!status.bootstrapped) return html`<${Bootstrap} till=${till} />`;
  return html`<${Main} till=${till} user=${user} onSignedOut=${signedOut} onSignIn=${() => setSigningIn(true)} />`;
}

type View = 'sell' | 'sales' | 'customers' | 'conflicts';
const VIEWS: View[] = ['sell', 'sales', 'customers', 'conflicts'];

function Main({ till, user, onSignedOut, onSignIn }: { till: Till; user: TillUser; onSignedOut: () => void; onSignIn: () => void }) {
  const status = useTillStatus(till);
  const [view, setView] = useState<View>('sell');
  const [cart, setCart] = useState<Cart>(emptyCart);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  // Moves whenever the replica may have changed (a sale, a sync), so every list reads it again.
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  useTillEvent(till, 'synced', bump);
  useTillEvent(till, 'conflict', bump);
  useTillEvent(till, 'rejected', bump);
  const conflicts = useLoad(async () => (await till.conflicts()).length, [till, version], 0);
  const shop = useLoad(() => till.organisation(), [till, version], null as Organisation | null);
  const store = useLoad(() => till.store(), [till, version], null as Store | null);
  // Set while rendering, so this very render (and every date in it) reads the shop's clock.
  if (shop?.timezone) shopZone.set(shop.timezone);

  const add = useCallback((p: Product) => setCart((c) => addProduct(c, p)), []);
  const sold = (r: Receipt) => {
    setCart(emptyCart());
    setReceipt(r);
    bump();
  };
  const signOut = async () => {
    await till.logout();
    onSignedOut();
  };

  return html`
    <div class="app">
      <header class="top no-print">
        <strong class="shop" data-testid="shop-name">${shop?.name ?? t('app.title')}${store && store.name !== shop?.name ? ` · ${store.name}` : ''}</strong>
        <nav>
          ${VIEWS.map(
            (v) =>
              html`<button key=${v} class=${view === v ? 'selected' : ''} data-testid=${`nav-${v}`} onClick=${() => setView(v)}>${t(`nav.${v}`)}</button>`,
          )}
        </nav>
        <span class="user">${user.first_name}</span>
        <${PrinterButton} />
        <button data-testid="lang-switch" onClick=${() => setLang(lang.get() === 'en' ? 'sw' : 'en')}>${t('lang.switch')}</button>
        <button data-testid="sign-out" onClick=${signOut}>${t('nav.sign_out')}</button>
      </header>
      <div class="body no-print">
        ${
          view === 'sell'
            ? html`<div class="sell">
              <${Products} till=${till} version=${version} onAdd=${add} />
              <${CartPanel} till=${till} user=${user} version=${version} cart=${cart} fiscal=${store?.fiscal === true} onCart=${setCart} onSold=${sold} />
            </div>`
            : view === 'sales'
              ? html`<${Sales} till=${till} user=${user} version=${version} onChanged=${bump} onView=${setReceipt} />`
              : view === 'customers'
                ? html`<${Customers} till=${till} version=${version} onChanged=${bump} />`
                : html`<${Conflicts} till=${till} version=${version} />`
        }
      </div>
      <${StatusBar} status=${status} conflicts=${conflicts} onConflicts=${() => setView('conflicts')} onSignIn=${onSignIn} />
      ${receipt ? html`<${ReceiptView} till=${till} version=${version} sale=${receipt} shop=${shop} store=${store} onClose=${() => (setReceipt(null), bump())} />` : null}
      <${PrinterPanel} />
    </div>
  `;
}
