import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CalendarTokensService } from './calendar-tokens.service.js';
import { CalendarRefusal } from './calendar.refusals.js';

/**
 * The token of `GET /calendar/{token}.ics`, checked before anything else of the request (query
 * validation included), as credentials are on the Basic routes: a token that is malformed,
 * unknown or revoked gets the same 404, and the caller learns nothing else.
 */
@Injectable()
export class CalendarTokenGuard implements CanActivate {
  constructor(private readonly tokens: CalendarTokensService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { token } = context.switchToHttp().getRequest<Request>().params;
    if (typeof token === 'string' && (await this.tokens.isValid(token))) return true;
    throw new CalendarRefusal('unknown-feed-token', {});
  }
}
