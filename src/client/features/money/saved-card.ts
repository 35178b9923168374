// "Save on this device" (DESIGN.md "Money"): the browser keeps the provider's token and the last four
// digits, nothing else, per account (a shared device must not offer one person's card to another).
import type { CardToken } from './card-tokenizer';

export interface SavedCard {
  token: string;
  last4: string;
}

const storageKey = (userId: number) => `savedCard:${userId}`;

export function readSavedCard(userId: number): SavedCard | null {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey(userId)) ?? 'null') as Partial<SavedCard> | null;
    return typeof value?.token === 'string' && typeof value.last4 === 'string' && /^\d{4}$/.test(value.last4)
      ? { token: value.token, last4: value.last4 }
      : null;
  } catch {
    return null;
  }
}

export function saveCard(userId: number, card: CardToken): void {
  const saved: SavedCard = { token: card.token, last4: card.last4 };
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(saved));
  } catch {
    // Storage full or refused (private mode): the card is simply not remembered.
  }
}

export function forgetCard(userId: number): void {
  try {
    localStorage.removeItem(storageKey(userId));
  } catch {
    // Nothing to forget.
  }
}
