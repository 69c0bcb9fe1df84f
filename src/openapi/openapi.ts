import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Application, Request, Response } from 'express';
import { documentExtensionsOf } from '../common/http/document-extension.js';
import { PUBLIC_READ } from '../common/http/public-read.js';
import { methodName, type Route, routesOf } from '../common/http/routes.js';
import { ProblemException } from '../common/problem/problem.js';
import { sendProblem } from '../common/problem/send-problem.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';

const DESCRIPTION = `The Museum API for a museum's web team: its special events (create, list, read,
update and delete them, and tell other systems about every change through the publishNewEvent
webhook, described under x-webhooks), the museum's opening hours (getMuseumHours, and the week and
date exceptions that set them), and tickets for general admission or a special event, sold within
each day's and each event's capacity, with a QR code that is checked in at the door.

Every request needs HTTP Basic credentials (RFC 7617, UTF-8) unless its operation says
\`security: []\`; credentials are checked before anything else. Errors are RFC 9457 problem
details (application/problem+json).`;

export const PUBLIC_READ_DESCRIPTION = `

Public read is on: the operations whose security lists \`{}\` (listSpecialEvents,
getSpecialEvent, getMuseumHours, getSpecialEventsCalendar) also answer a request without an
Authorization header, from any origin (\`Access-Control-Allow-Origin: *\`), with the public fields
only, \`Cache-Control: public\`, a strong ETag (304 for If-None-Match) and a per-address rate limit
(429 with Retry-After). A request that sends credentials is authenticated as everywhere else.`;

export const PUBLIC_READ_OPERATION =
  ' Without credentials (public read): the public fields only (no `capacity` on an event), `Cache-Control: ' +
  'public`, a strong ETag (304 for If-None-Match) and `Vary: Authorization`; 429 past the per-address rate limit.';

/** The OpenAPI 3 document, generated from the controllers' and DTOs' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const { publicRead } = app.get<AppConfig>(APP_CONFIG);
  const config = new DocumentBuilder()
    .setTitle('Museum Special Events')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addServer('/', 'The host that serves this document')
    .addTag(
      'Special events',
      'Create, list, get, update and delete special events. Viewers read; editors and admins write.',
    )
    .addTag(
      'Tickets',
      'Museum tickets for general entrance or special events: bought by box office (or editors and admins), read by ' +
        'viewers, shown as a QR code and checked in once, on their date, at the door.',
    )
    .addTag(
      'Webhooks',
      'Subscriptions to publishNewEvent: every change of a special event is POSTed, signed, to each subscriber. Admins only.',
    )
    .addTag(
      'Calendar',
      'The events as an iCalendar (RFC 5545) feed, with Basic credentials or a feed token for calendar applications; ' +
        'the tokens themselves are for admins.',
    )
    .addTag(
      'Museum hours',
      "The museum's opening hours: getMuseumHours lists the open days; editors and admins set the regular week " +
        'and exceptions for single dates, each with an optional general-admission capacity.',
    )
    .addTag('Operations', 'Liveness and readiness probes for load balancers and orchestrators. No credentials.')
    .addBasicAuth(
      { type: 'http', scheme: 'basic', description: 'User name and password issued with `npm run users`.' },
      'basic',
    )
    // Protected unless said otherwise, as the global guard is: see documentPublicRoutes.
    .addSecurityRequirements('basic')
    .build();
  // Proprietary (package.json: UNLICENSED): there is no license text at a URL to link to, and
  // DocumentBuilder.setLicense() insists on one.
  config.info.license = { name: 'Proprietary (UNLICENSED): for the museum and its partners only' };
  const document = SwaggerModule.createDocument(app, config);
  const routes = routesOf(app);
  documentPublicRoutes(document, routes);
  if (publicRead.enabled) documentPublicReadRoutes(document, routes);
  documentTestCookie(document);
  documentExtensions(document, routes);
  return document;
}

/**
 * `security: []` on the operations of @Public() handlers, whether the class or the method says
 * so. @nestjs/swagger keeps an empty security list only from a class: on a method it drops it as
 * empty, and the operation would inherit the global requirement.
 */
