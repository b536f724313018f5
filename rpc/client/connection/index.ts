export * from './backoff.js';
export * from './discovery.js';
export * from './errors.js';
export * from './rpc-socket.js';
export * from './sdk-connection.js';
