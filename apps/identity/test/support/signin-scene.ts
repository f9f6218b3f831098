// What most sign-in specs start from: identity on a real port, a relying party's callback, one
// registered partner app and the relying party's side of the flow.
import { signinFlow, type SigninFlow } from './signin-flow';
import { registerPartnerApp, startCallbackServer, startSigninIdentity, type PartnerApp, type SigninIdentity } from './signin-fixture';

export interface SigninScene {
  identity: SigninIdentity;
  callback: Awaited<ReturnType<typeof startCallbackServer>>;
  app: PartnerApp;
  flow: SigninFlow;
  close(): Promise<void>;
}

export async function startSigninScene(env: Record<string, string> = {}): Promise<SigninScene> {
  const identity = await startSigninIdentity(env);
  const callback = await startCallbackServer();
  const app = await registerPartnerApp(identity, [callback.redirectUri]);
  return {
    identity,
    callback,
    app,
    flow: signinFlow(identity, callback.redirectUri),
    close: async () => {
      await callback.close();
      await identity.close();
    },
  };
}
