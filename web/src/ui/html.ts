/** htm bound to Preact: JSX-like templates with no compile step. */
export { html } from 'htm/preact';
