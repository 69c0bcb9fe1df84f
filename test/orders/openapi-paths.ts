import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The orders' paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/orders': ['post'],
  '/orders/{orderId}': ['get'],
  '/orders/{orderId}/cancel': ['post'],
} satisfies OpenApiPaths;
