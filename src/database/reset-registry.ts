import { Injectable } from '@nestjs/common';

/**
 * What test mode's reset (POST /testing/reset) empties: each feature module registers its own
 * tables here when it is built (`empties`), or says why a table of its own outlives a reset
 * (`keeps`: users, signing keys, the museum clock). No central list names a feature's tables, and
 * a test (test/testing/reset.e2e-spec.ts) fails when a table the migrations create is in neither
 * list, so a new module that registers nothing cannot be missed.
 */
@Injectable()
export class ResetRegistry {
  private readonly emptied = new Map<string, string>();
  private readonly kept = new Map<string, string>();

  /** `owner` (a module's name) empties these tables in a reset. */
  empties(owner: string, tables: readonly string[]): void {
    for (const table of tables) this.emptied.set(table, owner);
  }

  /** `owner` keeps these tables as they are in a reset. */
  keeps(owner: string, tables: readonly string[]): void {
    for (const table of tables) this.kept.set(table, owner);
  }

  /** The tables a reset empties. No table has a foreign key, so their order does not matter. */
  tablesToEmpty(): string[] {
    return [...this.emptied.keys()];
  }

  /** The module that registered `table` to be emptied, if one did. */
  ownerOf(table: string): string | undefined {
    return this.emptied.get(table);
  }

  /** The tables a reset keeps. */
  keptTables(): string[] {
    return [...this.kept.keys()];
  }
}
