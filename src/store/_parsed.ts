// What parsing a text gives, shared by the YAML and the JSON readers (parse.ts, json-text.ts).
import type { Problem } from '../errors.js';

export interface ParseLimits {
  maxAliases: number;
  maxDepth: number;
  /**
   * The longest YAML text parsed (characters). YAML's syntax tree takes tens of times the text in
   * memory, so a large input must be JSON, which is checked by a scan and parsed natively.
   */
  maxYamlChars?: number;
}

export interface Located {
  line: number;
  column: number;
  frame: string;
}

export interface LocateRequest {
  pointer: string;
  atKey?: boolean;
}

export interface ParsedText {
  /** The parsed value; undefined when the text could not be parsed. */
  value: unknown;
  problems: Problem[];
  /** Finds the line and column of a JSON pointer in the text (the nearest existing node). */
  locate(pointer: string, atKey?: boolean): Located | undefined;
  /** Locates many pointers at once (one pass over a JSON text). */
  locateAll(requests: readonly LocateRequest[]): Array<Located | undefined>;
}
