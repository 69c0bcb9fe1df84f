import { Body, Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../auth/basic.strategy.js';
import { RequiresRole } from '../auth/roles.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { OrderIdParams } from './dto/order-id-params.dto.js';
import type { OrderResponse } from './dto/order-response.dto.js';
import { PlaceOrderDto } from './dto/place-order.dto.js';
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
    const order = await this.orders.place(body);
    response.location(`/orders/${order.orderId}`);
    return order;
  }

  @Get(':orderId')
  @RequiresRole('viewer')
  @Header('Cache-Control', NO_STORE)
  @ApiGetOrder()
  get(
    @Param() { orderId }: OrderIdParams,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<OrderResponse> {
    return this.orders.get(orderId, request.user?.role ?? 'viewer');
  }

  @Post(':orderId/cancel')
  @RequiresRole('box-office')
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiCancelOrder()
  @Idempotent()
  cancel(@Param() { orderId }: OrderIdParams): Promise<OrderResponse> {
    return this.orders.cancel(orderId);
  }
}
