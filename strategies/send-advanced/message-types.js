/** What a send-advanced worker's messages `[requestId, type, payload]` carry. */
export const STDOUT = 1; // payload: a chunk of the command's stdout (bytes)
export const STDERR = 2; // payload: a chunk of its stderr (the main process drops it, as baseline does)
export const EXIT = 3; // payload: exit code, or the signal name
export const SPAWN_ERROR = 4; // payload: why the command could not start ("spawn nosuchcmd ENOENT")
