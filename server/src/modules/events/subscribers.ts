/** Every event subscriber of the server, in one list. */
import type { EventBus } from './event-bus.js';
import { customerStatsSubscriber } from '../customers/services/customer-stats.js';
import { lowStockNotifications } from '../notifications/services/low-stock.js';

export function registerSubscribers(bus: EventBus): void {
  bus.subscribe(customerStatsSubscriber);
  bus.subscribe(lowStockNotifications);
}
