// Public surface of the SignalR-compatible hub server; see README.md beside this file.
export { createHubServer, DEFAULT_TIMEOUTS } from './server.ts'
export { createMemoryBackplane } from './backplane-memory.ts'
export { createRedisBackplane } from './backplane-redis.ts'
export type { RedisBackplane } from './backplane-redis.ts'
export { HubError } from './dispatcher.ts'
export { parseCookies } from './http.ts'
export type {
  Authenticate,
  Backplane,
  HubContext,
  HubDefinition,
  HubHandle,
  HubServer,
  HubServerOptions,
  HubUser,
  Logger,
  Sender,
  Timeouts,
  TransportName,
} from './types.ts'
