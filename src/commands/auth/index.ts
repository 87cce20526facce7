import { defineGroup } from '../../command.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { status } from './status.js';
import { switchProfile } from './switch.js';

export const auth = defineGroup({
  name: 'auth',
  summary: 'log in, check and log out: saved profiles with their token',
  section: 'Setup',
  examples: ['partner auth login --base-url https://api.example.com', 'partner auth status', 'partner auth switch staging'],
  commands: [login, status, switchProfile, logout],
});
