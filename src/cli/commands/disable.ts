import { toggleCommand } from '../_toggle.js';

export const command = toggleCommand(false);
