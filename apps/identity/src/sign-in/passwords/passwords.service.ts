import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { KeyClass, type PasswordSetupDto } from '@stdreg/contracts';
import { JsonLogger } from '@stdreg/server-kit';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { actorOf, type KeyCaller } from '../../access/callers/caller';
import { IdentityConfig } from '../../platform/config/identity.config';
import { UnifiedUsersService } from '../../people/unified-users/unified-users.service';
import { UsersService } from '../../people/users/users.service';
import { userNotFound } from '../../people/users/users.errors';
import { registeringKeyRevoked } from '../../partners/registered-apps/registered-apps.errors';
import { PasswordHasher } from './password-hash';
import { PasswordPolicy, type PasswordProblem } from './password-policy';
import { loginEmailTaken, noUnifiedUser, userSharedWithOtherApps } from './passwords.errors';
import { PasswordLinksRepository, type PasswordSetup } from './password-links.repository';
import { PasswordsRepository, type SetupApp } from './passwords.repository';
import { GrantRevocations } from '../oidc/grant-revocations';
import { SubjectChange, SubjectChanges } from '../../access/subject-changes/subject-changes';

export const PASSWORD_SETUP_PATH = 'v1/password-setup';

/** The outcome of a sign-in attempt, as the login page tells it. */
export type Authentication =
  /** `signedInAt`: by the database's clock, seconds since the epoch (the sign-in's `auth_time`). */
  | { kind: 'ok'; uid: string; signedInAt: number }
  | { kind: 'unknown_user' }
  | { kind: 'ambiguous' }
  | { kind: 'no_password' }
  | { kind: 'wrong_password'; attemptsLeft: number }
  | { kind: 'locked'; retryAfterSeconds: number }
  /** Too many failures in a row: no wait ends it, a new password does. */
  | { kind: 'locked_until_new_password' };

export type SetupCompletion =
  | { kind: 'done'; loginEmail: string; app: SetupApp | null }
  | { kind: 'invalid_link' }
  | { kind: 'rejected'; problem: PasswordProblem | 'mismatch' | 'email_taken' };

/**
 * NIST SP 800-63B §5.2.2: at most 100 failed password checks in a row on one account. The locks that double in between
 * spread them over about two weeks; this ends them, until the person sets a new password through a link.
 */
