#!/usr/bin/env node
// The `complib` command: the CLI runs in this very process (no re-exec), so
// SIGTERM and SIGINT sent to it reach the server.
import module from 'node:module'

// Node 22.1 and later keep the compiled code of the modules loaded from here on
// in a cache on disk (in the system's temporary folder, or NODE_COMPILE_CACHE;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a start after the first one
// skips most of their compiling. Node 20 has none, and starts as before.
module.enableCompileCache?.()
await import('../dist/cli.js')
