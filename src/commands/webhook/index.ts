import { defineGroup } from '../../command.js';
import { listen } from './listen.js';
import { replayCommand } from './replay.js';
import { verify } from './verify.js';

export const webhook = defineGroup({
  name: 'webhook',
  summary: 'verify signed webhook events (ES512 JWS) and receive them locally',
  section: 'Webhooks',
  examples: ['partner webhook verify --file captured.jws', 'partner webhook listen --port 4242 --forward-to http://localhost:3000/webhooks'],
  commands: [verify, listen, replayCommand],
});
