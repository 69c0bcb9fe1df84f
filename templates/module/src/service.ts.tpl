import { Injectable } from '@nestjs/common';
import { {{Singular}}Refusal } from './{{plural}}.refusals.js';
import { {{Plural}}Repository } from './{{plural}}.repository.js';
import type { {{Singular}} } from './{{singular}}.entity.js';

/**
 * The {{plural}}' decisions, in domain terms: it takes and returns {{Singular}}, asks its
 * repository, and refuses with a {{Singular}}Refusal ({{plural}}.problems.ts answers it), never an
 * HTTP error.
 */
@Injectable()
export class {{Plural}}Service {
  constructor(private readonly {{pluralCamel}}: {{Plural}}Repository) {}

  async get({{singularCamel}}Id: string): Promise<{{Singular}}> {
    const found = await this.{{pluralCamel}}.find({{singularCamel}}Id);
    if (found === undefined) throw new {{Singular}}Refusal('no-{{singular}}', { {{singularCamel}}Id });
    return found;
  }

  /** Creates or replaces the {{singularWords}}; it is stamped with the time of the store. */
  async store({{singularCamel}}Id: string, name: string): Promise<{{Singular}}> {
    const {{singularCamel}}: {{Singular}} = { {{singularCamel}}Id, name, updatedAt: Date.now() };
    await this.{{pluralCamel}}.store({{singularCamel}});
    return {{singularCamel}};
  }

  async remove({{singularCamel}}Id: string): Promise<void> {
    if (!(await this.{{pluralCamel}}.remove({{singularCamel}}Id))) {
      throw new {{Singular}}Refusal('no-{{singular}}', { {{singularCamel}}Id });
    }
  }
}
