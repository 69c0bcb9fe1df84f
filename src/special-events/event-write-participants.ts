import { Injectable } from '@nestjs/common';
import type { SpecialEvent } from './special-event.entity.js';

/** A change to a special event, as committed: the event as stored, or the id of the one deleted. */
export type EventChange =
  | { readonly kind: 'created' | 'updated'; readonly event: SpecialEvent }
  | { readonly kind: 'deleted'; readonly eventId: string };

/** One SQL statement with `?` placeholders, valid on SQLite and MySQL/MariaDB alike. */
export interface SqlStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * A module whose own tables must change in the same transaction as a special event (the tickets
 * an event's delete cancels, an outbox row that announces the change). Its statements run after
 * the event's own and only when those took effect (the id was new, the version still matched,
 * the event existed); if one of them fails, the event's write fails with it and nothing is kept.
 *
 * `statementsFor` is called once per change, before the transaction, and must not touch the
 * database itself: on SQLite a batch of writes may be run twice (the first attempt rolled back),
 * so everything a participant does has to be in the statements it returns.
 */
export interface EventWriteParticipant {
  statementsFor(change: EventChange): readonly SqlStatement[];

  /**
   * The statements for several changes of one kind to distinct events, written in one
   * transaction (MySQL's batched creates and deletes, Sql.batched): the same rows as
   * `statementsFor` of each, in fewer statements (multi-row ones), so that a batch costs a few
   * round trips rather than a few per event. Without it, `statementsFor` of each change.
   */
  statementsForAll?(changes: readonly EventChange[]): readonly SqlStatement[];

  /**
   * Of an event's ISO `dates`, those this module still holds something for (tickets sold for
   * them): an update may not remove them. A read, outside the update's transaction; the update
   * then requires the event's tickets sold to be the count read before it, so a sale that gets
   * in between makes it read again.
   */
  datesInUse?(eventId: string, dates: readonly string[]): Promise<readonly string[]>;

  /**
   * Of an event's sessions (date items `YYYY-MM-DDTHH:MM`), those this module still holds something
   * for (tickets sold for that session): an update may not move or remove them. Read as datesInUse.
   */
  sessionsInUse?(eventId: string, sessions: readonly string[]): Promise<readonly string[]>;
}

const NONE: readonly SqlStatement[] = [];

/**
 * The participants of special events' writes. SpecialEventsModule exports it; a module that
 * needs to join an event's transaction registers itself (in its `onModuleInit`), so that
 * special-events never imports the modules that build on it.
 */
@Injectable()
export class EventWriteParticipants {
  private readonly participants: EventWriteParticipant[] = [];

  join(participant: EventWriteParticipant): void {
    this.participants.push(participant);
  }

  /** The dates of `dates` that any participant holds something for, ascending (none: empty). */
  async datesInUse(eventId: string, dates: readonly string[]): Promise<string[]> {
    if (dates.length === 0) return [];
    const answers = await Promise.all(
      this.participants.map((participant) => participant.datesInUse?.(eventId, dates) ?? Promise.resolve([])),
    );
    return [...new Set(answers.flat())].sort();
  }

  /** The sessions of `sessions` that any participant holds something for, ascending (none: empty). */
  async sessionsInUse(eventId: string, sessions: readonly string[]): Promise<string[]> {
    if (sessions.length === 0) return [];
    const answers = await Promise.all(
      this.participants.map((participant) => participant.sessionsInUse?.(eventId, sessions) ?? Promise.resolve([])),
    );
    return [...new Set(answers.flat())].sort();
  }

  /** Every participant's statements for `change`, in the order they joined. */
  statementsFor(change: EventChange): readonly SqlStatement[] {
    if (this.participants.length === 0) return NONE;
    // A loop, not flatMap: every event write asks, and most participants return one statement or none.
    const statements: SqlStatement[] = [];
    for (const participant of this.participants) {
      for (const statement of participant.statementsFor(change)) statements.push(statement);
    }
    return statements;
  }

  /**
   * Every participant's statements for these changes (of one kind, to distinct events), in the
   * order they joined: its `statementsForAll` when it has one, else its statements for each.
   */
  statementsForAll(changes: readonly EventChange[]): readonly SqlStatement[] {
    if (this.participants.length === 0 || changes.length === 0) return NONE;
    if (changes.length === 1) return this.statementsFor(changes[0]);
    return this.participants.flatMap(
      (participant) =>
        participant.statementsForAll?.(changes) ?? changes.flatMap((change) => participant.statementsFor(change)),
    );
  }
}
