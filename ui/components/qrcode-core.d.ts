/** The encoder of the `qrcode` package (its core, without the canvas and PNG renderers). */
declare module 'qrcode/lib/core/qrcode.js' {
  export interface QrModules {
    size: number;
    get(row: number, col: number): boolean | number;
  }
  export function create(text: string, options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): { modules: QrModules };
}
