/**
 * The screens, in the order a cashier meets them: the till opening (or refusing to), signing in,
 * the shop loading, then selling. Signing in and the first load need the network once; a till
 * signed in before opens straight to selling, online or not.
 */
import type { Receipt, Till, TillUser } from '@duka/client-sdk';
import type { Organisation, Product, Store } from '@duka/shared';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { addLabel, addProduct, type Cart, emptyCart, measured, parseScan } from '../cart.js';
import { AskQuantity } from './ask-quantity.js';
import { inOrder } from '../in-order.js';
import { lang, setLang, shopZone, t } from '../i18n.js';
import { PrinterButton, PrinterPanel } from '../print/printer-panel.js';
import { host } from '../till-host.js';
import { Blocked } from './blocked.js';
import { Bootstrap } from './bootstrap.js';
import { CartPanel, CartToggle } from './cart-panel.js';
import { Customers } from './customers.js';
import { SignOutBlocked, StorageWarning, useScanFocus, useUnsentGuard } from './guards.js';
import { errorText } from './errors.js';
import { html } from './html.js';
import { useLoad, useSignal, useTillEvent, useTillStatus } from './hooks.js';
import { Problems } from './problems.js';
import { Products } from './products.js';
import { ReceiptView } from './receipt.js';
import { SetPassword } from './set-password.js';
import { Sales } from './sales.js';
import { ShiftView } from './shift.js';
import { offlineNotice, SignIn } from './sign-in.js';
import { StatusBar } from './status-bar.js';
import { StockCount } from './stock-count.js';

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
  // Without its tokens a till that never loaded the shop, or whose user must still set a password, has nothing to
  // offer but signing in again: never a screen that waits for a sync that cannot come (issue 49).
  const stranded = !!user && status.authRequired && (!status.bootstrapped || user.password_change_required === true);
  if (!user || signingIn || stranded) {
    // With a user still known and not signed out on purpose (tokens expired), the cashier may go back to selling offline.
    const back = user && !stranded && localStorage.getItem(SIGNED_OUT_KEY) !== '1' ? () => setSigningIn(false) : undefined;
    return html`<${SignIn} till=${till} onSignedIn=${signedIn} onCancel=${back} ended=${stranded && !signingIn} />`;
  }
  if (user.password_change_required) return html`<${SetPassword} till=${till} onDone=${setUser} onSignIn=${signedOut} />`;
  if (!status.bootstrapped) return html`<${Bootstrap} till=${till} />`;
  return html`<${Main} till=${till} user=${user} onSignedOut=${signedOut} onSignIn=${() => setSigningIn(true)} />`;
}

type View = 'sell' | 'shift' | 'sales' | 'customers' | 'count' | 'conflicts';
const VIEWS: View[] = ['sell', 'shift', 'sales', 'customers', 'count', 'conflicts'];

