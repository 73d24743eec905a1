/** Every event subscriber of the server, in one list. */
import type { EventBus } from './event-bus.js';

export function registerSubscribers(bus: EventBus): void {
  void bus;
}
