import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import type { ProblemTranslator } from './problem-translator.js';
import { ProblemTranslators } from './problem-translators.js';

/**
 * Problem details for the whole application: the filter (APP_FILTER) and the one list of
 * translators it asks, which every feature module can reach to add its own.
 */
@Global()
@Module({})
export class ProblemsModule {
  static forRoot(translators: readonly ProblemTranslator[]): DynamicModule {
    const list = new ProblemTranslators(translators);
    return {
      module: ProblemsModule,
      providers: [
        { provide: ProblemTranslators, useValue: list },
        { provide: APP_FILTER, useValue: new ProblemDetailsFilter(list) },
      ],
      exports: [ProblemTranslators],
    };
  }
}
