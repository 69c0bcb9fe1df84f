import type { Type } from '@nestjs/common';

const DOCUMENT_EXTENSIONS = Symbol('OPENAPI_DOCUMENT_EXTENSIONS');

/**
 * A top-level extension (`x-…`) of the OpenAPI document that a controller brings: the document
 * has it when, and only when, the controller is mounted (src/openapi/openapi.ts reads it).
 */
export const ApiDocumentExtension =
  (name: `x-${string}`, value: unknown): ClassDecorator =>
  (target) => {
    const extensions = (Reflect.getMetadata(DOCUMENT_EXTENSIONS, target) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(DOCUMENT_EXTENSIONS, { ...extensions, [name]: value }, target);
  };

/** The document extensions that `controller` brings (ApiDocumentExtension). */
export function documentExtensionsOf(controller: Type): Readonly<Record<string, unknown>> {
  return (Reflect.getMetadata(DOCUMENT_EXTENSIONS, controller) ?? {}) as Record<string, unknown>;
}
