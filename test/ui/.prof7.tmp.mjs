import '../../src/ui/index.js';
import React from 'react';
import { render, Box, Text } from 'ink';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
const h = React.createElement;
const stdout = Object.assign(new Writable({ write: (c, e, d) => d() }), { isTTY: true, columns: 80, rows: 24 });
const stdin = Object.assign(new EventEmitter(), { isTTY: false });
const Lines = ({ k }) => h(Box, { flexDirection: 'column', width: 80 }, ...Array.from({ length: 20 }, (_, i) => h(Text, { key: i, wrap: 'truncate-end' }, `line ${i} ${k} `.padEnd(78, 'x'))));
let frames = 0;
const inst = render(h(Lines, { k: 0 }), { stdout, stdin, stderr: process.stderr, exitOnCtrlC: false, maxFps: 1000, patchConsole: false, onRender: () => frames++ });
for (let k = 0; k < 100; k++) { inst.rerender(h(Lines, { k })); await new Promise((r) => setTimeout(r, 2)); }
frames = 0; const c = process.cpuUsage();
for (let k = 0; k < 300; k++) { inst.rerender(h(Lines, { k })); await new Promise((r) => setTimeout(r, 2)); }
const cpu = process.cpuUsage(c);
console.log(`20 plain 78-char lines: ${((cpu.user + cpu.system) / 1000 / frames).toFixed(2)} ms CPU per frame`);
inst.unmount();
