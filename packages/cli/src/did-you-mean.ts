// "Did you mean" for a mistyped name (an operationId, an event type): the known name closest to what was typed,
// when it is close enough to be the one meant. Pure, so a table test covers it.

/** Edits (insert, delete, substitute, case ignored) between two names: the Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, i) => i);
  for (let i = 1; i <= left.length; i++) {
    const row = [i];
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = row;
  }
  return previous[right.length]!;
}

/**
 * The known name closest to `typed`, or undefined when none is within a third of its length (a guess farther
 * off than that points at the wrong thing more often than at the right one).
 *
 * @example
 * closestName("createCustomr", ["createCustomer", "getCustomer"]); // "createCustomer"
 * closestName("hello", ["createCustomer"]); // undefined
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(2, Math.floor(typed.length / 3));
  return best && best.distance <= allowed ? best.name : undefined;
}

/**
 * The refusal of an unknown name: what was typed, the closest known name when there is one, else where to see them.
 *
 * @example
 * unknownNameMessage("--operation-id", "createCustomr", ["createCustomer"], "the operationIds of the spec");
 * // '--operation-id: no operation "createCustomr"; did you mean "createCustomer"?'
 */
export function unknownNameMessage(flag: string, typed: string, known: readonly string[], what: string): string {
  const guess = closestName(typed, known);
  const hint = guess ? `did you mean "${guess}"?` : `it takes one of ${what}`;
  return `${flag}: no ${flag === "--event-type" ? "event type" : "operation"} "${typed}"; ${hint}`;
}
