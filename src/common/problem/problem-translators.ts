import type { ProblemTranslator } from './problem-translator.js';

/**
 * The translators the problem-details filter asks, in order: the application's own first (given to
 * ProblemsModule.forRoot), then each feature's, which its module adds when it starts
 * (`ProblemTranslators.add(catalog.translate)`), so a feature registers its answers from its own
 * folder and common/ never names it.
 */
export class ProblemTranslators implements Iterable<ProblemTranslator> {
  private readonly translators: ProblemTranslator[];

  constructor(initial: readonly ProblemTranslator[] = []) {
    this.translators = [...initial];
  }

  add(translator: ProblemTranslator): void {
    if (!this.translators.includes(translator)) this.translators.push(translator);
  }

  [Symbol.iterator](): Iterator<ProblemTranslator> {
    return this.translators[Symbol.iterator]();
  }
}
