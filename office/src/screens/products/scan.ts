/**
 * A barcode read by the phone's camera where the browser has `BarcodeDetector` (Chrome on
 * Android, for one); elsewhere the button is not shown and the barcode is typed. No polyfill.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
type DetectorClass = new (opts?: { formats?: string[] }) => Detector;

const Detector = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
export const canScan = (): boolean => Detector !== undefined && !!navigator.mediaDevices?.getUserMedia;

export function ScanButton({ onCode }: { onCode: (code: string) => void }) {
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (!open || !Detector) return;
    let stream: MediaStream | null = null;
    let live = true;
    const detector = new Detector();
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        if (!live || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        while (live) {
          const found = await detector.detect(video.current).catch(() => []);
          if (found[0]?.rawValue) {
            onCode(found[0].rawValue);
            setOpen(false);
            return;
          }
          await new Promise((r) => setTimeout(r, 250));
        }
      } catch {
        setFailed(true);
        setOpen(false);
      }
    })();
    return () => {
      live = false;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [open]);

  if (!canScan()) return null;
  return html`<div class="scan">
    <button type="button" data-testid="barcode-scan" onClick=${() => (setFailed(false), setOpen(!open))}>${open ? t('scan.stop') : t('scan')}</button>
    ${open ? html`<video ref=${video} muted playsinline class="scan-video"></video>` : null}
    ${failed ? html`<small class="error">${t('scan.failed')}</small>` : null}
  </div>`;
}
