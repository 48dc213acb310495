/**
 * In-memory streams that look like a terminal to Ink: a TTY stdout that records
 * everything written, and a stdin that can be typed into. Same idea as
 * ink-testing-library's streams, plus isTTY and rows so mountDashboard sees a terminal.
 */
import { EventEmitter } from 'node:events';

export class FakeStdout extends EventEmitter {
  isTTY = true;
  columns;
  rows;
  chunks = [];
  constructor({ columns = 80, rows = 24 } = {}) {
    super();
    this.columns = columns;
    this.rows = rows;
  }
  write = (chunk, encodingOrCallback, callback) => {
    this.chunks.push(String(chunk));
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (done) setImmediate(done);
    return true;
  };
  /** Everything written so far. */
  text = () => this.chunks.join('');
}

export class FakeStdin extends EventEmitter {
  isTTY;
  rawMode = [];
  data = null;
  constructor({ isTTY = true } = {}) {
    super();
    this.isTTY = isTTY;
  }
  /** Types `data` as if a key was pressed. */
  type(data) {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = () => {
    const { data } = this;
    this.data = null;
    return data;
  };
  setRawMode(on) {
    this.rawMode.push(on);
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}
