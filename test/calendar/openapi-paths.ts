import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The calendar's paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/special-events.ics': ['get'],
  '/calendar/{token}.ics': ['get'],
  '/calendar-tokens': ['get', 'post'],
  '/calendar-tokens/{tokenId}': ['delete'],
} satisfies OpenApiPaths;
