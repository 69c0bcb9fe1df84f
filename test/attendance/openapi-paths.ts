import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The attendance paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/special-events/{eventId}/attendance': ['get'],
  '/museum-hours/{date}/attendance': ['get'],
} satisfies OpenApiPaths;
