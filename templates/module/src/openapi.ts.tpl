import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { {{Singular}}Response, Store{{Singular}}Dto } from './dto/{{singular}}.dto.js';
import { {{PLURAL}}_PROBLEMS } from './{{plural}}.problems.js';

/** The {{plural}} operations as the OpenAPI document describes them; the controller holds the routes. */

const NOT_FOUND = {{PLURAL}}_PROBLEMS.response(['no-{{singular}}']);

export const ApiGet{{Singular}} = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ operationId: 'get{{Singular}}', summary: 'Get {{a}} {{singularWords}}', description: 'Any role may read it.' }),
    ApiOkResponse({ description: 'The {{singularWords}}.', type: {{Singular}}Response }),
    ApiProblemResponses(400, 401, NOT_FOUND, 429, 431, 503),
  );

export const ApiStore{{Singular}} = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'store{{Singular}}',
      summary: 'Create or replace {{a}} {{singularWords}}',
      description: 'Stores the {{singularWords}} under the id of the path, replacing what was there. Editors and admins.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: Store{{Singular}}Dto }),
    ApiOkResponse({ description: 'The {{singularWords}} as stored.', type: {{Singular}}Response }),
    ApiProblemResponses(400, 401, 413, 415, 429, 431, 503),
  );

export const ApiDelete{{Singular}} = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ operationId: 'delete{{Singular}}', summary: 'Delete {{a}} {{singularWords}}', description: 'Editors and admins.' }),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiProblemResponses(400, 401, NOT_FOUND, 429, 431, 503),
  );
