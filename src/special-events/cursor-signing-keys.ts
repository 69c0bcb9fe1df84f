import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { hash } from 'node:crypto';
import { SpecialEventsRepository } from './special-events.repository.js';

const BLOCK = 64;

/**
 * A key of SHA-256 HMAC (RFC 2104) with its padded inner and outer blocks computed once: then a
 * MAC is two one-shot `crypto.hash` calls (about 1.5 µs). `createHmac` builds a KeyObject and an
 * Hmac per call: 13 µs with a Buffer key, which was a tenth of a list page's CPU.
 */
export class CursorKey {
  private readonly inner: Buffer;
  private readonly outer: Buffer;

  constructor(
    readonly id: string,
    secret: Buffer,
  ) {
    const key = secret.length > BLOCK ? hash('sha256', secret, 'buffer') : secret;
    this.inner = Buffer.alloc(BLOCK, 0x36);
    this.outer = Buffer.alloc(BLOCK, 0x5c);
    for (let i = 0; i < key.length; i++) {
      this.inner[i] ^= key[i];
      this.outer[i] ^= key[i];
    }
  }

  /** HMAC-SHA256 of `text` (UTF-8) under this key. */
  mac(text: string): Buffer {
    const inner = hash('sha256', Buffer.concat([this.inner, Buffer.from(text, 'utf8')]), 'buffer');
    return hash('sha256', Buffer.concat([this.outer, inner]), 'buffer');
  }
}

/** How often an instance looks for a newer signing key (a rotation) while it serves lists. */
const REFRESH_MS = 60_000;
/** The least time between two reloads caused by cursors signed with a key this instance lacks. */
const UNKNOWN_KEY_RELOAD_MS = 1_000;

/**
 * The keys that sign list cursors, shared by every instance through the database
 * (`cursor_signing_keys`): the newest signs, all verify. Rotating is adding a row (docs/api.md):
 * each instance signs with it within a minute, and verifies it at once when a cursor signed with
 * it arrives; cursors signed with an older key keep working until that row is deleted.
 */
@Injectable()
export class CursorSigningKeys implements OnModuleInit {
  private readonly logger = new Logger(CursorSigningKeys.name);
  private keys = new Map<string, CursorKey>();
  private newest: CursorKey | undefined;
  private tagKey: CursorKey | undefined;
  private loadedAt = 0;
  private reloading: Promise<void> | undefined;

  constructor(private readonly repository: SpecialEventsRepository) {}

  async onModuleInit(): Promise<void> {
    await this.load();
  }

  /** The key new cursors are signed with. */
  signing(): CursorKey {
    if (Date.now() - this.loadedAt > REFRESH_MS) this.reloadInBackground();
    if (!this.newest) throw new Error('No cursor signing key: the migrations have not run');
    return this.newest;
  }

  /**
   * The key of the public entity tags (PublicEntityTags): derived from the signing key, so that
   * every instance tags alike, and apart from it, so that no tag is a MAC a cursor could reuse.
   */
  tagging(): CursorKey {
    const signing = this.signing();
    if (this.tagKey?.id !== signing.id) {
      this.tagKey = new CursorKey(signing.id, signing.mac('public entity tags'));
    }
    return this.tagKey;
  }

  /** The key of this id, reloading the keys (at most once a second) when it is not known yet. */
  async verifying(id: string): Promise<CursorKey | undefined> {
    const known = this.keys.get(id);
    if (known || Date.now() - this.loadedAt < UNKNOWN_KEY_RELOAD_MS) return known;
    await this.reload();
    return this.keys.get(id);
  }

  private reloadInBackground(): void {
    this.reload().catch((error: unknown) =>
      this.logger.warn({
        msg: 'Cursor signing keys not reloaded',
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  private reload(): Promise<void> {
    // Counted from the attempt: a database that fails is asked again at the same pace, not at once.
    this.loadedAt = Date.now();
    this.reloading ??= this.load().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async load(): Promise<void> {
    const rows = await this.repository.cursorSigningKeys();
    const keys = new Map<string, CursorKey>();
    for (const row of rows) keys.set(row.keyId, new CursorKey(row.keyId, Buffer.from(row.secret, 'base64url')));
    this.keys = keys;
    this.newest = rows.length > 0 ? keys.get(rows[rows.length - 1].keyId) : undefined;
    this.loadedAt = Date.now();
  }
}
