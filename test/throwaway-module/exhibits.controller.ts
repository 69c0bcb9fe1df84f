import { Body, Controller, Get, NotFoundException, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../src/common/http/public.decorator.js';
import { ApiProblemResponses } from '../../src/common/problem/api-problem-responses.js';
import { ExhibitDto } from './exhibit.dto.js';

/** One protected GET, one public GET, one PUT with a DTO: the routes a new module typically has. */
@ApiTags('Exhibits')
@Controller('exhibits')
export class ExhibitsController {
  private readonly exhibits = new Map<string, ExhibitDto>();

  @Get(':exhibitId')
  @ApiOperation({ operationId: 'getExhibit', summary: 'One exhibit' })
  @ApiOkResponse({ type: ExhibitDto })
  @ApiProblemResponses(401, 404)
  get(@Param('exhibitId') exhibitId: string): ExhibitDto {
    const exhibit = this.exhibits.get(exhibitId);
    if (exhibit === undefined) throw new NotFoundException();
    return exhibit;
  }

  @Put(':exhibitId')
  @ApiOperation({ operationId: 'putExhibit', summary: 'Store an exhibit' })
  @ApiOkResponse({ type: ExhibitDto })
  @ApiProblemResponses(400, 401, 415)
  put(@Param('exhibitId') exhibitId: string, @Body() exhibit: ExhibitDto): ExhibitDto {
    this.exhibits.set(exhibitId, exhibit);
    return exhibit;
  }

  @Public()
  @Get()
  @ApiOperation({ operationId: 'countExhibits', summary: 'How many exhibits there are' })
  @ApiOkResponse({ schema: { type: 'object', properties: { count: { type: 'integer' } } } })
  count(): { count: number } {
    return { count: this.exhibits.size };
  }
}
