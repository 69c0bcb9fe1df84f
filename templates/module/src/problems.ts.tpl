import { ProblemCatalog } from '../common/problem/problem-catalog.js';
import { {{Singular}}Refusal, type {{Singular}}Reasons } from './{{plural}}.refusals.js';

/** Each refusal of the {{plural}} module as an HTTP problem, and as the API description words it. */
export const {{PLURAL}}_PROBLEMS = new ProblemCatalog<{{Singular}}Reasons>('{{plural}}', {{Singular}}Refusal, {
  'no-{{singular}}': {
    status: 404,
    detail: ({ {{singularCamel}}Id }) => `No {{singularWords}} ${{{singularCamel}}Id}.`,
    when: 'No {{singularWords}} has this id.',
    example: { {{singularCamel}}Id: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f' },
  },
});
