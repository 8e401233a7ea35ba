import { create } from 'qrcode/lib/core/qrcode.js';

/**
 * A QR code of `value`, drawn locally as one SVG path (no image service sees the secret it may
 * carry). Encoded by the `qrcode` package's core at error-correction level M, with the 4-module
 * quiet zone ISO/IEC 18004 asks for.
 */
export function QrCode(props: { value: string; label: string; size?: number }) {
  const { modules } = create(props.value, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  let d = '';
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) if (modules.get(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
  }
  const box = n + 8;
  return (
    <svg
      role="img"
      aria-label={props.label}
      width={props.size ?? 192}
      height={props.size ?? 192}
      viewBox={`0 0 ${box} ${box}`}
      shapeRendering="crispEdges"
      data-qr-modules={n}
    >
      <rect width={box} height={box} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
