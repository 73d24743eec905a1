/**
 * The till's receipt printer: paired once from a click (the browser asks which port or device),
 * remembered in localStorage with the paper width, and found again without asking after a reload
 * (serial and USB by their vendor and product ids, Bluetooth where the browser allows it). The
 * drivers are @point-of-sale's, loaded only when a printer is paired or printed to.
 */
import { signal } from '../signal.js';
import type { PrinterLanguage } from './encode-receipt.js';
import type { PaperWidth } from './paper.js';

export type PrinterKind = 'serial' | 'usb' | 'bluetooth';
export const PRINTER_KINDS: readonly PrinterKind[] = ['serial', 'usb', 'bluetooth'];

/** A printer the till has connected to, as its driver described it. */
export interface PairedPrinter {
  kind: PrinterKind;
  name: string;
  /** What the driver needs to find it again. */
  device: Record<string, unknown>;
  language: PrinterLanguage;
  codepageMapping: string | null;
}

export interface PrinterSettings {
  width: PaperWidth;
  printer: PairedPrinter | null;
}

/** A printer problem the cashier can act on; `key` is its message in the dictionary. */
export class PrinterError extends Error {
  constructor(
    readonly key: 'printer.unsupported' | 'printer.not_connected' | 'printer.unreachable' | 'printer.graphics_only',
    message: string,
    /** The message's placeholders (`printer.unreachable` names the paired printer). */
    readonly params: Record<string, string> = {},
  ) {
    super(message);
  }
}

const STORAGE_KEY = 'duka.till.printer';
const LANGUAGES: readonly string[] = ['esc-pos', 'star-prnt', 'star-line'] satisfies PrinterLanguage[];

function load(): PrinterSettings {
  try {
    const kept = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? 'null') as Partial<PrinterSettings> | null;
    return { width: kept?.width === 58 ? 58 : 80, printer: kept?.printer ?? null };
  } catch {
    return { width: 80, printer: null };
  }
}

export const printerSettings = signal<PrinterSettings>(load());

function save(next: PrinterSettings): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  printerSettings.set(next);
}

export const setPaperWidth = (width: PaperWidth): void => save({ ...printerSettings.get(), width });

/** The browser offers this way of reaching a printer (Web Serial, WebUSB, Web Bluetooth: Chromium's). */
export function canConnect(kind: PrinterKind): boolean {
  const nav = globalThis.navigator as Navigator & Record<string, unknown>;
  return kind === 'serial' ? 'serial' in nav : kind === 'usb' ? 'usb' in nav : 'bluetooth' in nav;
}

/** The driver connected in this page, if any. */
let live: { kind: PrinterKind; driver: ReceiptPrinterDriver } | null = null;

async function driverFor(kind: PrinterKind): Promise<ReceiptPrinterDriver> {
  if (!canConnect(kind)) throw new PrinterError('printer.unsupported', `no ${kind} in this browser`);
  const driver =
    kind === 'serial'
      ? new (await import('@point-of-sale/webserial-receipt-printer')).default()
      : kind === 'usb'
        ? new (await import('@point-of-sale/webusb-receipt-printer')).default()
        : new (await import('@point-of-sale/webbluetooth-receipt-printer')).default();
  driver.addEventListener('disconnected', () => {
    if (live?.driver === driver) live = null;
  });
  return driver;
}

/**
 * The drivers never throw from connect(): they log and return. Their `connected` event comes on a
 * timer after connect() has returned, so a connection that did not happen is one with no event soon after.
 */
function connected(driver: ReceiptPrinterDriver, start: () => Promise<void>): Promise<ConnectedPrinter | null> {
  return new Promise((resolve, reject) => {
    driver.addEventListener('connected', resolve);
    start().then(() => setTimeout(() => resolve(null), 250), reject);
  });
}

/** Ask the browser for a printer and keep it; must run from a click. */
export async function connectPrinter(kind: PrinterKind): Promise<PairedPrinter> {
  const driver = await driverFor(kind);
  const device = await connected(driver, () => driver.connect());
  if (!device) throw new PrinterError('printer.not_connected', 'no printer was chosen or it did not open');
  const language = device.language ?? 'esc-pos';
  if (!LANGUAGES.includes(language)) {
    await driver.disconnect();
    throw new PrinterError('printer.graphics_only', `the printer speaks ${language}`);
  }
  const { language: _l, codepageMapping, ...ids } = device;
  const name = [device.manufacturerName, device.productName ?? device.name].filter(Boolean).join(' ') || kind;
  const printer: PairedPrinter = {
    kind,
    name,
    device: ids,
    language: language as PrinterLanguage,
    codepageMapping: codepageMapping ?? null,
  };
  await live?.driver.disconnect().catch(() => undefined);
  live = { kind, driver };
  save({ ...printerSettings.get(), printer });
  return printer;
}

export async function forgetPrinter(): Promise<void> {
  const was = live;
  live = null;
  save({ ...printerSettings.get(), printer: null });
  await was?.driver.disconnect().catch(() => undefined);
}

/** Send bytes to the paired printer, connecting to it again first after a reload. */
export async function sendToPrinter(bytes: Uint8Array): Promise<void> {
  const paired = printerSettings.get().printer;
  if (!paired) throw new PrinterError('printer.not_connected', 'no printer is paired');
  if (!live) {
    const driver = await driverFor(paired.kind);
    if (!(await connected(driver, () => driver.reconnect(paired.device)))) {
      // Paired, but gone (off, unplugged, out of range): not the same as none paired.
      throw new PrinterError('printer.unreachable', `${paired.name} was not found`, { name: paired.name });
    }
    live = { kind: paired.kind, driver };
  }
  await live.driver.print(bytes);
}
