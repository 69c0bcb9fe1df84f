import QRCode from 'qrcode';

/**
 * The PNG a phone shows at the door: a QR code holding the confirmation code alone, as text. Not a
 * URL: a door app sends what it scanned to `POST /check-ins` as it is, and a URL would put the
 * ticket's credential into browser histories and proxy logs when someone scans it with a phone's
 * camera app. Error correction M (15% of the symbol may be damaged, a cracked screen), a quiet zone
 * of 4 modules as the standard asks, 8 pixels per module: 296 px square (a version 3 symbol, 29 modules, plus the quiet zone).
 */
export function ticketQrPng(confirmationCode: string): Promise<Buffer> {
  return QRCode.toBuffer(confirmationCode, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
}
