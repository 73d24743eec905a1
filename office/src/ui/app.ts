/**
 * The shell: sign-in (or registration) until there is a session, then the menu of the screens
 * this user may open and the screen the URL names. A screen the user may not open says so rather
 * than showing what the server would refuse.
 */
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { profile, may } from '../access.js';
import { api, keepSession, session, switchStore } from '../api.js';
import { t } from '../i18n/core.js';
import { lang, setLang } from '../i18n/lang.js';
import type { Profile } from '@duka/shared';
import { html } from './html.js';
import { follow, href, path } from './router.js';
import { SCREENS, type ScreenDef } from './screens.js';
import { SetPassword, SignIn } from './sign-in.js';
import { ErrorBanner } from './form.js';
import { ApiError } from '../api.js';

export function App() {
  const signedIn = session.value;
  const me = profile.value;
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    if (!signedIn || signedIn.password_change) {
      profile.value = null;
      return;
    }
    setError(null);
    api<Profile>('GET', '/accounts/me')
      .then((a) => (profile.value = a.data))
      .catch((e: ApiError) => setError(e));
  }, [signedIn?.refresh_token, signedIn?.password_change]);

  if (!signedIn) return html`<${SignIn} />`;
  if (signedIn.password_change) return html`<${SetPassword} />`;
  if (!me)
    return error ? html`<main class="center"><${ErrorBanner} error=${error} /></main>` : html`<main class="center">${t('loading')}</main>`;
  return html`<${Shell} me=${me} />`;
}

function Shell({ me }: { me: Profile }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const segments = path.value.split('/').filter(Boolean);
  const screen = SCREENS.find((s) => s.path === (segments[0] ?? ''));
  const open = SCREENS.filter((s) => may(s.route));
  const go = (e: MouseEvent, to: string) => {
    setMenuOpen(false);
    follow(e, to);
  };

  return html`<div class="shell">
    <header class="top">
      <button class="menu-button" aria-expanded=${menuOpen} data-testid="menu" onClick=${() => setMenuOpen(!menuOpen)}>☰ ${t('nav.menu')}</button>
      <strong class="shop" data-testid="shop-name">${me.organisation?.name ?? t('app.title')}</strong>
      <${StoreSwitch} me=${me} />
      <button class="link" data-testid="lang" onClick=${() => setLang(lang.value === 'en' ? 'sw' : 'en')}>${t('lang.switch')}</button>
      <button class="link" data-testid="sign-out" onClick=${signOut}>${t('signout')}</button>
    </header>
    <nav class=${`side${menuOpen ? ' open' : ''}`} data-testid="nav">
      ${open.map(
        (s) =>
          html`<a href=${href(s.path)} data-testid=${`nav-${s.path || 'today'}`} class=${s === screen ? 'selected' : ''} onClick=${(e: MouseEvent) => go(e, s.path)}
            >${t(s.name)}</a
          >`,
      )}
    </nav>
    <main class="screen">
      ${
        !screen
          ? html`<h1>${t('notfound.title')}</h1>`
          : may(screen.route)
            ? // Keyed by the store too: after a store switch the screen starts again on the new store's figures.
              html`<${Lazy} key=${`${screen.path}@${me.store?.id ?? ''}`} def=${screen} rest=${segments.slice(1)} />`
            : html`<section data-testid="refused"><h1>${t('refused.title')}</h1><p>${t('refused.body', { screen: t(screen.name) })}</p></section>`
      }
    </main>
  </div>`;
}

function Lazy({ def, rest }: { def: ScreenDef; rest: string[] }) {
  const [Screen, setScreen] = useState<FunctionComponent<{ rest: string[] }> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    def
      .load()
      .then((m) => setScreen(() => m.Screen))
      .catch(() => setFailed(true));
  }, [def]);
  if (failed) return html`<${ErrorBanner} error=${new ApiError(0, '', 'NETWORK')} />`;
  return Screen ? html`<${Screen} rest=${rest} />` : html`<p>${t('loading')}</p>`;
}

function StoreSwitch({ me }: { me: Profile }) {
  if (me.stores.length < 2 || !may('POST /accounts/switch-store')) return null;
  const change = (e: Event) => switchStore((e.currentTarget as HTMLSelectElement).value);
  return html`<label class="store-switch">${t('store.switch')}
    <select data-testid="store-switch" value=${me.store?.id} onChange=${change}>
      ${me.stores.map((s) => html`<option value=${s.id}>${s.name}</option>`)}
    </select>
  </label>`;
}

function signOut() {
  // Logout is stateless (the contract): the server is told, the tokens are dropped either way.
  void api('POST', '/auth/logout').catch(() => {});
  keepSession(null);
}
