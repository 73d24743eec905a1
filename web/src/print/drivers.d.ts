/**
 * The three browser printer drivers of @point-of-sale ship no types; this is the part of their
 * documented API the till uses (connect from a click, reconnect to a device seen before, print
 * bytes, and the `connected` / `disconnected` events).
 */
interface ConnectedPrinter {
  type: 'serial' | 'usb' | 'bluetooth';
  /** What each driver needs to find the printer again (ids, serial number). */
  [key: string]: unknown;
  language?: string | null;
  codepageMapping?: string | null;
  manufacturerName?: string;
  productName?: string;
  name?: string;
}

interface ReceiptPrinterDriver {
  connect(): Promise<void>;
  reconnect(device: Record<string, unknown>): Promise<void>;
  disconnect(): Promise<void>;
  print(data: Uint8Array): Promise<void>;
  addEventListener(event: 'connected', listener: (device: ConnectedPrinter) => void): void;
  addEventListener(event: 'disconnected', listener: () => void): void;
}

declare module '@point-of-sale/webserial-receipt-printer' {
  export default class WebSerialReceiptPrinter implements ReceiptPrinterDriver {
    constructor(options?: { baudRate?: number; bufferSize?: number });
    connect(): Promise<void>;
    reconnect(device: Record<string, unknown>): Promise<void>;
    disconnect(): Promise<void>;
    print(data: Uint8Array): Promise<void>;
    addEventListener(event: 'connected', listener: (device: ConnectedPrinter) => void): void;
    addEventListener(event: 'disconnected', listener: () => void): void;
  }
}

declare module '@point-of-sale/webusb-receipt-printer' {
  export default class WebUSBReceiptPrinter implements ReceiptPrinterDriver {
    connect(): Promise<void>;
    reconnect(device: Record<string, unknown>): Promise<void>;
    disconnect(): Promise<void>;
    print(data: Uint8Array): Promise<void>;
    addEventListener(event: 'connected', listener: (device: ConnectedPrinter) => void): void;
    addEventListener(event: 'disconnected', listener: () => void): void;
  }
}

declare module '@point-of-sale/webbluetooth-receipt-printer' {
  export default class WebBluetoothReceiptPrinter implements ReceiptPrinterDriver {
    connect(): Promise<void>;
    reconnect(device: Record<string, unknown>): Promise<void>;
    disconnect(): Promise<void>;
    print(data: Uint8Array): Promise<void>;
    addEventListener(event: 'connected', listener: (device: ConnectedPrinter) => void): void;
    addEventListener(event: 'disconnected', listener: () => void): void;
  }
}
