import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The webhooks' paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/webhooks': ['get', 'post'],
  '/webhooks/{webhookId}': ['delete'],
  '/webhooks/{webhookId}/enable': ['post'],
} satisfies OpenApiPaths;
