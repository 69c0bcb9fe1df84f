import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = Symbol('IS_PUBLIC');

/**
 * Opts a controller or handler out of the global Basic guard. Everything else is protected by
 * default, so a new module is safe without remembering anything. The OpenAPI document says so
 * too (buildOpenApiDocument): Basic is its global security requirement, and the operations of
 * public handlers get `security: []` (no credentials needed).
 */
export const Public = (): ClassDecorator & MethodDecorator => SetMetadata(IS_PUBLIC, true);
