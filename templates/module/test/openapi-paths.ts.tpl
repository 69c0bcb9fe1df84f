import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The {{plural}}' paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/{{plural}}/{{{singularCamel}}Id}': ['delete', 'get', 'put'],
} satisfies OpenApiPaths;
