import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The special events' paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/special-events': ['get', 'post'],
  '/special-events/{eventId}': ['delete', 'get', 'patch'],
  '/special-events/{eventId}/availability': ['get'],
} satisfies OpenApiPaths;
