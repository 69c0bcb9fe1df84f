import { applyDecorators, SetMetadata } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';

export const IS_PUBLIC = Symbol('IS_PUBLIC');

/**
 * Opts a controller or handler out of the global Basic guard. Everything else is protected by
 * default, so a new module is safe without remembering anything. The OpenAPI document says so
 * too: the operations get `security: []` (no credentials needed).
 */
export const Public = (): ClassDecorator & MethodDecorator =>
  applyDecorators(SetMetadata(IS_PUBLIC, true), SetMetadata(DECORATORS.API_SECURITY, []));
