#!/usr/bin/env node
// The `complib` command: the CLI runs in this very process (no re-exec), so
// SIGTERM and SIGINT sent to it reach the server.
await import('../dist/cli.js')
