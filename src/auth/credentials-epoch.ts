import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CredentialCache } from './credential-cache.js';
import { UsersRepository } from './users.repository.js';

/** How often each instance reads the epoch: a change anywhere is in force here within about this. */
export const EPOCH_POLL_MS = 500;

/**
 * Makes a change to the users take effect on every instance within a second: every change bumps
 * one row (`credentials_epoch`, UsersRepository.bumpEpoch), and each instance reads that row twice a
 * second; when it moved, the credential cache stops trusting what it holds (CredentialCache
 * .expireAll), so each credential is checked against the database on its next use, without a new
 * password hash unless that user's password changed. The cache keeps its speed between changes:
 * the read is off the request path. A database that does not answer leaves the cache as it is
 * (bounded by AUTH_CACHE_TTL_SECONDS), and is logged once until it answers again.
 */
@Injectable()
export class CredentialsEpoch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CredentialsEpoch.name);
  private timer: NodeJS.Timeout | undefined;
  private epoch: number | undefined;
  /** Bumps this process made (UsersService) that the last read did not include yet. */
  private ownBumps = 0;
  private reading = false;
  private failing = false;

  constructor(
    private readonly users: UsersRepository,
    private readonly cache: CredentialCache,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), EPOCH_POLL_MS);
    this.timer.unref();
  }

  /** Bumps the epoch for a change this process made and has applied to its own cache already. */
  async bump(): Promise<void> {
    this.ownBumps++;
    try {
      await this.users.bumpEpoch();
    } catch (error) {
      this.ownBumps--;
      throw error;
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const epoch = await this.users.epoch();
      if (this.epoch !== undefined && epoch !== this.epoch) {
        // This process's own changes were applied to its cache already (invalidateUser): only a
        // move beyond them means another process changed users.
        const moved = epoch - this.epoch;
        if (moved > 0 && moved <= this.ownBumps) this.ownBumps -= moved;
        else {
          this.ownBumps = 0;
          this.cache.expireAll();
        }
      }
      this.epoch = epoch;
      if (this.failing) this.logger.log({ msg: 'Credentials epoch read again' });
      this.failing = false;
    } catch (error) {
      if (!this.failing) {
        this.logger.warn({
          msg: 'Credentials epoch not read: changes to users made elsewhere wait for the cache bound',
          error: error instanceof Error ? error.message : String(error),
        });
      }
      this.failing = true;
    } finally {
      this.reading = false;
    }
  }
}
