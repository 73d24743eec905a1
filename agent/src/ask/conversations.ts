/**
 * Conversations, in memory: each belongs to the user who started it, keeps its last few turns so
 * a follow-up can refer to the last answer, and is forgotten after an hour unused; the oldest go
 * first past the cap. Another user's id is as unknown as a made-up one.
 */
import { randomUUID } from 'node:crypto';
import type { Turn } from './types.js';

const MAX_CONVERSATIONS = 5000;
const MAX_TURNS = 6;
const IDLE_MS = 60 * 60 * 1000;

interface Conversation {
  id: string;
  userId: string;
  turns: Turn[];
  usedAt: number;
}

export class Conversations {
  private byId = new Map<string, Conversation>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The user's conversation, or null when the id is unknown, expired or someone else's. */
  get(userId: string, id: string): Conversation | null {
    const c = this.byId.get(id);
    if (!c || c.userId !== userId || c.usedAt + IDLE_MS <= this.now()) return null;
    return c;
  }

  start(userId: string): Conversation {
    const now = this.now();
    for (const [id, c] of this.byId) if (c.usedAt + IDLE_MS <= now) this.byId.delete(id);
    while (this.byId.size >= MAX_CONVERSATIONS) this.byId.delete(this.byId.keys().next().value!);
    const c: Conversation = { id: randomUUID(), userId, turns: [], usedAt: now };
    this.byId.set(c.id, c);
    return c;
  }

  add(c: Conversation, turn: Turn) {
    c.turns.push(turn);
    if (c.turns.length > MAX_TURNS) c.turns.splice(0, c.turns.length - MAX_TURNS);
    c.usedAt = this.now();
    // Most recently used last, so the cap drops the least recently used.
    this.byId.delete(c.id);
    this.byId.set(c.id, c);
  }
}
