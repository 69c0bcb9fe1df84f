import { Module } from '@nestjs/common';
import { ResetRegistry } from '../database/reset-registry.js';
import { AdmissionPricesController } from './admission-prices.controller.js';
import { AdmissionPricesRepository } from './admission-prices.repository.js';
import { AdmissionPricesService } from './admission-prices.service.js';

/**
 * General admission's price categories, in a table of their own (`admission_prices`). Exports
 * AdmissionPricesService: tickets (and orders) price a general ticket through its priceFor, never
 * the table. Test mode's reset empties the table.
 */
@Module({
  controllers: [AdmissionPricesController],
  providers: [AdmissionPricesService, AdmissionPricesRepository],
  exports: [AdmissionPricesService],
})
export class AdmissionPricesModule {
  constructor(reset: ResetRegistry) {
    reset.empties('admission-prices', ['admission_prices']);
  }
}
