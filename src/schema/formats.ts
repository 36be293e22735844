// The two string formats lore's schemas use, checked the same way by ajv at run time and by the
// validators `npm run build` generates (dist/schema/generated/, which are given these definitions when created).

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a YYYY-MM-DD... string names a real calendar date (2025-02-30 does not). */
export function isRealDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps the years 0-99 to 1900-1999.
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** ajv's format definitions, by format name. */
export const FORMATS = {
  'date-time': { type: 'string', validate: (s: string) => DATE_TIME.test(s) && isRealDate(s) && !Number.isNaN(Date.parse(s)) },
  date: { type: 'string', validate: (s: string) => DATE.test(s) && isRealDate(s) },
} as const;
