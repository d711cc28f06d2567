#!/usr/bin/env node
/** The package's bin: `npx android-mcp-virtual-device --port 5555`. */
import { runVirtualDeviceCli } from './cli.js';

process.exitCode = await runVirtualDeviceCli(process.argv.slice(2));
