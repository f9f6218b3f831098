import { Injectable } from '@nestjs/common';
import type { SubjectChangeDto } from '@stdreg/contracts';
import { KeyLeases } from '../callers/key-leases';
import { TokenSubjectLeases } from '../callers/token-subject-leases';
import { SubjectChangeChannel } from './subject-change-channel';

/** What a write that ends or changes subjects touches. */
export interface SubjectChange {
  /** Keys revoked or rotated. */
  keyIds: readonly string[];
  /** People whose roles, merges or existence changed. */
  personUids: readonly string[];
  /** Access tokens this write ends without knowing whose (a token, a grant, a client, an app, a user). */
  accessTokens: boolean;
}

export const SubjectChange = {
  key: (keyId: string): SubjectChange => ({ keyIds: [keyId], personUids: [], accessTokens: false }),
  /** A revoked key also ends the sign-ins of the apps it registered (their clients go with it). */
  keyAndItsApps: (keyId: string): SubjectChange => ({ keyIds: [keyId], personUids: [], accessTokens: true }),
  /** A person's roles or existence: every access-token answer goes too, as tokens carry the person's roles. */
  people: (...uids: string[]): SubjectChange => ({ keyIds: [], personUids: uids, accessTokens: true }),
  accessTokens: (): SubjectChange => ({ keyIds: [], personUids: [], accessTokens: true }),
};

let issueWrite: (change: SubjectChange) => SubjectChangeWrite;

/**
 * Proof that a write runs inside `SubjectChanges.apply`: only that makes one, and every repository
 * write that ends or changes a subject takes one, so a write that skips the path does not compile.
 */
export class SubjectChangeWrite {
  readonly #change: SubjectChange;

  private constructor(change: SubjectChange) {
    this.#change = change;
  }

  static {
    issueWrite = (change) => new SubjectChangeWrite(change);
  }

  /** What the write announced it touches. */
  get change(): SubjectChange {
    return this.#change;
  }
}

/**
 * The one path of every write that ends or changes a subject (a key revoked or rotated, a role given or
 * taken, a grant, client or app ended, a merge or unmerge, a user deleted). It runs the write, waits out
 * this and every other replica's leases on what the write touches, and tells every service (GET
 * /v1/subject-changes), whose read caches drop what the change touches. The write's caller gets its
 * answer only then: from that moment no replica of identity or of a service relies on the old state.
 */
@Injectable()
export class SubjectChanges {
  constructor(
    private readonly keyLeases: KeyLeases,
    private readonly tokenLeases: TokenSubjectLeases,
    private readonly channel: SubjectChangeChannel,
  ) {}

  /**
   * `touched`: what the write touches, or how to tell from its result (null: it touched nothing after
   * all, so nothing is waited for or announced).
   */
  async apply<T>(
    touched: SubjectChange | ((result: T) => SubjectChange | null),
    write: (proof: SubjectChangeWrite) => Promise<T>,
  ): Promise<T> {
    const announced = typeof touched === 'function' ? SubjectChange.accessTokens() : touched;
    const result = await write(issueWrite(announced));
    const change = typeof touched === 'function' ? touched(result) : touched;
    if (change) await this.settle(change);
    return result;
  }

  private async settle(change: SubjectChange): Promise<void> {
    const keyIds = new Set(change.keyIds);
    await Promise.all([
      keyIds.size > 0 ? this.keyLeases.outlast((credential) => keyIds.has(credential.caller.keyId)) : undefined,
      change.accessTokens || change.personUids.length > 0 ? this.tokenLeases.outlast() : undefined,
    ]);
    // Only now: a service asking again before every lease was out could be answered from one and keep it.
    await this.channel.publish(toDto(change));
  }
}

function toDto(change: SubjectChange): Omit<SubjectChangeDto, 'changeId'> {
  return { keyIds: [...change.keyIds], personUids: [...change.personUids], accessTokens: change.accessTokens };
}
