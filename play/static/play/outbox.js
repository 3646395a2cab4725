// Writes that outlive the venue's network: each is kept in this browser's storage, with the
// Idempotency-Key it will always be sent with, until the server has answered it. While the
// network is down the page says it is waiting to send; when the browser is back online (or the
// page is opened again, even after a reload) it is sent, and the server applies it once however
// often it arrives (docs/api.md, "Idempotency"). Used by the players' result reports and
// confirmations (offlinetable.js) and by the desk's result form (deskoutbox.js).

import { newKey } from "./api.js";

/**
 * @typedef {{key: string, path: string, body: unknown, label: string}} Item
 * @typedef {{status: number, code?: string, detail?: string} | null} Failure what the server
 *   refused, or null when it was sent and taken
 * @typedef {{waiting: Item[], sent: Item[], refused: {item: Item, failure: Failure}[]}} OutboxState
 */

/**
 * A short name for a secret (FNV-1a, 32 bits): the storage of a seat link's page is named by it,
 * so that the secret itself is never written to the browser's storage.
 *
 * @param {string} text
 */
export function shortName(text) {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

export class Outbox {
  /**
   * @param {{storage: Pick<Storage, "getItem" | "setItem">, name: string,
   *   send: (item: Item) => Promise<unknown>, offline: (failure: unknown) => boolean}} options
   *   `send` delivers one item (with its key); `offline` tells a failure to deliver (the network)
   *   from the server's refusal, which ends the item's journey as surely as its acceptance.
   */
  constructor({ storage, name, send, offline }) {
    this.storage = storage;
    this.name = name;
    this.send = send;
    this.offline = offline;
    this.sending = false;
    /** @type {Item[]} */
    this.sent = [];
    /** @type {{item: Item, failure: Failure}[]} */
    this.refused = [];
    /** @type {((state: OutboxState) => void)[]} */
    this.listeners = [];
  }

  /** @returns {Item[]} what waits to be sent, oldest first */
  waiting() {
    try {
      const kept = JSON.parse(this.storage.getItem(this.name) ?? "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return [];
    }
  }

  /** @param {Item[]} items */
  keep(items) {
    this.storage.setItem(this.name, JSON.stringify(items));
  }

  /** @param {(state: OutboxState) => void} listener */
  listen(listener) {
    this.listeners.push(listener);
    listener(this.state());
  }

  /** @returns {OutboxState} */
  state() {
    return { waiting: this.waiting(), sent: [...this.sent], refused: [...this.refused] };
  }

  changed() {
    const state = this.state();
    for (const listener of this.listeners) {
      listener(state);
    }
  }

  /**
   * Keep a write, then try to send it (and whatever waited before it).
   *
   * @param {{path: string, body: unknown, label: string}} write
   * @returns {Promise<Item>}
   */
  async add(write) {
    const item = { key: newKey(), ...write };
    this.keep([...this.waiting(), item]);
    this.changed();
    await this.flush();
    return item;
  }

  /** Send what waits, oldest first, until the network fails again (then it waits on). */
  async flush() {
    if (this.sending) {
      return;
    }
    this.sending = true;
    try {
      for (let item = this.waiting()[0]; item !== undefined; item = this.waiting()[0]) {
        /** @type {Failure} */
        let failure = null;
        try {
          await this.send(item);
        } catch (error) {
          if (this.offline(error)) {
            return;
          }
          const refusal = /** @type {{status?: number, code?: string, detail?: string}} */ (error);
          failure = { status: refusal.status ?? 0, code: refusal.code, detail: refusal.detail ?? String(error) };
        }
        this.keep(this.waiting().filter((kept) => kept.key !== item.key));
        if (failure === null) {
          this.sent.push(item);
        } else {
          this.refused.push({ item, failure });
        }
        this.changed();
      }
    } finally {
      this.sending = false;
      this.changed();
    }
  }

  /**
   * Send what waits now, when the browser comes back online, and every few seconds while
   * something waits (a browser may not tell that the network is back).
   *
   * @param {Window} window
   */
  watch(window) {
    window.addEventListener("online", () => this.flush());
    window.setInterval(() => {
      if (this.waiting().length > 0) {
        this.flush();
      }
    }, 5000);
    return this.flush();
  }
}
