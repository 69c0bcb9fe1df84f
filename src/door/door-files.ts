import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** One file of the door page, read once at start and answered from memory. */
export interface DoorFile {
  readonly body: Buffer;
  readonly contentType: string;
  /** A strong tag of the content, so that a reload costs a 304. */
  readonly etag: string;
}

/** The page's own files beside this module (nest-cli.json copies `page/` into the build). */
const PAGE = (name: string): string => fileURLToPath(new URL(`./page/${name}`, import.meta.url));

/**
 * jsQR's browser build (UMD: it defines `window.jsQR`), by its exact path in the package: the one
 * file of node_modules the service serves.
 */
const JSQR = createRequire(import.meta.url).resolve('jsqr/dist/jsQR.js');

const HTML = 'text/html; charset=utf-8';
const JAVASCRIPT = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** Escapes text for an HTML attribute value. */
function attribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function file(body: Buffer, contentType: string): DoorFile {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * The door page and the files it loads, by the name it loads them with. The museum's time zone
 * goes into the page as a `<meta>` (a script may not be inline), so that it can tell whether the
 * next open day getMuseumHours answers is today. A missing file stops the start.
 */
export function loadDoorFiles(timeZone: string): { page: DoorFile; assets: ReadonlyMap<string, DoorFile> } {
  const html = readFileSync(PAGE('door.html'), 'utf8').replace('{{MUSEUM_TIME_ZONE}}', attribute(timeZone));
  return {
    page: file(Buffer.from(html, 'utf8'), HTML),
    assets: new Map([
      ['door.js', file(readFileSync(PAGE('door.js')), JAVASCRIPT)],
      ['door.css', file(readFileSync(PAGE('door.css')), CSS)],
      ['jsqr.js', file(readFileSync(JSQR), JAVASCRIPT)],
    ]),
  };
}
