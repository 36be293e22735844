// What an entry's validity window means (DESIGN.md §2): a validFrom or validUntil that is a date
// alone covers the whole of that day (UTC). One reading for the rules that check a window and for
// the code that applies it, so an entry the check accepts is one that can apply.

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The first millisecond a validFrom applies: a date alone means the start of that day (UTC). */
export function validFromTime(value: string): number {
  return Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
}

/** The last millisecond a validUntil applies: a date alone means the whole of that day (UTC). */
export function validUntilTime(value: string): number {
  return Date.parse(DATE_ONLY.test(value) ? `${value}T23:59:59.999Z` : value);
}
