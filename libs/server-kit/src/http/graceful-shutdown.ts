import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { JsonLogger } from '../logging/json-logger';

export interface GracefulShutdownOptions {
  logger: JsonLogger;
  /** After this long the process exits with 1 even if requests are still running. */
  timeoutMs: number;
  /** How the process ends (process.exit in a service; a spy in tests). */
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
  /** A signal this soon after the first is the same stop; a later one ends the process at once (default 1 s). */
  sameStopMs?: number;
}

const SAME_STOP_MS = 1_000;

/**
 * On SIGTERM or SIGINT: stop accepting connections, let the requests in flight finish, close the
 * service's resources (Nest shutdown hooks: database, Redis, clients), then exit 0; exit 1 when
 * that takes longer than `timeoutMs` or fails. Returns the handler, which tests call directly.
 */
export function handleShutdownSignals(app: INestApplication, options: GracefulShutdownOptions): (signal: NodeJS.Signals) => Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shutdown: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals): Promise<void> => {
    shutdown ??= (async () => {
      options.logger.event('info', 'shutting down: finishing requests in flight', { signal }, 'Shutdown');
      const timer = setTimeout(() => {
        options.logger.event('error', 'shutdown took too long; exiting', { timeoutMs: options.timeoutMs }, 'Shutdown');
        exit(1);
      }, options.timeoutMs);
      timer.unref();
      // server.close() closes the connections idle at that moment; a keep-alive connection whose request
      // was still running becomes idle only after its response, so sweep until the server has closed.
      const server = app.getHttpServer() as Server;
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      try {
        await app.close().finally(() => clearInterval(sweep));
        clearTimeout(timer);
        options.logger.event('info', 'stopped', {}, 'Shutdown');
        exit(0);
      } catch (error) {
        clearTimeout(timer);
        options.logger.event('error', 'shutdown failed', { error: error instanceof Error ? error.message : String(error) }, 'Shutdown');
        exit(1);
      }
    })();
    return shutdown;
  };
  // A supervisor's stop can arrive twice within milliseconds: a SIGTERM to the whole process group (systemd's
  // default) reaches a service and `npm start`'s program, which passes one on. That is one stop. A signal
  // well after the first is someone insisting (Ctrl-C again): the process ends at once, as Node's default would.
  let firstSignalAt: number | undefined;
  const onProcessSignal = (received: NodeJS.Signals): void => {
    if (firstSignalAt === undefined) {
      firstSignalAt = performance.now();
      void onSignal(received);
    } else if (performance.now() - firstSignalAt >= (options.sameStopMs ?? SAME_STOP_MS)) {
      options.logger.event('error', 'asked again to stop: exiting at once', { signal: received }, 'Shutdown');
      exit(1);
    }
  };
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) process.on(signal, onProcessSignal);
  return onSignal;
}
