export * from './gateway-opcodes.js';
export * from './gateway-types.js';
