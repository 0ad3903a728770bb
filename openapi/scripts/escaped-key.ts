// An object key whose JSON text holds a backslash, at the start of a pretty-printed line (`"a\u00e9": ...`).
// V8's JSON.parse can misread such keys (nodejs/node#63785); the build refuses them in the published files.
export const ESCAPED_KEY: RegExp = /^\s*"[^"\\\n]*\\.(?:[^"\\\n]|\\.)*"\s*:/m;
