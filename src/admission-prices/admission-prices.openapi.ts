import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { priceListSchema } from '../domain/price-categories.js';
import { ADMISSION_PRICE_RANGE } from './admission-price-range.js';

/** The admission-prices operations as the OpenAPI document describes them; the controller holds the routes. */

const LIST = priceListSchema(ADMISSION_PRICE_RANGE);

export const ApiGetAdmissionPrices = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getAdmissionPrices',
      summary: 'Get the price categories of general admission',
      description:
        'The categories a general ticket may be bought in (POST /tickets with `category`), each with its price, in ' +
        'the order they were put; `[]` for none. A general ticket bought with no category costs ' +
        'GENERAL_ADMISSION_PRICE, which this list does not show. Viewers and up.',
    }),
    ApiOkResponse({ description: 'The categories.', schema: LIST }),
    ApiProblemResponses(401, 429, 431, 503),
  );

export const ApiSetAdmissionPrices = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'setAdmissionPrices',
      summary: 'Set the price categories of general admission',
      description:
        'Replaces the whole list: up to 20 `{category, price}`, each category once (1 to 40 characters, compared ' +
        'exactly), each price as an event price; `[]` removes every category. Tickets already sold keep the ' +
        'category and price they were sold at. Editors and admins.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ schema: LIST }),
    ApiOkResponse({ description: 'The categories as stored.', schema: LIST }),
    ApiProblemResponses(400, 401, 413, 415, 429, 431, 503),
  );
