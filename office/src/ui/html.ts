/** htm bound to Preact: JSX-like templates with no compile step, as the till writes them. */
export { html } from 'htm/preact';
