/**
 * The benchmark's third reference: the design card's mandated stack doing the contract's minimum
 * and nothing else, with the techniques the service uses. NestJS on platform-express; a Basic
 * guard on @nestjs/passport + passport-http that, like the service's, answers a known
 * Authorization header from a Map of verdicts and sends the rest through passport, whose check is
 * one Map lookup (the floor of a cached check: no hash, no expiry, no failure limiter); class-validator/class-transformer DTOs through Nest's ValidationPipe; the service's own TypeORM
 * entity, migrations and store (group commit on SQLite, batched statements on MySQL), so every
 * 201 and 204 is durable as the contract asks. It also answers get (with its ETag) and a list
 * page (with its `next` link) through the store's reads, so the read targets have a floor too. No request ids, log lines, metrics, security
 * headers, problem details, failure limiter or OpenAPI document.
 *
 * What the service adds on top of this is its own cost; what this costs against the Express
 * baseline is the floor of the mandated stack: a ratio target this reference misses cannot be
 * met by any service built on that stack.
 *
 * Started like the other references (`node --import tsx`), with DATABASE_URL (a database of its
 * own, migrated at start), ADMIN_USERNAME and ADMIN_PASSWORD (the one user) and PORT (default 0);
 * writes `Listening on http://127.0.0.1:<port>` once it listens. GET /health/ready (no auth)
 * answers once the database does, like the service's.
 *
 * tsx (esbuild) emits no decorator metadata: the pipes get their DTO class through
 * `expectedType` instead of the parameter's design type, the controller its store through @Inject.
 */
import 'reflect-metadata';
import {
  Body,
  Controller,
  ConflictException,
  Delete,
  type ExecutionContext,
  Get,
  HttpCode,
  Inject,
  Injectable,
  Module,
  NotFoundException,
  Param,
  Post,
  Query,
  Res,
  UnauthorizedException,
  UseGuards,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { BasicStrategy as HttpBasicStrategy } from 'passport-http';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { parseDatabaseUrl } from '../../src/config/app-config.js';
import { buildDataSourceOptions, DEFAULT_POOL } from '../../src/database/database-options.js';
import { MIGRATIONS } from '../../src/features.js';
import { CreateSpecialEventDto } from '../../src/special-events/dto/create-special-event.dto.js';
import { EventIdParams } from '../../src/special-events/dto/event-id-params.dto.js';
import { LIST_LIMIT, ListSpecialEventsQuery } from '../../src/special-events/dto/list-special-events-query.dto.js';
import type { SpecialEventResponse } from '../../src/special-events/dto/special-event-response.dto.js';
import { Sql } from '../../src/database/sql.js';
import { WriteHealth } from '../../src/database/write-health.js';
import { SpecialEvent, SpecialEventDate } from '../../src/special-events/special-event.entity.js';
import { etagOf, toResponse, withDerivedColumns } from '../../src/special-events/special-events.service.js';
import { SpecialEventsRepository } from '../../src/special-events/special-events.repository.js';
import { createSpecialEventsRepository } from '../../src/special-events/special-events.repository.factory.js';
import { serveReference } from './reference-app.js';

const username = process.env.ADMIN_USERNAME ?? '';
const password = process.env.ADMIN_PASSWORD ?? '';
const users = new Map([[`${username}:${password}`, { username }]]);
/** Verdicts by Authorization header, as the service's credential cache keeps them (false: refused). */
const verdicts = new Map<string, { username: string } | false>();

@Injectable()
class MapBasicStrategy extends PassportStrategy(HttpBasicStrategy, 'basic') {
  constructor() {
    super({ passReqToCallback: true });
  }

  validate(request: Request, user: string, pass: string): { username: string } | false {
    const verdict = users.get(`${user}:${pass}`) ?? false;
    verdicts.set(request.headers.authorization ?? '', verdict);
    return verdict;
  }
}

/** Like the service's guard: a known header is answered from the verdicts, the rest go through passport. */
@Injectable()
class BasicGuard extends AuthGuard('basic') {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const verdict = verdicts.get(request.headers.authorization ?? '');
    if (verdict === false) throw new UnauthorizedException();
    if (verdict) {
      request.user = verdict;
      return true;
    }
    return (await super.canActivate(context)) as boolean;
  }
}

