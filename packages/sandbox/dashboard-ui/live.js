// Live updates: the server-sent event stream of /_dashboard/api/stream, read with fetch so that it carries the
// session's Authorization header (an EventSource cannot send one, and the session is no cookie). A stream that
// ends or fails is opened again with a growing pause; a 401 (the session is over) stops it. A stream opened again
// sends the last message id it saw as Last-Event-ID, as an EventSource would: the sandbox then says "update" at
// once, so a change made while the stream was away (a replica replaced behind a balancer) is not missed.
import { authorization } from "./api.js";

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 15_000;

/** The id of the last message of any stream read so far (undefined before the first). */
let lastEventId;

/** The id a message carries in its `id:` line, or undefined. */
function idOf(message) {
  const line = message.split("\n").find((l) => l.startsWith("id: "));
  return line === undefined ? undefined : line.slice(4);
}

/** Calls onUpdate for each `update` message of one open stream; resolves when it ends, throws its refusal. */
async function readStream(onOpen, onUpdate) {
  const resume = lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId };
  const res = await fetch("/_dashboard/api/stream", {
    credentials: "omit",
    headers: { ...authorization(), ...resume },
  });
  if (!res.ok) throw Object.assign(new Error(`The sandbox answered ${res.status}`), { status: res.status });
  onOpen();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    text += value;
    for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n")) {
      const message = text.slice(0, end);
      lastEventId = idOf(message) ?? lastEventId;
      if (message.startsWith("event: update")) onUpdate();
      text = text.slice(end + 2);
    }
  }
}

/**
 * Follows the stream until the session ends: onState("Live" | "Reconnecting…" | "Signed out"), onUpdate() per
 * change.
 */
export async function follow(onState, onUpdate) {
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      await readStream(() => {
        pause = FIRST_PAUSE_MS;
        onState("Live");
      }, onUpdate);
    } catch (error) {
      if (error.status === 401) {
        onState("Signed out");
        return;
      }
    }
    onState("Reconnecting…");
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
}