function documentPublicRoutes(document: OpenAPIObject, routes: readonly Route[]): void {
  for (const route of routes) {
    if (!route.isPublic) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const operation = document.paths[path]?.[methodName(route.method).toLowerCase() as 'get'];
    if (operation) operation.security = [];
  }
}

/**
 * With public read on, the @PublicRead() operations accept a request without credentials too:
 * `security: [{}, {basic: []}]` (OpenAPI's "no requirement, or Basic"), and the descriptions say
 * what such a request gets. With it off nothing here runs, and the document stays as it was.
 */
function documentPublicReadRoutes(document: OpenAPIObject, routes: readonly Route[]): void {
  document.info.description = `${document.info.description ?? ''}${PUBLIC_READ_DESCRIPTION}`;
  for (const route of routes) {
    if (Reflect.getMetadata(PUBLIC_READ, route.handler) !== true) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const operation = document.paths[path]?.[methodName(route.method).toLowerCase() as 'get'];
    if (!operation) continue;
    operation.security = [{}, { basic: [] }];
    operation.description = `${operation.description ?? ''}${PUBLIC_READ_OPERATION}`;
    operation.responses['304'] ??= { description: 'Not modified: the If-None-Match tag is current. No body.' };
  }
}

/**
 * The top-level extensions that the mounted controllers bring (ApiDocumentExtension): the
 * webhooks' `x-webhooks`, for one.
 */
function documentExtensions(document: OpenAPIObject, routes: readonly Route[]): void {
  for (const controller of new Set(routes.map((route) => route.controller)))
    Object.assign(document, documentExtensionsOf(controller));
}

/**
 * The seed's `test` cookie on DELETE: accepted with any value and never changes the outcome.
 * @nestjs/swagger has no decorator for cookie parameters, so it is added here.
 */
function documentTestCookie(document: OpenAPIObject): void {
  const operation = document.paths['/special-events/{eventId}']?.delete;
  if (!operation) throw new Error('OpenAPI: DELETE /special-events/{eventId} is missing');
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      name: 'test',
      in: 'cookie',
      required: false,
      description: 'Accepted with any value or none; it never changes the outcome.',
      schema: { type: 'string' },
    },
  ];
}

/**
 * Serves the document at /openapi.json and a browsable reference at /docs, without auth. `GET /`
 * redirects to /docs (302, not cached as a permanent move: the root may serve something else one
 * day), so that whoever opens the service's address in a browser finds its reference. Below /docs
 * only the page's own files are served: `refusesOutsideDocsPageFiles` runs before these routes,
 * in the one layer that checks every request before routing (app.setup.ts, configureApp).
 */
export function setupOpenApi(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as Application;
  express.get('/', (_request, response) => response.redirect(302, '/docs'));
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Museum Special Events API',
  });
}

/**
 * What the Swagger UI page at /docs loads (its HTML template's links), by the path below /docs as
 * sent: nothing else of the swagger-ui-dist folder (package.json, README, NOTICE, source maps,
 * other bundles) is served.
 */
const DOCS_PAGE_FILES = new Set([
  '',
  '/',
  '/index.html',
  '/swagger-ui-init.js',
  '/swagger-ui.css',
  '/swagger-ui-bundle.js',
  '/swagger-ui-standalone-preset.js',
  '/favicon-16x16.png',
  '/favicon-32x32.png',
]);

/** Matched as Express routes it: any letter case of `/docs`, then `/…` or the end. */
const BELOW_DOCS = /^\/docs(?=\/|$)/i;

/** The character code of `d`; `code | 0x20` is it for `d` and `D` alone. */
const LOWER_D = 0x64;

/**
 * Below /docs, a 404 problem for any path not in DOCS_PAGE_FILES, compared as sent (so that no
 * percent-encoding or dot segment reaches the static folder as another file's name). True when it
 * answered the request; it runs on every request before routing (configureApp), so a path whose
 * second character is not a `d` is let through at once.
 */
export function refusesOutsideDocsPageFiles(request: Request, response: Response): boolean {
  const url = request.url;
  if ((url.charCodeAt(1) | 0x20) !== LOWER_D) return false;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const docs = BELOW_DOCS.exec(path);
  if (docs === null || DOCS_PAGE_FILES.has(path.slice(docs[0].length))) return false;
  sendProblem(request, response, new ProblemException(404, 'No resource exists at this path.'));
  return true;
}