const validation = { whitelist: true, forbidNonWhitelisted: true, transform: true } as const;

@Controller('special-events')
@UseGuards(BasicGuard)
class SpecialEventsController {
  constructor(@Inject(SpecialEventsRepository) private readonly store: SpecialEventsRepository) {}

  @Post()
  @HttpCode(201)
  async create(
    @Body(new ValidationPipe({ ...validation, expectedType: CreateSpecialEventDto })) body: CreateSpecialEventDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<
    Omit<
      SpecialEvent,
      'version' | 'sortDate' | 'capacity' | 'ticketsSold' | 'durationMinutes' | 'capacityPerDate' | 'prices'
    >
  > {
    // The store writes what the schema of issue 16 needs beside the fields: the list order key
    // (withDerivedColumns) and a version; the answer is the fields alone, as the service's.
    const { name, location, eventDescription, dates, price } = body;
    const fields = { eventId: body.eventId ?? uuidv7(), name, location, eventDescription, dates, price };
    if (!(await this.store.insert(withDerivedColumns(fields, 1)))) throw new ConflictException();
    response.location(`/special-events/${fields.eventId}`);
    return fields;
  }

  /** The contract's minimum of a get: the event as stored, and its strong ETag. */
  @Get(':eventId')
  async get(
    @Param(new ValidationPipe({ ...validation, expectedType: EventIdParams })) params: EventIdParams,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpecialEventResponse> {
    const event = await this.store.find(params.eventId);
    if (!event) throw new NotFoundException();
    response.setHeader('ETag', etagOf(event));
    return toResponse(event);
  }

  /** The contract's minimum of a first page: the range's events in order, and the `next` link. */
  @Get()
  async list(
    @Query(new ValidationPipe({ ...validation, expectedType: ListSpecialEventsQuery })) query: ListSpecialEventsQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpecialEventResponse[]> {
    const range = { start: query.startDate, end: query.endDate };
    const limit = query.limit ?? LIST_LIMIT.default;
    const { events: rows } = await this.store.list({ ...range, limit: limit + 1 });
    const last = rows[limit - 1];
    if (rows.length > limit && last) {
      // The position as the service's cursors hold it, unsigned: signing is a feature of the service.
      const position = [last.position.key, last.position.eventId, range.start ?? null, range.end ?? null];
      const cursor = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
      response.setHeader('Link', `</special-events?limit=${limit}&cursor=${cursor}>; rel="next"`);
    }
    return rows.slice(0, limit).map(({ event }) => toResponse(event));
  }

  @Delete(':eventId')
  @HttpCode(204)
  async remove(
    @Param(new ValidationPipe({ ...validation, expectedType: EventIdParams })) params: EventIdParams,
  ): Promise<void> {
    if (!(await this.store.delete(params.eventId))) throw new NotFoundException();
  }
}

/** What the benchmark polls after seeding (waitReady), as on the service; never under load. */
@Controller('health')
class HealthController {
  @Get('ready')
  async ready(): Promise<{ status: string }> {
    await dataSource.query('SELECT 1');
    return { status: 'ok' };
  }
}

const database = parseDatabaseUrl(process.env.DATABASE_URL ?? 'sqlite::memory:');
const dataSource = new DataSource({
  ...buildDataSourceOptions(database, true, DEFAULT_POOL, MIGRATIONS),
  entities: [SpecialEvent, SpecialEventDate],
  logger: undefined,
  logging: false,
});
await dataSource.initialize();

@Module({
  imports: [PassportModule],
  controllers: [SpecialEventsController, HealthController],
  providers: [
    MapBasicStrategy,
    {
      provide: SpecialEventsRepository,
      useValue: createSpecialEventsRepository(new Sql(dataSource, new WriteHealth())),
    },
  ],
})
class MandatedFloorModule {}

await serveReference(await NestFactory.create<NestExpressApplication>(MandatedFloorModule, { logger: false }), () =>
  dataSource.destroy(),
);
