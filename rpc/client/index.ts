// The game-side SDK: `import { Client, AuthorizationArgs } from 'companion/client'`.
export {};
