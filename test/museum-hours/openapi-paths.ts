import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The museum hours' paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/museum-hours': ['get'],
  '/museum-hours/weekly': ['get', 'put'],
  '/museum-hours/{date}': ['delete', 'put'],
  '/museum-hours/{date}/slots': ['get'],
} satisfies OpenApiPaths;
