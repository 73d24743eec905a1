/** The back office's entry. */
import { render } from 'preact';
import { lang } from './i18n/lang.js';
import { App } from './ui/app.js';
import { html } from './ui/html.js';
import './styles.css';

document.documentElement.lang = lang.value;
render(html`<${App} />`, document.getElementById('app')!);
