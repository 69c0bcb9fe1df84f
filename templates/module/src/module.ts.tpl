import { Module } from '@nestjs/common';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { ResetRegistry } from '../database/reset-registry.js';
import { {{Plural}}Controller } from './{{plural}}.controller.js';
import { {{PLURAL}}_PROBLEMS } from './{{plural}}.problems.js';
import { {{Plural}}Repository } from './{{plural}}.repository.js';
import { {{Plural}}Service } from './{{plural}}.service.js';

/**
 * {{Title}}, in a table of their own (`{{table}}`). Listed in src/features.ts, which runs its
 * migrations; its refusals are answered through {{PLURAL}}_PROBLEMS, and test mode's reset
 * empties its table.
 */
@Module({
  controllers: [{{Plural}}Controller],
  providers: [{{Plural}}Service, {{Plural}}Repository],
})
export class {{Plural}}Module {
  constructor(problems: ProblemTranslators, reset: ResetRegistry) {
    reset.empties('{{plural}}', ['{{table}}']);
    problems.add({{PLURAL}}_PROBLEMS.translate);
  }
}
