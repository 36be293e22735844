// A small system for graph tests, whose names hold everything that breaks naive output.
import type { GraphUpdate } from '../../src/types.js';

export const SAMPLE: GraphUpdate = {
  entities: [
    { name: 'Web App', type: 'app', description: 'The customer site.', tags: ['frontend'] },
    { name: 'Auth "v2" [beta]', type: 'service', description: 'Issues tokens;\nrotates keys.', tags: ['core', 'security'], properties: { owner: 'team-a', port: 8443 } },
    { name: 'end', type: 'keyword' },
    { name: 'C:\\data\\N #1 <b>bold</b> & `code`', type: 'data_store' },
    { name: 'Zürich (eu) {primary}', type: 'region' },
  ],
  relationships: [
    { from: 'Web App', to: 'Auth "v2" [beta]', type: 'calls', properties: { timeout_ms: 200 } },
    { from: 'Auth "v2" [beta]', to: 'C:\\data\\N #1 <b>bold</b> & `code`', type: 'reads "from"' },
    { from: 'Auth "v2" [beta]', to: 'C:\\data\\N #1 <b>bold</b> & `code`', type: 'writes_to' },
    { from: 'end', to: 'Web App', type: 'documents' },
    { from: 'C:\\data\\N #1 <b>bold</b> & `code`', to: 'Zürich (eu) {primary}', type: 'hosted_in' },
  ],
};
