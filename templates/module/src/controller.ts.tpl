import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../auth/roles.js';
import { {{Singular}}IdParams, type {{Singular}}Response, Store{{Singular}}Dto } from './dto/{{singular}}.dto.js';
import type { {{Singular}} } from './{{singular}}.entity.js';
import { ApiDelete{{Singular}}, ApiGet{{Singular}}, ApiStore{{Singular}} } from './{{plural}}.openapi.js';
import { {{Plural}}Service } from './{{plural}}.service.js';

function toResponse({{singularCamel}}: {{Singular}}): {{Singular}}Response {
  return {
    {{singularCamel}}Id: {{singularCamel}}.{{singularCamel}}Id,
    name: {{singularCamel}}.name,
    updatedAt: new Date({{singularCamel}}.updatedAt).toISOString(),
  };
}

/**
 * The {{plural}}' routes: HTTP in, domain calls out. Every route needs credentials (the global
 * guard); reads need the viewer role, writes the editor role (the default); answers say
 * `Cache-Control: no-store` (the default behind credentials).
 */
@ApiTags('{{Title}}')
@Controller('{{plural}}')
export class {{Plural}}Controller {
  constructor(private readonly {{pluralCamel}}: {{Plural}}Service) {}

  @Get(':{{singularCamel}}Id')
  @RequiresRole('viewer')
  @ApiGet{{Singular}}()
  async get(@Param() { {{singularCamel}}Id }: {{Singular}}IdParams): Promise<{{Singular}}Response> {
    return toResponse(await this.{{pluralCamel}}.get({{singularCamel}}Id));
  }

  @Put(':{{singularCamel}}Id')
  @ApiStore{{Singular}}()
  async store(
    @Param() { {{singularCamel}}Id }: {{Singular}}IdParams,
    @Body() body: Store{{Singular}}Dto,
  ): Promise<{{Singular}}Response> {
    return toResponse(await this.{{pluralCamel}}.store({{singularCamel}}Id, body.name));
  }

  @Delete(':{{singularCamel}}Id')
  @HttpCode(204)
  @ApiDelete{{Singular}}()
  async remove(@Param() { {{singularCamel}}Id }: {{Singular}}IdParams): Promise<void> {
    await this.{{pluralCamel}}.remove({{singularCamel}}Id);
  }
}
