import { Body, Controller, Get, NotFoundException, Param, ParseUUIDPipe, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../src/common/http/public.decorator.js';
import { ApiProblemResponses } from '../../src/common/problem/api-problem-responses.js';
import { ExhibitDto } from './exhibit.dto.js';
import { ExhibitsRepository } from './exhibits.repository.js';

/**
 * One protected GET, one public GET, one PUT with a DTO: the routes a new module typically has,
 * over its repository.
 */
@ApiTags('Exhibits')
@Controller('exhibits')
export class ExhibitsController {
  constructor(private readonly exhibits: ExhibitsRepository) {}

  @Get(':exhibitId')
  @ApiOperation({ operationId: 'getExhibit', summary: 'One exhibit' })
  @ApiOkResponse({ type: ExhibitDto })
  @ApiProblemResponses(401, 404)
  async get(@Param('exhibitId', ParseUUIDPipe) exhibitId: string): Promise<ExhibitDto> {
    const exhibit = await this.exhibits.find(exhibitId);
    if (exhibit === undefined) throw new NotFoundException();
    return exhibit;
  }

  @Put(':exhibitId')
  @ApiOperation({ operationId: 'putExhibit', summary: 'Store an exhibit' })
  @ApiOkResponse({ type: ExhibitDto })
  @ApiProblemResponses(400, 401, 415)
  async put(@Param('exhibitId', ParseUUIDPipe) exhibitId: string, @Body() exhibit: ExhibitDto): Promise<ExhibitDto> {
    await this.exhibits.store(exhibitId, exhibit);
    return exhibit;
  }

  @Public()
  @Get()
  @ApiOperation({ operationId: 'countExhibits', summary: 'How many exhibits there are' })
  @ApiOkResponse({ schema: { type: 'object', properties: { count: { type: 'integer' } } } })
  async count(): Promise<{ count: number }> {
    return { count: await this.exhibits.count() };
  }
}
