import { defineGroup } from '../../command.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { status } from './status.js';
import { switchProfile } from './switch.js';
import { token } from './token.js';

export const auth = defineGroup({
  name: 'auth',
  summary: 'log in, check and log out: saved profiles, their token in the system keyring',
  section: 'Setup',
  examples: ['partner auth login --base-url https://api.example.com', 'partner auth status', 'partner auth switch staging'],
  commands: [login, status, token, switchProfile, logout],
});
