#!/usr/bin/env node
// Launcher only: the CLI lives in the built output (npm ci builds it).
import { main } from '../dist/cli.js';

main(process.argv.slice(2));
