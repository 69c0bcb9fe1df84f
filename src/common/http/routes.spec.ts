import { Body, Controller, Post } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { Test } from '@nestjs/testing';
import { describe, expect, it } from 'vitest';
import { JsonBodyReader } from './json-body.js';
import { installRouteDefaults } from './routes.js';

@Controller('notes')
class NotesController {
  @Post()
  create(@Body() body: unknown): unknown {
    return body;
  }
}

describe('installRouteDefaults', () => {
  it('gives a handler that takes a body one JSON body reader, however many apps are built', async () => {
    for (let app = 0; app < 3; app++) {
      const module = await Test.createTestingModule({ controllers: [NotesController] }).compile();
      const nest = module.createNestApplication({ logger: false });
      installRouteDefaults(nest);
      await nest.close();
    }
    const handler = Object.getOwnPropertyDescriptor(NotesController.prototype, 'create')?.value as object;
    const guards = (Reflect.getMetadata(GUARDS_METADATA, handler) ?? []) as unknown[];
    expect(guards.filter((guard) => guard instanceof JsonBodyReader)).toHaveLength(1);
  });
});
