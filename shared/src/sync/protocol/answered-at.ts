/** The server's clock in an answer (push, pull): a till learns from it how far its own clock is off. */
import { z } from 'zod';

export const ServerTime = z.iso
  .datetime()
  .meta({ description: "The server's time when it answered (the till measures its clock against it)" });
