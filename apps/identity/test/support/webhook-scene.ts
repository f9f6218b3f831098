// What webhook specs that drive the dispatcher themselves start from: identity with its dispatcher off (the spec
// drains it) and a receiver on this machine for the endpoints' deliveries.
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { startIdentity, type RunningIdentity } from './identity-app';

export interface WebhookScene {
  identity: RunningIdentity;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

export async function startWebhookScene(env: Record<string, string> = {}): Promise<WebhookScene> {
  const receiver = await new WebhookReceiver().start();
  const identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true', ...env }).catch(
    async (error: unknown) => {
      await receiver.close();
      throw error;
    },
  );
  return {
    identity,
    receiver,
    close: async () => {
      await identity.close();
      await receiver.close();
    },
  };
}
