import type { DriverMigrations } from '../database/migration-history.js';
import { UserRoles1764100000000 as MysqlUserRoles } from './migrations/mysql/1764100000000-user-roles.js';
import { UserRoles1764100000000 as SqliteUserRoles } from './migrations/sqlite/1764100000000-user-roles.js';
import { ExactTextComparisons1764200000000 as MysqlExactTextComparisons } from './migrations/mysql/1764200000000-exact-text-comparisons.js';
import { ExactTextComparisons1764200000000 as SqliteExactTextComparisons } from './migrations/sqlite/1764200000000-exact-text-comparisons.js';
import { CredentialsEpoch1764200002000 as MysqlCredentialsEpoch } from './migrations/mysql/1764200002000-credentials-epoch.js';
import { CredentialsEpoch1764200002000 as SqliteCredentialsEpoch } from './migrations/sqlite/1764200002000-credentials-epoch.js';
import { NormalizedUserNames1764500003700 as MysqlNormalizedUserNames } from './migrations/mysql/1764500003700-normalized-user-names.js';
import { NormalizedUserNames1764500003700 as SqliteNormalizedUserNames } from './migrations/sqlite/1764500003700-normalized-user-names.js';
import { PublicReadHits1764500005100 as MysqlPublicReadHits } from './migrations/mysql/1764500005100-public-read-hits.js';
import { PublicReadHits1764500005100 as SqlitePublicReadHits } from './migrations/sqlite/1764500005100-public-read-hits.js';

/**
 * The users' table after the first schema (roles, exact name comparisons, the credentials epoch,
 * normalized names) and the public reads' shared rate count. One class per driver under one name
 * and timestamp, oldest first;
 * `npm run migration:generate -- auth <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const AUTH_MIGRATIONS: DriverMigrations = {
  sqlite: [
    SqliteUserRoles,
    SqliteExactTextComparisons,
    SqliteCredentialsEpoch,
    SqliteNormalizedUserNames,
    SqlitePublicReadHits,
  ],
  mysql: [
    MysqlUserRoles,
    MysqlExactTextComparisons,
    MysqlCredentialsEpoch,
    MysqlNormalizedUserNames,
    MysqlPublicReadHits,
  ],
};
