import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/** Random bytes drawn at once: 256 ids' worth, one draw from the system's CSPRNG per 256 ids. */
const POOL_BYTES = 4096;
const ID_BYTES = 16;

const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;
/** The last id's millisecond and sequence, as uuid keeps them: ids of one process ascend. */
const state = { msecs: -Infinity, seq: 0 };

/** The next 16 random bytes of the pool, refilled when it runs out. */
function randomBytes16(): Buffer {
  if (offset === POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return bytes;
}

/**
 * A new UUIDv7 (RFC 9562), as uuid's `v7()` makes it (a 31-bit sequence within a millisecond,
 * seeded from the random bits, so that the ids of one process ascend), but with its random bits
 * taken from a pool filled 4 KiB at a time, as node:crypto's `randomUUID` does: uuid draws 16
 * bytes through WebCrypto's `getRandomValues` for every id, 3.4% of a create's CPU
 * (docs/performance-history.md, "Where the time went").
 */
export function uuidv7(now: number = Date.now()): string {
  const random = randomBytes16();
  if (now > state.msecs) {
    // uuid's seed: bytes 6 to 9, the top bit cleared.
    state.seq = random.readUInt32BE(6) & 0x7fffffff;
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}
