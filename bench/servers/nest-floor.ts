/**
 * The benchmark's second reference: a bare NestJS 12 app (platform-express) doing exactly the
 * baseline's work (parse the JSON body, generate a UUIDv7, answer) through one controller, with no
 * global pipes, guards, interceptors or filters, no logger, no authentication, validation, storage
 * or logging. Measured in the same run as the Express baseline, it shows how much of the service's
 * gap to that baseline is NestJS itself (routing, parameter decorators, the response path) and
 * how much is what the service adds on top.
 *
 * Started like the baseline: `node --import tsx`, listening on 127.0.0.1 at PORT (default 0: any
 * free port), writing `Listening on http://127.0.0.1:<port>` once it does.
 *
 * tsx (esbuild) honours experimentalDecorators but emits no decorator metadata: nothing here
 * needs it, since the controller has no constructor dependencies and no pipe reads param types.
 */
import 'reflect-metadata';
import { Body, Controller, Delete, HttpCode, Module, Param, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Response } from 'express';
import { v7 as uuidv7 } from 'uuid';
import { fieldsOf } from './bodies.js';
import { serveReference } from './reference-app.js';

@Controller('special-events')
class SpecialEventsController {
  @Post()
  @HttpCode(201)
  create(@Body() body: unknown, @Res({ passthrough: true }) response: Response): Record<string, unknown> {
    const eventId = uuidv7();
    response.location(`/special-events/${eventId}`);
    // As the baseline reads it: a JSON body that is not an object (or none) counts as {}.
    return { ...fieldsOf(body), eventId };
  }

  @Delete(':eventId')
  @HttpCode(204)
  remove(@Param('eventId') _eventId: string): void {
    // Nothing stored, nothing to delete: like the baseline, only the routing and the 204.
  }
}

@Module({ controllers: [SpecialEventsController] })
class FloorModule {}

await serveReference(await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false }));
