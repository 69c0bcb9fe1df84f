import { Module, type OnModuleInit } from '@nestjs/common';
import {
  type EventChange,
  EventWriteParticipants,
  type SqlStatement,
} from '../../../src/special-events/event-write-participants.js';
import { SpecialEventsModule } from '../../../src/special-events/special-events.module.js';

/** The name of an event whose journal row breaks a NOT NULL rule, so that its write fails part way. */
export const FAILING_NAME = 'journal refuses this one';

export const JOURNAL_TABLE =
  'CREATE TABLE participant_journal (event_id VARCHAR(36) NOT NULL, kind VARCHAR(10) NOT NULL, name VARCHAR(200) NOT NULL)';

/**
 * A module built on special events, as tickets and webhooks are: it imports SpecialEventsModule,
 * joins its writes' transactions and keeps a journal of every change in a table of its own
 * (created by the test: this module has no migrations).
 */
@Module({ imports: [SpecialEventsModule] })
export class JournalModule implements OnModuleInit {
  constructor(private readonly participants: EventWriteParticipants) {}

  onModuleInit(): void {
    this.participants.join({ statementsFor: journalRow });
  }
}

function journalRow(change: EventChange): SqlStatement[] {
  const eventId = change.kind === 'deleted' ? change.eventId : change.event.eventId;
  const name = change.kind === 'deleted' ? '' : change.event.name === FAILING_NAME ? null : change.event.name;
  return [
    {
      sql: 'INSERT INTO participant_journal (event_id, kind, name) VALUES (?, ?, ?)',
      parameters: [eventId, change.kind, name],
    },
  ];
}
