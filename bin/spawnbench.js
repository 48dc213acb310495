#!/usr/bin/env node
import { runCli } from '../src/cli.js';
import { installCrashHandlers } from '../src/runner/crash.js';

installCrashHandlers();
process.exitCode = await runCli(process.argv.slice(2));
