/** The till app's entry: render, open the till, and (in a build) install the service worker that keeps the app offline. */
import { render } from 'preact';
import { lang } from './i18n.js';
import { openTill } from './till-host.js';
import { html } from './ui/html.js';
import { App } from './ui/app.js';
import './styles.css';

document.documentElement.lang = lang.get();
render(html`<${App} />`, document.getElementById('app')!);
void openTill();

if (import.meta.env.DUKA_SERVICE_WORKER && 'serviceWorker' in navigator) {
  // The service worker is the app's offline copy; the till itself keeps working without it, so a failed registration is only logged.
  navigator.serviceWorker
    .register(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL })
    .catch((e) => console.warn('service worker not registered', e));
}
