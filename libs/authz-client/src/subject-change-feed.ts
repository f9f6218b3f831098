import { Client } from 'undici';
import {
  SUBJECT_CHANGE_EVENT,
  SUBJECT_CHANGES_APPLIED_PATH,
  SUBJECT_CHANGES_PATH,
  SUBJECT_CHANGES_READY_EVENT,
  type SubjectChangeAppliedDto,
  type SubjectChangeDto,
  type SubjectChangesReadyDto,
} from '@stdreg/contracts';
import { serviceUrl } from '@stdreg/server-kit';

export interface SubjectChangeFeedOptions {
  identityUrl: string;
  serviceToken: string;
  /** The stream is open: every change from now on arrives. */
  opened(): void;
  changed(change: SubjectChangeDto): void;
  /** The stream is not open (any more): changes may be missed until `opened` again. */
  lost(): void;
}

const CONNECT_TIMEOUT_MS = 5000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2000;
/** Before identity says how often it writes: how long a silent stream is taken as open. */
const SILENCE_BEFORE_READY_MS = 5000;

/**
 * Follows identity's subject changes (GET /v1/subject-changes, server-sent events) on a connection of
 * its own, reconnecting at once and then every up to 2 s. The stream counts as open from its `ready`
 * event until it ends, fails, or is silent for three of identity's heartbeats. Once a change is applied
 * it says so (POST /v1/subject-changes/applied, on a second connection): the write waits for that.
 */
export class SubjectChangeFeed {
  private readonly client: Client;
  private readonly appliedClient: Client;
  private readonly path: string;
  private readonly appliedPath: string;
  private isOpen = false;
  private stopped = false;
  private abort: AbortController | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SubjectChangeFeedOptions) {
    const changes = serviceUrl(options.identityUrl, SUBJECT_CHANGES_PATH);
    const applied = serviceUrl(options.identityUrl, SUBJECT_CHANGES_APPLIED_PATH);
    this.client = new Client(changes.origin, { headersTimeout: CONNECT_TIMEOUT_MS, bodyTimeout: 0, connectTimeout: CONNECT_TIMEOUT_MS });
    this.appliedClient = new Client(applied.origin, {
      headersTimeout: CONNECT_TIMEOUT_MS,
      bodyTimeout: CONNECT_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    this.path = changes.pathname;
    this.appliedPath = applied.pathname;
    this.connect(RETRY_FIRST_MS);
  }

  get open(): boolean {
    return this.isOpen;
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.abort?.abort();
    this.lose();
    await Promise.all([this.client.destroy(), this.appliedClient.destroy()]);
  }

  private connect(nextRetryMs: number): void {
    void this.follow().then((wasOpen) => {
      this.lose();
      if (this.stopped) return;
      const wait = wasOpen ? 0 : nextRetryMs;
      this.retryTimer = setTimeout(() => this.connect(wasOpen ? RETRY_FIRST_MS : Math.min(nextRetryMs * 2, RETRY_MAX_MS)), wait);
      this.retryTimer.unref();
    });
  }

  /** Reads one stream to its end; whether it was ever open. */
  private async follow(): Promise<boolean> {
    const abort = new AbortController();
    this.abort = abort;
    let silence: NodeJS.Timeout | undefined;
    let silentForMs = SILENCE_BEFORE_READY_MS;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => abort.abort(), silentForMs);
      silence.unref();
    };
    let wasOpen = false;
    let streamId: string | undefined;
    try {
      const response = await this.client.request({
        method: 'GET',
        path: this.path,
        headers: { authorization: `Bearer ${this.options.serviceToken}`, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      if (response.statusCode !== 200) {
        await response.body.dump();
        return false;
      }
      heard();
      let buffered = '';
      for await (const chunk of response.body) {
        heard();
        buffered += (chunk as Buffer).toString('utf8');
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const event = parseEvent(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
          if (event?.name === SUBJECT_CHANGES_READY_EVENT) {
            const ready = readyOf(event.data);
            silentForMs = 3 * ready.heartbeatMs;
            streamId = ready.streamId;
            heard();
            wasOpen = true;
            this.isOpen = true;
            this.options.opened();
          } else if (event?.name === SUBJECT_CHANGE_EVENT && wasOpen) {
            const change = event.data as SubjectChangeDto;
            this.options.changed(change);
            if (streamId && typeof change.changeId === 'string') this.sayApplied({ streamId, changeId: change.changeId });
          }
        }
      }
    } catch {
      // Refused, reset, aborted for silence, or closed: all the same, the stream is not open.
    } finally {
      clearTimeout(silence);
    }
    return wasOpen;
  }

  /** Unanswered or refused, identity waits out its limit instead: nothing to do about it here. */
  private sayApplied(word: SubjectChangeAppliedDto): void {
    this.appliedClient
      .request({
        method: 'POST',
        path: this.appliedPath,
        headers: { authorization: `Bearer ${this.options.serviceToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(word),
      })
      .then((response) => response.body.dump())
      .catch(() => undefined);
  }

  private lose(): void {
    this.isOpen = false;
    this.options.lost();
  }
}

function parseEvent(raw: string): { name: string; data: unknown } | null {
  let name = 'message';
  const data: string[] = [];
  for (const line of raw.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return null;
  try {
    return { name, data: JSON.parse(data.join('\n')) };
  } catch {
    return null;
  }
}

function readyOf(data: unknown): { heartbeatMs: number; streamId: string | undefined } {
  const { heartbeatMs, streamId } = (data ?? {}) as Partial<SubjectChangesReadyDto>;
  return {
    heartbeatMs: typeof heartbeatMs === 'number' && heartbeatMs >= 100 && heartbeatMs <= 60_000 ? heartbeatMs : 5000,
    streamId: typeof streamId === 'string' ? streamId : undefined,
  };
}
