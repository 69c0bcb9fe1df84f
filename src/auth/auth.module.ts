import { Module } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { PublicAnswerCache } from '../common/http/public-answer-cache.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Sql } from '../database/sql.js';
import { AdminBootstrap } from './admin-bootstrap.js';
import { BasicAuthGuard } from './basic-auth.guard.js';
import { BasicStrategy } from './basic.strategy.js';
import { CredentialCache } from './credential-cache.js';
import { CredentialsEpoch } from './credentials-epoch.js';
import { CredentialsVerifier } from './credentials-verifier.js';
import { FailureLimiter } from './failure-limiter.js';
import { CheckInCodeGuesses } from './check-in-codes.js';
import { GuessGate } from './guess-gate.js';
import { HashGate } from './hash-gate.js';
import { PasswordHasher } from './password-hasher.js';
import { PublicReadThrottler } from './public-read-limit.js';
import { RoleGuard } from './role.guard.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';
import { ResetRegistry } from '../database/reset-registry.js';

/**
 * HTTP Basic authentication for every route that is not @Public(), the role each route needs
 * (@RequiresRole()), the users behind both, and the rate limit of the reads that public read
 * (@PublicRead(), PUBLIC_READ=true) lets in without credentials, and the in-memory cache of their
 * answers (PublicAnswerCache).
 */
@Module({
  imports: [PassportModule],
  providers: [
    {
      provide: PasswordHasher,
      inject: [APP_CONFIG],
      useFactory: ({ auth }: AppConfig) => new PasswordHasher(auth.passwordHashing),
    },
    {
      provide: CredentialCache,
      inject: [APP_CONFIG],
      useFactory: ({ auth }: AppConfig) =>
        new CredentialCache({ ttlMs: auth.cacheTtlMs, maxEntries: auth.cacheMaxEntries }),
    },
    {
      provide: FailureLimiter,
      inject: [APP_CONFIG],
      useFactory: ({ auth }: AppConfig) =>
        new FailureLimiter({
          limit: auth.failureLimit,
          addressLimit: auth.failureAddressLimit,
          windowMs: auth.failureWindowMs,
        }),
    },
    { provide: GuessGate, inject: [FailureLimiter], useFactory: (limiter: FailureLimiter) => new GuessGate(limiter) },
    {
      provide: HashGate,
      inject: [APP_CONFIG],
      useFactory: ({ auth }: AppConfig) =>
        new HashGate({ concurrency: auth.hashConcurrency, maxWaitMs: auth.hashMaxWaitMs }),
    },
    CheckInCodeGuesses,
    UsersService,
    UsersRepository,
    CredentialsVerifier,
    CredentialsEpoch,
    BasicStrategy,
    AdminBootstrap,
    { provide: APP_GUARD, useClass: BasicAuthGuard },
    // After the Basic guard, which marks the anonymous reads it lets in: only those are counted.
    // Only with public read on (a factory that gives null registers no guard): no request pays
    // for a limit that cannot apply.
    {
      provide: APP_GUARD,
      inject: [APP_CONFIG, Sql, Reflector],
      useFactory: ({ publicRead }: AppConfig, sql: Sql, reflector: Reflector) =>
        publicRead.enabled ? new PublicReadThrottler(publicRead, sql, reflector) : null,
    },
    // After the Basic guard, so that it runs after authentication: anonymous callers get 401, never 403.
    { provide: APP_GUARD, useClass: RoleGuard },
    // The last guard: a read answered from this memory was counted by the limit and let in by the
    // role guard. Only with public read on and a max-age to honour.
    {
      provide: APP_GUARD,
      inject: [APP_CONFIG],
      useFactory: ({ publicRead }: AppConfig) =>
        publicRead.enabled && publicRead.maxAgeSeconds > 0
          ? new PublicAnswerCache({ ttlMs: Math.min(1000, publicRead.maxAgeSeconds * 1000) })
          : null,
    },
  ],
  // CheckInCodeGuesses: tickets counts unknown check-in codes with it, as wrong passwords are counted.
  exports: [UsersService, CheckInCodeGuesses],
})
export class AuthModule {
  constructor(reset: ResetRegistry) {
    reset.empties('auth', ['public_read_hits']);
    // Users and their credentials' epoch outlive a reset: a suite keeps its logins.
    reset.keeps('auth', ['users', 'credentials_epoch']);
  }
}
