import { Injectable } from '@nestjs/common';
import { type Guess, GuessGate } from './guess-gate.js';

export type { Guess } from './guess-gate.js';

/**
 * The name under which the failure limiter counts a user's unknown confirmation codes: beside its
 * wrong passwords (same limits, same window, same address cap), not in the same count, so that a
 * scanner reading a foreign QR code never locks its user out of the rest of the service. A newline
 * never occurs in a user name, so this never names a user.
 */
const codeGuessesOf = (username: string): string => `${username}\ncheck-in codes`;

/**
 * What auth gives tickets, and all it gives it: check-in codes looked up as guesses of a secret
 * (GuessGate), counted per user and address by the failure limiter that counts wrong passwords.
 */
@Injectable()
export class CheckInCodeGuesses {
  constructor(private readonly gate: GuessGate) {}

  /**
   * Runs `lookup` of a code `username` scanned from `address`, and counts it as a failure when
   * `unknown(value)` says the code was none; `limited` once that user may fail no more from there.
   */
  check<T>(
    address: string,
    username: string,
    lookup: () => Promise<T>,
    unknown: (value: T) => boolean,
  ): Promise<Guess<T>> {
    return this.gate.check(address, codeGuessesOf(username), lookup, unknown);
  }
}
