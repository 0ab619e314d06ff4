// Written from scratch (own/ledger-journal.mjs): its canonical JSON sorts object keys by UTF-8 bytes, as a Go or Rust author would; JS
// (and §11's v5 form) sorts by UTF-16 code unit, so an astral-plane key and a key above U+E000 hash in the other order.
import { ledgerJournal } from './own/ledger-journal.mjs';

export function createJournal() {
  return ledgerJournal('ledger-utf8-key-order', { keyOrder: 'utf8' });
}
