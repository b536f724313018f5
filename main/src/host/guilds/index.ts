export * from './guild-source.js';
export * from './guild-shapes.js';
export * from './guild-commands.js';
export * from './revocation.js';
