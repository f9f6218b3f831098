import { createHmac } from 'node:crypto';
import { signatureHeader } from './webhook-transport';

// Cases from outside this project: the signing vector of the Standard Webhooks reference libraries
// (libraries/go/webhook_test.go TestWebhookSign, the same in the C# tests), and the specification's own
// words for what is signed ("msg_id.timestamp.payload", HMAC-SHA256 with the base64 secret after `whsec_`,
// "v1," and the base64 signature, several "space delimited" during a rotation).
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  msgId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: new Date(1614265330 * 1000),
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

/** A signature as the specification describes it, with nothing of the `standardwebhooks` package. */
function specified(secret: string, msgId: string, seconds: number, payload: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${seconds}.${payload}`, 'utf8').digest('base64')}`;
}

describe('the webhook-signature header', () => {
  it("matches the reference libraries' signing vector", () => {
    expect(signatureHeader([vector.secret], vector.msgId, vector.timestamp, vector.payload)).toBe(vector.signature);
  });

  it('signs the id, the whole seconds of the timestamp and the body as sent, characters outside ASCII as UTF-8', () => {
    const payload = '{"name":"Café ✓ 😀 \u2028"}';
    const at = new Date(1614265330_999);
    expect(signatureHeader([vector.secret], 'a.b', at, payload)).toBe(specified(vector.secret, 'a.b', 1614265330, payload));
  });

  it('carries one signature per secret, space-separated, the current one first, each verifying with its own secret alone', () => {
    const previous = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    const header = signatureHeader([vector.secret, previous], vector.msgId, vector.timestamp, vector.payload);
    expect(header.split(' ')).toEqual([
      specified(vector.secret, vector.msgId, 1614265330, vector.payload),
      specified(previous, vector.msgId, 1614265330, vector.payload),
    ]);
  });
});
