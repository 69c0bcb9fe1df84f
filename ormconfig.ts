/** The TypeORM CLI's entry point (`npm run migration:run|revert|show|generate`). */
export { default } from './src/data-source.js';
