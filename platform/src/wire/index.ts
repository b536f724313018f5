export * from './gateway-opcodes.js';
export * from './gateway-types.js';
export * from './oauth.js';
export * from './lobbies.js';
export * from './game-relationships.js';
export * from './detectable.js';