function Main({ till, user, onSignedOut, onSignIn }: { till: Till; user: TillUser; onSignedOut: () => void; onSignIn: () => void }) {
  const status = useTillStatus(till);
  const offline = useSignal(offlineNotice);
  const [view, setView] = useState<View>('sell');
  const [cart, setCart] = useState<Cart>(emptyCart);
  const [cartOpen, setCartOpen] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [signOutBlocked, setSignOutBlocked] = useState(false);
  // Moves whenever the replica may have changed (a sale, a sync), so every list reads it again.
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  useTillEvent(till, 'synced', bump);
  useTillEvent(till, 'conflict', bump);
  useTillEvent(till, 'rejected', bump);
  useUnsentGuard(status.pending);
  // A product sold by a measure asks how much (issue 51); a scale label or a pack says it itself.
  const [asking, setAsking] = useState<Product | null>(null);
  useScanFocus(view === 'sell' && !receipt && !asking);
  const conflicts = useLoad(async () => (await till.conflicts()).length, [till, version], 0);
  const shiftOpen = useLoad(async () => (await till.currentShift()) !== null, [till, version], true);
  const shop = useLoad(() => till.organisation(), [till, version], null as Organisation | null);
  const store = useLoad(() => till.store(), [till, version], null as Store | null);
  // Set while rendering, so this very render (and every date in it) reads the shop's clock.
  if (shop?.timezone) shopZone.set(shop.timezone);

  const add = useCallback((p: Product) => (measured(p) ? setAsking(p) : setCart((c) => addProduct(c, p))), []);
  // Looked up at once, added in the order scanned (in-order.ts).
  const [scans] = useState(inOrder);
  const scan = (typed: string) => {
    const { code, qty } = parseScan(typed);
    return scans(
      till.productByCode(code),
      (product) => {
        if (product?.scale_label) setCart((c) => addLabel(c, product));
        else if (product?.scanned_pack) setCart((c) => addProduct(c, product, qty, product.scanned_pack!));
        else if (product && measured(product)) setAsking(product);
        else if (product) setCart((c) => addProduct(c, product, qty));
        setNotice(product ? null : t('products.not_found', { code }));
      },
      (err) => setNotice(errorText(err)),
    );
  };
  const sold = (r: Receipt) => {
    setCart(emptyCart());
    setCartOpen(false);
    setReceipt(r);
    bump();
  };
  const closeReceipt = () => (setReceipt(null), bump());
  const signOut = async () => {
    // Signing out with unsent work would leave it on this device until someone signs in again.
    if (till.status().pending > 0) return setSignOutBlocked(true);
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
      ${user.role === 'owner' ? html`<${StorageWarning} />` : null}
      ${
        status.clockWrong && status.clockOffsetMs !== null
          ? html`<p class="banner warn no-print" role="alert" data-testid="clock-wrong">${t(status.clockOffsetMs > 0 ? 'clock.behind' : 'clock.ahead', { minutes: Math.round(Math.abs(status.clockOffsetMs) / 60_000) })}</p>`
          : null
      }
      ${offline && status.authRequired ? html`<p class="banner no-print" role="status" data-testid="offline-signed-in">${t('signin.offline_done')}</p>` : null}
      <div class="body no-print">
        ${
          view === 'sell'
            ? html`${shiftOpen ? null : html`<p class="banner" data-testid="no-shift">${t('shift.none_open')} <button data-testid="no-shift-open" onClick=${() => setView('shift')}>${t('shift.open_now')}</button></p>`}
              <div class=${`sell ${cartOpen ? 'cart-open' : ''}`}>
              <${Products} till=${till} version=${version} notice=${notice} onAdd=${add} onScan=${scan} />
              <${CartPanel} till=${till} user=${user} version=${version} cart=${cart} fiscal=${store?.fiscal === true} keys=${!receipt}
                onCart=${setCart} onSold=${sold} onHide=${() => setCartOpen(false)} />
              <${CartToggle} cart=${cart} onOpen=${() => setCartOpen(true)} />
            </div>`
            : view === 'shift'
              ? html`<${ShiftView} till=${till} version=${version} shop=${shop?.name ?? ''} onChanged=${bump} />`
              : view === 'sales'
                ? html`<${Sales} till=${till} user=${user} version=${version} onChanged=${bump} onView=${setReceipt} />`
                : view === 'customers'
                  ? html`<${Customers} till=${till} version=${version} onChanged=${bump} />`
                  : view === 'count'
                    ? html`<${StockCount} till=${till} version=${version} />`
                    : html`<${Problems} till=${till} version=${version} onChanged=${bump} onView=${setReceipt} />`
        }
      </div>
      <${StatusBar} status=${status} conflicts=${conflicts} onConflicts=${() => setView('conflicts')} onSignIn=${onSignIn} />
      ${
        receipt
          ? html`<${ReceiptView} till=${till} version=${version} sale=${receipt} shop=${shop} store=${store} onClose=${closeReceipt}
              onScan=${(code: string) => (closeReceipt(), setView('sell'), scan(code))} />`
          : null
      }
      ${
        asking
          ? html`<${AskQuantity} product=${asking} onCancel=${() => setAsking(null)}
              onAdd=${(qty: number) => (setCart((c) => addProduct(c, asking, qty)), setAsking(null))} />`
          : null
      }
      ${signOutBlocked ? html`<${SignOutBlocked} till=${till} pending=${status.pending} onClose=${() => setSignOutBlocked(false)} />` : null}
      <${PrinterPanel} />
    </div>
  `;
}
