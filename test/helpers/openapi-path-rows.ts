/**
 * A feature's paths in the OpenAPI document, each with its methods (sorted): the default export of
 * `test/<feature>/openapi-paths.ts`, collected by test/operations.e2e-spec.ts, which checks that
 * the document has exactly these paths and methods, and nothing else.
 */
export type OpenApiPaths = Record<string, readonly string[]>;
