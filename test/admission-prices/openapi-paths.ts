import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The admission-prices' paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/admission-prices': ['get', 'put'],
} satisfies OpenApiPaths;
