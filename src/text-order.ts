// The one order of text lore sorts by: UTF-16 code units, as `<` compares strings. It is the
// same on every machine, so a sorted list or a file lore writes (a baseline, a migration) does not
// change with the locale of whoever ran it, and it costs nothing to set up, where localeCompare
// first loads ICU's collator (about 8 ms of a short process). It imports nothing.

/**
 * Compares two strings by code unit: a comparator for Array.prototype.sort.
 *
 * @example
 * ['b', 'B', 'a'].sort(byText); // → ['B', 'a', 'b']
 */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
