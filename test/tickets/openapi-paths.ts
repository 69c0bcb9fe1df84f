import type { OpenApiPaths } from '../helpers/openapi-path-rows.js';

/** The tickets' paths in the OpenAPI document (test/helpers/openapi-path-rows.ts). */
export default {
  '/tickets': ['get', 'post'],
  '/tickets/{ticketId}': ['get'],
  '/tickets/{ticketId}/qr': ['get'],
  '/tickets/{ticketId}/check-in': ['post'],
  '/tickets/{ticketId}/cancel': ['post'],
  '/check-ins': ['post'],
} satisfies OpenApiPaths;
