import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { type FieldError, ProblemException, validationProblem } from '../common/problem/problem.js';
import { StrictValidationPipe } from '../common/validation/strict-validation.pipe.js';
import { isRfc9562Uuid } from '../common/validation/validators.js';
import { UpdateSpecialEventDto } from './dto/update-special-event.dto.js';

/**
 * A PATCH whose body names another event than its path is a 400 that names `eventId` together
 * with every other failing field. The validation pipe cannot see the path, and the service sees
 * the body only once it is valid, so neither alone can name both: this guard runs after the body
 * is read and, on a mismatch, validates the rest of the body itself.
 */
@Injectable()
export class EventIdUnchangedGuard implements CanActivate {
  private readonly pipe = new StrictValidationPipe();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const pathId = String(request.params.eventId ?? '').toLowerCase();
    const body = request.body as unknown;
    if (!isRfc9562Uuid(pathId) || body === null || typeof body !== 'object' || Array.isArray(body)) return true;
    const given = (body as Record<string, unknown>).eventId;
    if (!isRfc9562Uuid(given) || given.toLowerCase() === pathId) return true;
    const mismatch: FieldError = {
      field: 'eventId',
      message: `eventId cannot change: give ${pathId} (the path's) or leave it out`,
    };
    let others: readonly FieldError[] = [];
    try {
      await this.pipe.transform(body, { type: 'body', metatype: UpdateSpecialEventDto, data: '' });
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      others = (error.extras.errors ?? []).filter((fieldError) => fieldError.field !== 'eventId');
    }
    throw validationProblem([mismatch, ...others]);
  }
}
