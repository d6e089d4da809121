// What every write carries besides its body: who, which request, and its idempotency key.
import type { EventMetadata } from '../eventstore/types.js';

export type CommandContext = EventMetadata;
