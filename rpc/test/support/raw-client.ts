/* eslint-disable @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON replies */
import { RawIpcClient } from '../../src/index.js';

/** rpc's raw-framing client (RawIpcClient) with payloads typed `any`, for tests that assert on arbitrary JSON replies. */
export class RawClient extends RawIpcClient<any> {}
