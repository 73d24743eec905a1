/**
 * Signing in with the same accounts as the till (a password; staff first get a temporary one by
 * SMS and must choose their own before anything else), or registering a new shop.
 */
import type { Region, BusinessType, LoginResult, RegisterResult } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, get, keepSession, session } from '../api.js';
import { t } from '../i18n/core.js';
import { lang, setLang } from '../i18n/lang.js';
import { ErrorBanner, Field, inputsFor, useSubmit, useValues } from './form.js';
import { html } from './html.js';

export function SignIn() {
  const [registering, setRegistering] = useState(false);
  return html`<main class="center">
    <button class="link lang" onClick=${() => setLang(lang.value === 'en' ? 'sw' : 'en')}>${t('lang.switch')}</button>
    ${registering ? html`<${Register} />` : html`<${PasswordSignIn} />`}
    <button class="link" data-testid="toggle-register" onClick=${() => setRegistering(!registering)}>
      ${registering ? t('signin.have_account') : t('signin.register')}
    </button>
  </main>`;
}

function PasswordSignIn() {
  const { values, bind } = useValues({ identifier: '', password: '' });
  const form = useSubmit(async () => {
    const { data } = await api<LoginResult>('POST', '/auth/login', {
      body: { identifier: values.identifier.trim(), password: values.password },
    });
    if (!('access_token' in data) || !data.access_token)
      throw new Error('this account signs in with an authenticator code, which the back office does not take');
    keepSession(data as { access_token: string; refresh_token: string }, data.user?.password_change_required === true);
  });
  return html`<form class="card" onSubmit=${form.submit} data-testid="sign-in">
    <h1>${t('signin.title')}</h1>
    <${Field} label=${t('signin.identifier')} name="identifier" error=${form.error}>
      <input data-testid="sign-in-identifier" autocomplete="username" required ...${bind('identifier')} />
    <//>
    <${Field} label=${t('signin.password')} name="password" error=${form.error}>
      <input data-testid="sign-in-password" type="password" autocomplete="current-password" required ...${bind('password')} />
    <//>
    <${ErrorBanner} error=${form.error} />
    <button class="primary" type="submit" disabled=${form.busy} data-testid="sign-in-submit">${t('signin.submit')}</button>
  </form>`;
}

function Register() {
  const { values, bind } = useValues({
    first_name: '',
    last_name: '',
    phone: '',
    email: '',
    password: '',
    confirm_password: '',
    shop_name: '',
    business_type: 'retail',
    region: '',
    district: '',
    street: '',
  });
  const [regions, setRegions] = useState<Region[]>([]);
  const [kinds, setKinds] = useState<BusinessType[]>([]);
  useEffect(() => {
    get<Region[]>('/meta/regions').then(setRegions, () => {});
    get<BusinessType[]>('/meta/business-types').then(setKinds, () => {});
  }, []);
  const districts = regions.find((r) => r.name === values.region)?.districts ?? [];
  const optional = (v: string) => v.trim() || undefined;
  const form = useSubmit(async () => {
    const { data } = await api<RegisterResult>('POST', '/auth/register', {
      body: {
        first_name: values.first_name,
        last_name: values.last_name,
        phone: values.phone,
        email: optional(values.email),
        password: values.password,
        confirm_password: values.confirm_password,
        shop: {
          name: values.shop_name,
          business_type: values.business_type,
          region: optional(values.region),
          district: optional(values.district),
          street: optional(values.street),
        },
      },
    });
    keepSession(data.tokens);
  });
  const input = inputsFor(bind, form.error, 'register');
  return html`<form class="card" onSubmit=${form.submit} data-testid="register">
    <h1>${t('register.title')}</h1>
    <div class="two">
      ${input('first_name', t('register.first_name'), { required: 'true', autocomplete: 'given-name' })}
      ${input('last_name', t('register.last_name'), { autocomplete: 'family-name' })}
    </div>
    ${input('phone', t('register.phone'), { required: 'true', type: 'tel', autocomplete: 'tel' })}
    ${input('email', t('register.email'), { type: 'email', autocomplete: 'email' })}
    <div class="two">
      ${input('password', t('register.password'), { required: 'true', type: 'password', autocomplete: 'new-password' })}
      ${input('confirm_password', t('register.confirm_password'), { required: 'true', type: 'password', autocomplete: 'new-password' })}
    </div>
    ${input('shop_name', t('register.shop_name'), { required: 'true' }, 'shop.name')}
    <${Field} label=${t('register.business_type')} name="shop.business_type" error=${form.error}>
      <select data-testid="register-business_type" ...${bind('business_type')}>
        ${kinds.map((k) => html`<option value=${k.slug}>${lang.value === 'sw' ? k.name_swahili : k.name}</option>`)}
      </select>
    <//>
    <div class="two">
      <${Field} label=${t('register.region')} name="shop.region" error=${form.error}>
        <select data-testid="register-region" ...${bind('region')}>
          <option value=""></option>
          ${regions.map((r) => html`<option value=${r.name}>${r.name}</option>`)}
        </select>
      <//>
      <${Field} label=${t('register.district')} name="shop.district" error=${form.error}>
        <select data-testid="register-district" ...${bind('district')}>
          <option value=""></option>
          ${districts.map((d) => html`<option value=${d}>${d}</option>`)}
        </select>
      <//>
    </div>
    ${input('street', t('register.street'), {}, 'shop.street')}
    <${ErrorBanner} error=${form.error} />
    <button class="primary" type="submit" disabled=${form.busy} data-testid="register-submit">${t('register.submit')}</button>
  </form>`;
}

/** A session signed in with a temporary password may only set the user's own (the server says so too). */
export function SetPassword() {
  const { values, bind } = useValues({ password: '' });
  const form = useSubmit(async () => {
    await api('PATCH', '/accounts/me', { body: { password: values.password } });
    // The same session goes on, now able to do everything its user may.
    keepSession(session.value);
  });
  return html`<main class="center">
    <form class="card" onSubmit=${form.submit} data-testid="set-password">
      <h1>${t('password.title')}</h1>
      <p>${t('password.body')}</p>
      <${Field} label=${t('password.new')} name="password" error=${form.error}>
        <input data-testid="new-password" type="password" autocomplete="new-password" required ...${bind('password')} />
      <//>
      <${ErrorBanner} error=${form.error} />
      <button class="primary" type="submit" disabled=${form.busy} data-testid="new-password-save">${t('password.save')}</button>
    </form>
  </main>`;
}
