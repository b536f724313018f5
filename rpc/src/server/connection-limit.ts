/** Open connections one RPC server serves at most, all programs together (the total cap). */
export const DEFAULT_MAX_CONNECTIONS = 1024;
