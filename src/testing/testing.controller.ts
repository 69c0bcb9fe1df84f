import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../auth/roles.js';
import { validationProblem } from '../common/problem/problem.js';
import { ADVANCE_MAX_SECONDS, AdvanceClockDto, SetClockDto } from './dto/clock.dto.js';
import { ApiAdvanceClock, ApiGetClock, ApiRealClock, ApiReset, ApiSetClock } from './testing.openapi.js';
import { type ClockView, TestingService } from './testing.service.js';

/** Test mode's routes (docs/testing.md): loaded only with TEST_MODE=true, for admins only. */
@ApiTags('Testing')
@Controller('testing')
@RequiresRole('admin')
export class TestingController {
  constructor(private readonly testing: TestingService) {}

  @Get('clock')
  @ApiGetClock()
  clock(): ClockView {
    return this.testing.view();
  }

  @Put('clock')
  @ApiSetClock()
  set(@Body() body: SetClockDto): Promise<ClockView> {
    return this.testing.set(Date.parse(body.now), body.frozen);
  }

  @Post('clock/advance')
  @HttpCode(200)
  @ApiAdvanceClock()
  async advance(@Body() body: AdvanceClockDto): Promise<ClockView> {
    const outcome = await this.testing.advance(body.seconds);
    if (outcome.kind === 'too-far') {
      throw validationProblem([
        { field: 'seconds', message: `seconds would move the clock past 8999-12-31 (at most ${ADVANCE_MAX_SECONDS})` },
      ]);
    }
    return outcome.clock;
  }

  @Delete('clock')
  @HttpCode(204)
  @ApiRealClock()
  async realTime(): Promise<void> {
    await this.testing.realTime();
  }

  @Post('reset')
  @HttpCode(204)
  @ApiReset()
  async reset(): Promise<void> {
    await this.testing.reset();
  }
}
