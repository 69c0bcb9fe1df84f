import { Refusal } from '../domain/refusal.js';

/** Why {{a}} {{singularWords}} is not read or removed, with what each answer needs to say. */
export interface {{Singular}}Reasons {
  'no-{{singular}}': { readonly {{singularCamel}}Id: string };
}

export class {{Singular}}Refusal<R extends keyof {{Singular}}Reasons = keyof {{Singular}}Reasons> extends Refusal<
  {{Singular}}Reasons,
  R
> {}
