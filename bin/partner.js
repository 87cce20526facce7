#!/usr/bin/env node
// The entry of an npm install: the launcher's steps are built from src/launcher/launch.ts
// (npm ci builds dist/). CommonJS (bin/package.json): Node starts a CommonJS
// script without setting up its ES module loader, which a bare --version then
// never pays for.
'use strict';
require('../dist/launch.cjs').launch(process.argv.slice(2));
