import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { type CategoryPrice, type PriceOutcome, priceIn } from '../domain/price-categories.js';
import { AdmissionPricesRepository } from './admission-prices.repository.js';

/**
 * General admission's prices: GENERAL_ADMISSION_PRICE for a ticket bought with no category, and
 * the categories an editor puts (adult, child, …) beside it.
 */
@Injectable()
export class AdmissionPricesService {
  private readonly basePrice: number;

  constructor(
    private readonly prices: AdmissionPricesRepository,
    @InjectConfig() config: AppConfig,
  ) {
    this.basePrice = config.museum.generalAdmissionPrice;
  }

  /** The categories, in the order they were put ([] for none). */
  list(): Promise<CategoryPrice[]> {
    return this.prices.list();
  }

  /** Replaces the categories as a whole ([] removes them all); the list as stored. */
  async replace(prices: readonly CategoryPrice[]): Promise<CategoryPrice[]> {
    const stored = prices.map(({ category, price }) => ({ category, price }));
    await this.prices.replace(stored);
    return stored;
  }

  /**
   * The price of a general ticket bought in `category`: GENERAL_ADMISSION_PRICE with none (no
   * read), the category's own price, or a refusal naming the categories there are. Read at the
   * moment of sale: a ticket keeps what it was sold at whatever a later PUT says.
   */
  async priceFor(category: string | null | undefined): Promise<PriceOutcome> {
    if (category === undefined || category === null) return priceIn(this.basePrice, null, category);
    const entry = await this.prices.find(category);
    if (entry !== undefined) return { kind: 'priced', category, price: entry.price };
    return priceIn(this.basePrice, await this.prices.list(), category);
  }
}