export const MAX_CONSECUTIVE_FAILURES = 100;

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Passwords: single-use setup links, scrypt hashes, and sign-in with lockout after repeated failures. */
@Injectable()
export class PasswordsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly passwords: PasswordsRepository,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly links: PasswordLinksRepository,
    private readonly users: UsersService,
    private readonly unifiedUsers: UnifiedUsersService,
    private readonly audit: AuditService,
    private readonly config: IdentityConfig,
    private readonly logger: JsonLogger,
    private readonly signIns: GrantRevocations,
    private readonly subjectChanges: SubjectChanges,
  ) {}

  /**
   * A single-use, expiring link that sets the password of a mirror record's unified user, who then
   * signs in with the record's email. An app key may do this only for users that appear in its own
   * registries alone: a unified user shared with other apps is the platform's to help. An agent's key never may
   * (refused by the route, AgentKeyRefused).
   */
  async issueSetup(mirrorId: string, caller: KeyCaller): Promise<PasswordSetupDto> {
    const record = await this.users.get(mirrorId, caller);
    const user = await this.unifiedUsers.findResolved(record.uid);
    if (!user) throw noUnifiedUser(mirrorId);
    if (caller.keyClass !== KeyClass.Platform) {
      const elsewhere = (await this.passwords.registriesOf(user.uid)).filter((registryId) => !caller.registryIds.includes(registryId));
      if (elsewhere.length > 0) {
        throw userSharedWithOtherApps();
      }
    }
    if (await this.passwords.loginEmailTakenByOther(record.email, user.uid)) {
      throw loginEmailTaken();
    }
    const token = randomBytes(32).toString('base64url');
    const setup = await this.dataSource.transaction(async (manager) => {
      const issuer = await this.links.lockIssuer(manager, caller.keyId, record.registryId);
      if (!issuer.keyLive) throw registeringKeyRevoked();
      if (!issuer.appLive) throw userNotFound(mirrorId);
      const inserted = await this.links.insert(manager, {
        tokenHash: tokenHash(token),
        uid: user.uid,
        loginEmail: record.email,
        issuedByKey: caller.keyId,
        createdBy: caller.keyPrefix,
        ttlSeconds: this.config.PASSWORD_SETUP_TTL_SECONDS,
        registryId: record.registryId,
      });
      await this.audit.record(
        actorOf(caller),
        { action: 'users.password-setup', target: user.uid, organizationId: issuer.organizationId, detail: { userId: mirrorId } },
        manager,
      );
      return inserted;
    });
    const setupUrl = `${this.config.publicOrigin}/${PASSWORD_SETUP_PATH}/${token}`;
    if (this.config.PASSWORD_SETUP_LINKS_IN_LOG === 'true') {
      this.logger.event(
        'info',
        'password setup link (development: PASSWORD_SETUP_LINKS_IN_LOG=true)',
        { uid: user.uid, setupUrl },
        'Passwords',
      );
    }
    return { uid: user.uid, loginEmail: record.email, expiresAt: setup.expiresAt.toISOString(), setupUrl };
  }

  findUsableSetup(token: string): Promise<PasswordSetup | null> {
    return this.links.findUsable(tokenHash(token));
  }

  async completeSetup(token: string, password: string, confirmation: string): Promise<SetupCompletion> {
    const setup = await this.findUsableSetup(token);
    if (!setup) return { kind: 'invalid_link' };
    if (password !== confirmation) return { kind: 'rejected', problem: 'mismatch' };
    // Read before the link is spent: a failure here leaves it usable, not a password set behind an error page.
    const app = setup.registryId ? await this.passwords.setupApp(setup.registryId) : null;
    const user = await this.unifiedUsers.findResolved(setup.uid);
    const problem = this.policy.problem(password, {
      email: setup.loginEmail,
      names: [user?.displayName, app?.name],
      host: new URL(this.config.publicOrigin).hostname,
    });
    if (problem) return { kind: 'rejected', problem };
    if (await this.passwords.loginEmailTakenByOther(setup.loginEmail, setup.uid)) return { kind: 'rejected', problem: 'email_taken' };
    const hash = await this.hasher.hash(password);
    // A password set again (a reset) ends the person's sign-ins made with the one before: whoever knew it keeps no
    // session, refresh token or access token. The answer waits until no replica relies on an ended grant.
    const outcome = await this.subjectChanges.apply(
      (done: { spent: PasswordSetup | 'email_taken' | null; grantsEnded: number }) =>
        done.grantsEnded > 0 ? SubjectChange.accessTokens() : null,
      (write) =>
        this.dataSource.transaction(async (manager) => {
          // Passwords of one email are set one at a time, and the check above is made again under that lock: two people
          // of one organization setting passwords for one email at once cannot both find it free.
          await this.passwords.lockLoginEmail(manager, setup.loginEmail);
          if (await this.passwords.loginEmailTakenByOther(setup.loginEmail, setup.uid, manager))
            return { spent: 'email_taken' as const, grantsEnded: 0 };
          const row = await this.links.spend(manager, tokenHash(token));
          if (!row) return { spent: null, grantsEnded: 0 };
          await this.passwords.upsertPassword(manager, row.uid, row.loginEmail, hash);
          const person = { kind: 'human' as const, id: row.uid };
          const grantsEnded = await this.signIns.endSignInsOf(manager, row.uid, 'password_change', person, write);
          await this.audit.record(
            person,
            { action: 'users.password-set', target: row.uid, ...(grantsEnded > 0 ? { detail: { grantsEnded } } : {}) },
            manager,
          );
          return { spent: row, grantsEnded };
        }),
    );
    const { spent } = outcome;
    if (spent === 'email_taken') return { kind: 'rejected', problem: 'email_taken' };
    if (!spent) return { kind: 'invalid_link' };
    return { kind: 'done', loginEmail: spent.loginEmail, app };
  }

  /**
   * Checks an email and password for a sign-in through the app of `clientId`, among the users that
   * app's organization knows when the email is shared; repeated failures lock the account for
   * SIGNIN_LOCKOUT_SECONDS. A failed check is audited as the doing of whoever tried, known only by `clientIp`, not the
   * account's owner.
   */
  async authenticate(email: string, password: string, clientId: string | null, clientIp: string): Promise<Authentication> {
    // Emails are stored in NFC (NormalizedToNfc); a browser may send the same text decomposed.
    const address = email.trim().normalize('NFC');
    const candidates = await this.passwords.findByLoginEmail(address, clientId);
    if (candidates.length > 1) return { kind: 'ambiguous' };
    const stored = candidates[0];
    if (!stored) return (await this.passwords.unifiedUserHasEmail(address)) ? { kind: 'no_password' } : { kind: 'unknown_user' };
    if (stored.failedAttempts >= MAX_CONSECUTIVE_FAILURES) return { kind: 'locked_until_new_password' };
    if (stored.lockedUntil) return { kind: 'locked', retryAfterSeconds: secondsUntil(stored.lockedUntil) };
    // The slow hash runs before the transaction, holding no pool connection: one client may send more attempts at once
    // than the pool has connections. Its answer counts only under the account's row, held from reading the lock again
    // through the count to its audit entry: attempts sent at once each see what the ones before them left (no more
    // guesses are answered than the lockout allows), and a count (and a lock it reaches) commits with its entry or not at all.
    const matches = await this.hasher.verify(password, stored.passwordHash);
    return this.dataSource.transaction(async (manager): Promise<Authentication> => {
      const account = await this.passwords.lockAccount(manager, stored.uid);
      if (!account) return { kind: 'unknown_user' };
      if (account.failedAttempts >= MAX_CONSECUTIVE_FAILURES) return { kind: 'locked_until_new_password' };
      if (account.lockedUntil) return { kind: 'locked', retryAfterSeconds: secondsUntil(account.lockedUntil) };
      // A password set since it was read is checked again, under the row (rare: a setup and a sign-in at once).
      const right = account.passwordHash === stored.passwordHash ? matches : await this.hasher.verify(password, account.passwordHash);
      if (right) {
        const user = await this.unifiedUsers.findResolved(stored.uid, manager);
        if (!user) return { kind: 'unknown_user' };
        await this.passwords.clearFailures(manager, stored.uid);
        await this.audit.record({ kind: 'human', id: stored.uid }, { action: 'signin.password', target: user.uid }, manager);
        return { kind: 'ok', uid: user.uid, signedInAt: Math.floor((await this.passwords.now(manager)).getTime() / 1000) };
      }
      const failure = await this.passwords.recordFailure(
        manager,
        stored.uid,
        this.config.SIGNIN_MAX_FAILED_ATTEMPTS,
        this.config.SIGNIN_LOCKOUT_SECONDS,
      );
      await this.audit.record(
        { kind: 'anonymous', id: clientIp },
        {
          action: 'signin.password',
          target: stored.uid,
          outcome: 'failure',
          detail: { locked: failure.lockedUntil !== null || failure.failedAttempts >= MAX_CONSECUTIVE_FAILURES },
        },
        manager,
      );
      if (failure.failedAttempts >= MAX_CONSECUTIVE_FAILURES) return { kind: 'locked_until_new_password' };
      if (failure.lockedUntil) return { kind: 'locked', retryAfterSeconds: secondsUntil(failure.lockedUntil) };
      const perLock = this.config.SIGNIN_MAX_FAILED_ATTEMPTS;
      const beforeLimit = MAX_CONSECUTIVE_FAILURES - failure.failedAttempts;
      return { kind: 'wrong_password', attemptsLeft: Math.min(perLock - (failure.failedAttempts % perLock), beforeLimit) };
    });
  }
}

function secondsUntil(time: Date): number {
  return Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000));
}
