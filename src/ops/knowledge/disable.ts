import { toggleOp } from './_toggle.js';

export const op = toggleOp(false);
