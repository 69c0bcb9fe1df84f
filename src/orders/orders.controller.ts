import { Body, Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../auth/basic.strategy.js';
import { seesSecrets } from '../tickets/tickets.responses.js';
import { RequiresRole } from '../auth/roles.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { OrderIdParams } from './dto/order-id-params.dto.js';
import type { OrderResponse } from './dto/order-response.dto.js';
import { orderLines, PlaceOrderDto } from './dto/place-order.dto.js';
import { toOrderResponse } from './order-response.js';
import { OrderRefusal } from './orders.refusals.js';
import { ApiCancelOrder, ApiGetOrder, ApiPlaceOrder } from './orders.openapi.js';
import { OrdersService } from './orders.service.js';

/** An order carries its tickets' codes (and the buyer's email): no cache keeps it. */
const NO_STORE = 'no-store';

/** The orders' routes: HTTP in, domain calls out. The box office places and cancels; any role reads. */
@ApiTags('Orders')
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @RequiresRole('box-office')
  @HttpCode(201)
  @Header('Cache-Control', NO_STORE)
  @ApiPlaceOrder()
  @Idempotent()
  async place(@Body() body: PlaceOrderDto, @Res({ passthrough: true }) response: Response): Promise<OrderResponse> {
    const parsed = orderLines(body.lines);
    if ('errors' in parsed) throw new OrderRefusal('invalid-order', { errors: parsed.errors });
    const placed = await this.orders.place({ email: body.email, lines: parsed.lines });
    response.location(`/orders/${placed.order.orderId}`);
    return toOrderResponse(placed, true);
  }

  @Get(':orderId')
  @RequiresRole('viewer')
  @Header('Cache-Control', NO_STORE)
  @ApiGetOrder()
  async get(
    @Param() { orderId }: OrderIdParams,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<OrderResponse> {
    return toOrderResponse(await this.orders.get(orderId), seesSecrets(request.user?.role ?? 'viewer'));
  }

  @Post(':orderId/cancel')
  @RequiresRole('box-office')
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiCancelOrder()
  @Idempotent()
  async cancel(@Param() { orderId }: OrderIdParams): Promise<OrderResponse> {
    return toOrderResponse(await this.orders.cancel(orderId), true);
  }
}
