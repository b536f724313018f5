import { readSecretFile } from './cli-args.js';
import type { ControlAction, ControlInvocation, UserLike } from './control-action.js';

/** `login NAME` or `login --token-file FILE` as the API's body. */
async function loginBody(control: ControlInvocation): Promise<{ username: string } | { token: string }> {
  const tokenFile = control.values['token-file'] as string | undefined;
  if (tokenFile !== undefined) {
    control.need(0, 'either NAME or --token-file FILE');
    return { token: await readSecretFile('--token-file', tokenFile) };
  }
  const [name] = control.need(1, 'NAME (or --token-file FILE)');
  return { username: name as string };
}

const login: ControlAction = async (control) => {
  const result = (await control.call('POST', '/v1/account/login', await loginBody(control))) as { account: { user: UserLike } | null };
  control.print(result, () => `Signed in as ${result.account?.user.username ?? '?'}\n`);
  return 0;
};

const logout: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  const result = await control.call('POST', '/v1/account/logout', {});
  control.print(result, () => 'Signed out\n');
  return 0;
};

/** Signing the host in and out. */
export const ACCOUNT_ACTIONS: Readonly<Record<string, ControlAction>> = { login, logout };
