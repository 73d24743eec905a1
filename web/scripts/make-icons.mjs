// Renders the PNG icons the manifest names from public/icons/icon.svg, in Chromium (`node web/scripts/make-icons.mjs`).
// The maskable icon keeps the drawing inside the 80 % safe zone on a full-bleed background.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const dir = new URL('../public/icons/', import.meta.url);
const svg = readFileSync(new URL('icon.svg', dir), 'utf8');
const page = (size, inset) => `<html><body style="margin:0;background:${inset ? '#0f766e' : 'transparent'}">
  <div style="width:${size}px;height:${size}px;display:flex;align-items:center;justify-content:center">
    <div style="width:${inset ? size * 0.8 : size}px;height:${inset ? size * 0.8 : size}px">${svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div>
  </div></body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
for (const [name, size, inset] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['icon-maskable-512.png', 512, true],
]) {
  const p = await browser.newPage({ viewport: { width: size, height: size } });
  await p.setContent(page(size, inset));
  await p.screenshot({ path: new URL(name, dir).pathname, omitBackground: !inset });
  await p.close();
}
await browser.close();
