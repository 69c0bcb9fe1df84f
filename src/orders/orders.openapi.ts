import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { OrderResponse } from './dto/order-response.dto.js';
import { PLACE_ORDER_EXAMPLES, PlaceOrderDto } from './dto/place-order.dto.js';
import { ORDERS_PROBLEMS } from './orders.problems.js';

/** The orders operations as the OpenAPI document describes them; the controller holds the routes. */

const NOT_FOUND = ORDERS_PROBLEMS.response(['no-order']);
const STILL_PROCESSING =
  'Or a request with the same Idempotency-Key is still being processed: retry shortly with the same key.';
const REPLAYED = {
  'Idempotent-Replayed': {
    description: 'Sent as `true` when this is the kept response of an earlier request with the same Idempotency-Key.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Above @Idempotent(), so that its 409 and 422 (decorators apply bottom-up) give way to this operation's. */
export const ApiPlaceOrder = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'placeOrder',
      summary: 'Place an order of several tickets',
      description:
        'Buys every ticket of every line (1 to 20 lines, 1 to 50 tickets each) in one transaction: all of them, or ' +
        'none. Each line takes its places as POST /tickets takes one (an event’s seats on one of its dates, a day’s ' +
        'general admission or a slot’s), decided by the database, so concurrent orders and purchases never sell more ' +
        'than a capacity. A line that cannot be served refuses the whole order: the problem names it in its detail ' +
        '(`lines[i]: …`) and in its `line` member (the index, from 0); nothing is sold. Each ticket is priced as ' +
        'POST /tickets prices one and keeps its price; `total` adds them up. Box office and up.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: PlaceOrderDto, examples: PLACE_ORDER_EXAMPLES }),
    ApiCreatedResponse({
      description: 'Placed: the order, `placed`, with its tickets and their confirmation codes.',
      type: OrderResponse,
      headers: {
        Location: {
          description: 'Path of the new order: /orders/{orderId}',
          required: true,
          schema: { type: 'string' },
        },
        ...REPLAYED,
      },
    }),
    ApiProblemResponses(
      400,
      401,
      ORDERS_PROBLEMS.response(['line-no-event']),
      ORDERS_PROBLEMS.response(['line-sold-out'], STILL_PROCESSING),
      413,
      415,
      ORDERS_PROBLEMS.response(
        ['line-not-an-event-date', 'line-museum-closed'],
        'Or this Idempotency-Key was already used by this user for a different request.',
      ),
      429,
      431,
      503,
    ),
  );

export const ApiGetOrder = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getOrder',
      summary: 'Get an order',
      description:
        'The order with its tickets as GET /tickets/{ticketId} shows them: the buyer’s `email` and the tickets’ ' +
        '`confirmationCode` and `email` only for box-office and up. Any role may read it.',
    }),
    ApiOkResponse({ description: 'The order.', type: OrderResponse }),
    ApiProblemResponses(400, 401, NOT_FOUND, 429, 431, 503),
  );

/** Above @Idempotent(), as ApiPlaceOrder. */
export const ApiCancelOrder = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'cancelOrder',
      summary: 'Cancel an order',
      description:
        'Cancels every active ticket of the order and gives their places back in the same transaction, all or none. ' +
        'The answer is the order, now `cancelled`, with `refundDue`: what was paid for its cancelled tickets, recorded ' +
        'as owed (the service takes no payment). A ticket of the order that was checked in refuses the whole cancel ' +
        '(`409`, naming it): cancel the others one by one. Cancelling a cancelled order again changes nothing and ' +
        'answers `200` with the order as it is, `refundDue` unchanged: a retry is safe. No body. Box office and up.',
    }),
    ApiOkResponse({ description: 'Cancelled (now or before): the order, with `refundDue`.', type: OrderResponse }),
    ApiProblemResponses(
      400,
      401,
      NOT_FOUND,
      ORDERS_PROBLEMS.response(['cancel-checked-in'], STILL_PROCESSING),
      429,
      431,
      503,
    ),
  );
